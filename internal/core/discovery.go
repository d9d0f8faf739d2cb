package core

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/reach"
)

// discover starts the package's MCP server in the sandbox, with the request
// recorder preloaded, asks for initialize and tools/list over the official
// Go SDK, checks every tool's shape under the core-export-v1 rules and its
// inputs (checkToolInputs), and, in the same session, makes the
// reachability calls (checkRequests).
func (c *checker) discover(ctx context.Context) {
	drv, err := reach.WriteDriver()
	if err != nil {
		c.failure(err)
		return
	}
	defer drv.Remove()
	cfg := c.reachConfig()
	setup := reach.NewSetup(cfg)
	d, err := mcpcheck.DiscoverThen(ctx, c.pkg.Dir(), mcpcheck.Options{
		RequestTimeout:    c.opts.requestTimeout(),
		InitializeTimeout: c.opts.InitializeTimeout,
		TimeoutFlag:       requestTimeoutFlag,
		Profile:           mcpcheck.ProfileCore,
		Label:             "discovery",
		Binds:             append(c.binds(), drv.Bind()),
		Env:               setup.Env(),
		Preload:           drv.Path,
	}, func(ctx context.Context, s *mcpcheck.Session, tools []mcpcheck.Tool) error {
		return c.checkRequests(ctx, s, tools, setup, cfg)
	})
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			c.failure(fmt.Errorf("MCP discovery: %w", err))
		}
		return
	}
	c.noteIsolation(d.Isolation)
	c.mu.Lock()
	c.result.NodeProcesses++
	c.result.ProtocolVersion = d.ProtocolVersion
	for _, t := range d.Tools {
		c.result.Tools = append(c.result.Tools, t.Name)
	}
	c.result.Discovery = StagePassed
	if d.Diagnostics.HasErrors() {
		c.result.Discovery = StageFailed
	}
	if d.ProtocolVersion != "" && !d.Diagnostics.Has(mcpcheck.RuleToolsList) {
		c.listed = append([]mcpcheck.Tool{}, d.Tools...) // non-nil: the server's whole tool set
	}
	c.mu.Unlock()
	c.add(d.Diagnostics.Sorted()...)
	c.add(checkToolInputs(d.Tools)...)
	if c.result.Reach == nil {
		c.notChecked()
	}
}

// notChecked says which Tools' requests were not checked because the
// server never listed its tools (it failed to start, or tools/list
// failed), naming those the code registers.
func (c *checker) notChecked() {
	var names []string
	for _, file := range sortedKeys(c.modules) {
		for _, r := range c.modules[file].ToolRegistrations() {
			if r.Name != "" {
				names = append(names, fmt.Sprintf("%q", r.Name))
			}
		}
	}
	what := "no Tool's requests were checked"
	if len(names) > 0 {
		what = "the requests of " + strings.Join(names, ", ") + " were not checked"
	}
	c.add(reach.RuleNotChecked.New(mcpcheck.ServerFile, "%s: the server did not list its tools (see the discovery findings)", what))
}
