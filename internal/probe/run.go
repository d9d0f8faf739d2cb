package probe

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// The tool name the probe calls to see an unknown tool rejected, and the
// argument it adds to a tool that takes none.
const (
	unknownToolName    = "__code2skill_unknown_tool__"
	unexpectedArgument = "__code2skill_unexpected_argument__"
)

// prober holds one run's state.
type prober struct {
	opts  Options
	exp   *expectations
	dir   string         // the detached copy
	binds []sandbox.Bind // what its server sees besides it
	// command starts the server; nil means node mcp-tool/index.mjs.
	command []string
	// goStdio marks a go-stdio package, whose server is the Go SDK's.
	goStdio bool
	result  *Result
	cases   []*Case
	rows    []*ToolStatus
	// redact writes the transcript without credentials; redacted counts
	// the lines it changed.
	redact   mcpcheck.Redactor
	redacted *int
	// listed holds the outputSchema each Tool listed in the current
	// session (nil for none): what clients check its results against.
	listed map[string]canonjson.Value
}

// initTable starts the per-tool table with the contract's tools, in
// contract order; listed tools of a core package are added as discovered.
func (p *prober) initTable() {
	for _, t := range p.exp.tools {
		p.row(t.name)
	}
}

// row returns the table row of a tool, adding it when new.
func (p *prober) row(name string) *ToolStatus {
	if i := slices.IndexFunc(p.rows, func(r *ToolStatus) bool { return r.Name == name }); i >= 0 {
		return p.rows[i]
	}
	r := &ToolStatus{Name: name, Discovery: NotRun, Success: NotRun, Error: NotRun, DryRun: NotRun}
	p.rows = append(p.rows, r)
	return r
}

// mark records the outcome of one check of a tool: a cell that failed once
// stays failed.
func mark(cell *Status, ok bool) {
	switch {
	case !ok:
		*cell = Failed
	case *cell != Failed:
		*cell = Passed
	}
}

func (p *prober) run(ctx context.Context) error {
	defer func() { p.result.Tools = p.rows }()
	business := p.casesOf(Success, Failure)
	network := sandbox.DenyNetwork
	if p.opts.AllowNetwork {
		network = sandbox.AllowNetwork
	}

	// The protocol session runs under the dry-run variable, without the
	// network: it calls tools with invalid arguments (strict) and makes
	// the dry-run calls, given or generated for every write without one,
	// and nothing it does can dispatch a write. The business calls get a
	// session of their own.
	env := []string{p.exp.dryRunVariable + "=1"}
	if p.exp.config != nil {
		env = append(p.exp.config.Env(), env...)
	}
	s, err := p.start(ctx, "protocol", env, sandbox.DenyNetwork)
	if err != nil {
		return err
	}
	err = p.protocolSession(ctx, s, p.casesOf(DryRun))
	if err := p.finish(s, err); err != nil {
		return err
	}
	if p.result.ProtocolVersion == "" {
		return nil
	}
	if len(business) == 0 {
		if !p.exp.strict {
			return nil
		}
		// The protocol session listed the dry-run envelope's output
		// schema; the contract's is what the Tools list when they run
		// for real.
		s, err = p.start(ctx, "listing", nil, sandbox.DenyNetwork)
		if err != nil {
			return err
		}
		return p.finish(s, p.listing(ctx, s))
	}
	s, err = p.start(ctx, "business", nil, network)
	if err != nil {
		return err
	}
	err = p.listing(ctx, s)
	if err == nil {
		err = p.callAll(ctx, s, business)
	}
	return p.finish(s, err)
}

// listing lists the tools of a session that runs without the dry-run
// variable: a strict package's must list the contract's output schemas,
// and every package's results are judged against what its Tools list.
func (p *prober) listing(ctx context.Context, s *mcpcheck.Session) error {
	tools, err := s.ListTools(ctx)
	if err != nil || s.Down() {
		return err
	}
	if p.exp.strict {
		p.outputListing(tools)
	} else {
		p.learnListing(tools)
	}
	return nil
}

// withoutUnguardedBusiness drops the business calls (--call, --error-call)
// of a session the sandbox could not deny the network, unless the user
// allowed it: such a call would reach the real service without the user's
// say. The dropped calls are reported and stay not run.
func (p *prober) withoutUnguardedBusiness(s *mcpcheck.Session, cases []*Case) []*Case {
	if p.opts.AllowNetwork || s.Isolation().NetworkDenied {
		return cases
	}
	var dropped []string
	out := cases[:0:0]
	for _, c := range cases {
		if c.Kind == Success || c.Kind == Failure {
			dropped = append(dropped, c.where())
			continue
		}
		out = append(out, c)
	}
	if len(dropped) > 0 {
		p.result.Diagnostics.Add(RuleNetworkNotDenied.New(mcpcheck.ServerFile,
			"%d business call(s) not made (%s): the sandbox could not deny this server the network here (%s), so they could reach the real service; pass --allow-network if you authorise that for this run, or run where user namespaces are available",
			len(dropped), strings.Join(dropped, ", "), s.Isolation().Detail))
	}
	return out
}

