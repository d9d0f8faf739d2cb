package mcpcheck

import (
	"context"
	"errors"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// Discovery is what a server showed of itself: initialize and tools/list.
type Discovery struct {
	// ProtocolVersion is the negotiated version, "" when initialize failed.
	ProtocolVersion string
	// Tools are the tools/list entries, in the server's order.
	Tools []Tool
	// Isolation is the isolation the server ran under.
	Isolation sandbox.Isolation
	// Diagnostics are the findings: session rules and tool shape rules.
	Diagnostics *diag.List
}

// Discover starts the server of the package in dir, initializes a session,
// lists its tools, applies the tool shape rules of opts.Profile and stops
// the server. The error is for what stops the job itself (node missing: it
// wraps sandbox.ErrNotFound); what the server does wrong is a diagnostic.
func Discover(ctx context.Context, dir string, opts Options) (*Discovery, error) {
	return DiscoverThen(ctx, dir, opts, nil)
}

// DiscoverThen is Discover with more work in the same session: when
// tools/list was answered, then runs with the session and the tools before
// the server is stopped. Its error stops the job, as Discover's does.
func DiscoverThen(ctx context.Context, dir string, opts Options, then func(context.Context, *Session, []Tool) error) (*Discovery, error) {
	s, err := Start(ctx, dir, opts)
	if err != nil {
		return nil, err
	}
	d := &Discovery{Isolation: s.Isolation(), Diagnostics: s.Diagnostics(), ProtocolVersion: s.ProtocolVersion()}
	lctx, cancel := context.WithTimeout(ctx, opts.discoveryTimeout())
	defer cancel()
	d.Tools, err = s.ListTools(lctx)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		// The listing's own deadline, not the caller's: a finding.
		s.diags.Add(RuleDiscoveryTimeout.New(ServerFile, "tools/list did not finish within %s, all pages together; the server was stopped%s",
			opts.discoveryTimeout(), opts.raise()))
		s.proc.Kill()
		s.down, s.killed = true, true
		err = nil
	}
	if err == nil && then != nil && !s.Down() && !s.diags.Has(RuleToolsList) && d.ProtocolVersion != "" {
		err = then(ctx, s, d.Tools)
	}
	if closeErr := s.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return nil, err
	}
	d.Diagnostics.Add(CheckTools(d.Tools, opts.Profile)...)
	return d, nil
}