// start starts one session.
func (p *prober) start(ctx context.Context, label string, env []string, network sandbox.Network) (*mcpcheck.Session, error) {
	if p.opts.Progress != nil {
		fmt.Fprintf(p.opts.Progress, "probe: %s session\n", label)
	}
	s, err := mcpcheck.Start(ctx, p.dir, p.serverOptions(label, env, network))
	if err != nil {
		return nil, err
	}
	p.result.NodeProcesses++
	p.result.Isolation = sandbox.Weakest(p.result.Isolation, s.Isolation())
	if p.result.NodeProcesses == 1 {
		p.result.ProtocolVersion = s.ProtocolVersion()
	}
	return s, nil
}

// finish closes a session and collects its findings; err is what the
// session's work returned.
func (p *prober) finish(s *mcpcheck.Session, err error) error {
	closeErr := s.Close()
	p.result.Diagnostics.Merge(s.Diagnostics())
	if err != nil {
		return err
	}
	return closeErr
}

// protocolSession runs the protocol checks, then cases: the dry-run cases,
// or a core package's business cases when it has no dry-run case.
func (p *prober) protocolSession(ctx context.Context, s *mcpcheck.Session, cases []*Case) error {
	tools, err := s.ListTools(ctx)
	if err != nil {
		return err
	}
	if !s.Down() {
		p.surface(tools)
		if !p.exp.strict {
			if err := p.checkCaseTools(tools); err != nil {
				return err
			}
			cases = append(cases, p.generateCoreDryRunCases(tools)...)
		}
	}
	if err := p.unknownTool(ctx, s); err != nil {
		return err
	}
	if err := p.unknownMethodCall(ctx, s); err != nil {
		return err
	}
	if p.exp.strict {
		for _, t := range p.exp.tools {
			if p.row(t.name).Discovery == NotRun {
				continue // not listed: calling it proves nothing more
			}
			if err := p.invalidArguments(ctx, s, t); err != nil {
				return err
			}
		}
	}
	if err := p.callAll(ctx, s, cases); err != nil {
		return err
	}
	// Last: a go-stdio server ends the session here.
	return p.malformed(ctx, s)
}

// checkCaseTools makes sure every case of a core package names a tool the
// server lists: a case for another tool is the caller's mistake, a usage
// error, not a row of the table.
func (p *prober) checkCaseTools(tools []mcpcheck.Tool) error {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name)
	}
	for _, c := range p.cases {
		if !slices.Contains(names, c.Name) {
			return usagef("%s %s: the server lists no tool %q (it lists %s)", c.Kind.flag(), c.where(), c.Name, quoteList(names))
		}
	}
	return nil
}

// casesOf returns the cases of the given kinds, in the order given.
func (p *prober) casesOf(kinds ...Kind) []*Case {
	var out []*Case
	for _, c := range p.cases {
		if slices.Contains(kinds, c.Kind) {
			out = append(out, c)
		}
	}
	return out
}

// callAll makes each case's call and judges its answer: what its kind
// requires, its assertions, and that it carries no credential.
func (p *prober) callAll(ctx context.Context, s *mcpcheck.Session, cases []*Case) error {
	cases = p.withoutUnguardedBusiness(s, cases)
	for _, c := range cases {
		res, err := s.CallTool(ctx, c.Name, rawArguments(c.Arguments))
		if err != nil {
			return err
		}
		var ok bool
		var status int
		switch c.Kind {
		case Success:
			ok, status = p.checkSuccess(c, res)
		case Failure:
			ok, status = p.checkFailure(c, res)
		case DryRun:
			ok = p.checkDryRun(c, res)
		}
		clean := p.scanCredentials(c, res)
		held := p.checkAssertions(c, res)
		ok = ok && clean && held
		row := p.row(c.Name)
		switch c.Kind {
		case Success:
			mark(&row.Success, ok)
			p.result.Checks.Success.add(ok)
		case Failure:
			mark(&row.Error, ok)
			p.result.Checks.Error.add(ok)
		case DryRun:
			mark(&row.DryRun, ok)
			p.result.Checks.DryRun.add(ok)
		}
		verdict := Passed
		if !ok {
			verdict = Failed
		}
		p.result.Calls = append(p.result.Calls, &CallStatus{Case: c.where(), Tool: c.Name, Kind: c.Kind.flag()[2:], HTTPStatus: status, Verdict: verdict})
	}
	return nil
}

// rawArguments encodes arguments for the SDK, keeping their member order.
func rawArguments(args *canonjson.Object) rawJSON {
	return rawJSON(canonjson.Encode(args))
}

// rawJSON is JSON the SDK marshals as it is.
type rawJSON []byte

func (r rawJSON) MarshalJSON() ([]byte, error) { return r, nil }
