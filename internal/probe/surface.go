package probe

import (
	"context"
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/toolresult"
)

const serverFile = mcpcheck.ServerFile

// surface checks the tools/list answer of the protocol session: the shape
// rules of the profile and, for a strict package, the exact tool set and
// each tool's annotations and schemas against the contract; the session
// runs under the dry-run variable, so the output schema each Tool lists
// there is the dry-run envelope's. It fills the discovery column.
func (p *prober) surface(tools []mcpcheck.Tool) {
	p.learnListing(tools)
	profile := mcpcheck.ProfileCore
	if p.exp.strict {
		profile = mcpcheck.ProfileStrict
	}
	// A tool's discovery fails when any finding points into its entry.
	bad := map[int]bool{}
	add := func(index int, ds ...diag.Diagnostic) {
		p.result.Diagnostics.Add(ds...)
		if len(ds) > 0 {
			bad[index] = true
		}
	}
	for _, d := range mcpcheck.CheckTools(tools, profile) {
		add(toolIndex(d.Pointer), d)
	}
	listed := map[string]bool{}
	for i := range tools {
		t := &tools[i]
		listed[t.Name] = true
		if !p.exp.strict {
			continue
		}
		want := p.exp.tool(t.Name)
		if want == nil {
			add(t.Index, RuleToolUnexpected.New(serverFile, "tools/list has %q, which the contract does not declare", t.Name).AtPointer(t.Pointer("name")))
			continue
		}
		add(t.Index, compareTool(t, want, dryRunListing)...)
	}
	for i := range tools {
		t := &tools[i]
		if t.Name != "" {
			mark(&p.row(t.Name).Discovery, !bad[t.Index])
			p.result.Checks.Discovery.add(!bad[t.Index])
		}
	}
	for _, want := range p.exp.tools {
		if !listed[want.name] {
			p.result.Diagnostics.Add(RuleToolMissing.New(serverFile,
				"tools/list lacks %q, which %s declares; register it with a literal server.registerTool call", want.name, contractFile))
			p.row(want.name).Discovery = Failed
			p.result.Checks.Discovery.add(false)
		}
	}
}

// toolIndex returns the tools/list index a pointer such as /tools/2/name
// points into, or -1.
func toolIndex(pointer string) int {
	tokens := diag.SplitPointer(pointer)
	if len(tokens) < 2 || tokens[0] != "tools" {
		return -1
	}
	var i int
	if _, err := fmt.Sscanf(tokens[1], "%d", &i); err != nil {
		return -1
	}
	return i
}

// learnListing keeps the outputSchema each listed Tool declares (nil for
// none), which clients check that Tool's results against for the rest of
// the session.
func (p *prober) learnListing(tools []mcpcheck.Tool) {
	p.listed = map[string]canonjson.Value{}
	for _, t := range tools {
		if entry, err := canonjson.Decode(t.Raw); err == nil && t.Name != "" {
			o, _ := entry.(*canonjson.Object)
			p.listed[t.Name] = field(o, "outputSchema")
		}
	}
}

// What a strict package's Tools list as their output schema.
const (
	contractListing = false // the contract's: the server runs for real
	dryRunListing   = true  // the dry-run envelope's: the server runs under the dry-run variable
)

// outputListing checks the output schemas of a strict package's tools/list
// answered without the dry-run variable (the business session, or a
// listing session of its own when there is none): each is the contract's.
// A difference fails the Tool's discovery.
func (p *prober) outputListing(tools []mcpcheck.Tool) {
	p.learnListing(tools)
	for i := range tools {
		t := &tools[i]
		want := p.exp.tool(t.Name)
		if want == nil {
			continue // the protocol session reported it
		}
		if pr := toolresult.CheckOutputSchema(p.listed[t.Name]); pr != nil {
			p.result.Diagnostics.Add(mcpcheck.RuleToolOutputSchema.New(serverFile, "tool %q: %s; fails in %s", t.Name, pr.Message, strings.Join(pr.Clients, ", ")).
				AtPointer(t.Pointer("outputSchema")))
			p.row(t.Name).Discovery = Failed
			continue
		}
		entry, err := canonjson.Decode(t.Raw)
		if err != nil {
			continue // CheckTools reported the malformed entry
		}
		obj, _ := entry.(*canonjson.Object)
		if ds := compareSchema(t, obj, "outputSchema", RuleOutputSchema, want.output, contractListing); len(ds) > 0 {
			p.result.Diagnostics.Add(ds...)
			p.row(t.Name).Discovery = Failed
		}
	}
}

// compareTool compares a listed tool's annotations and schemas with the
// contract; the output schema with the dry-run envelope's when the server
// runs under the dry-run variable (dryRun).
func compareTool(t *mcpcheck.Tool, want *expectedTool, dryRun bool) []diag.Diagnostic {
	entry, err := canonjson.Decode(t.Raw)
	if err != nil {
		return nil // CheckTools reported the malformed entry
	}
	obj, _ := entry.(*canonjson.Object)
	var ds []diag.Diagnostic

	ann, _ := field(obj, "annotations").(*canonjson.Object)
	var diffs []string
	for _, h := range hintNames {
		got, w := field(ann, h), field(want.annotations, h)
		if !canonjson.Equal(got, w) {
			diffs = append(diffs, fmt.Sprintf("%s is %s, the contract says %s", h, show(got), show(w)))
		}
	}
	if len(diffs) > 0 {
		ds = append(ds, RuleAnnotations.New(serverFile, "tool %q: %s", t.Name, strings.Join(diffs, "; ")).
			AtPointer(t.Pointer("annotations")))
	}

	ds = append(ds, compareSchema(t, obj, "inputSchema", RuleInputSchema, want.input, false)...)
	output := want.output
	if dryRun {
		output, _ = toolresult.DryRunOutputSchema().(*canonjson.Object)
	}
	return append(ds, compareSchema(t, obj, "outputSchema", RuleOutputSchema, output, dryRun)...)
}

// compareSchema compares the schema a listed tool gives under key (obj is
// its decoded entry) with want: the contract's, or (dryRun) the dry-run
// envelope's.
func compareSchema(t *mcpcheck.Tool, obj *canonjson.Object, key string, rule *diag.Rule, want *canonjson.Object, dryRun bool) []diag.Diagnostic {
	got, present := obj.Get(key)
	if !present {
		return []diag.Diagnostic{rule.New(serverFile, "tool %q lists no %s; the contract declares one", t.Name, key).AtPointer(t.Pointer())}
	}
	g, w := normalizeSchema(got), normalizeSchema(want)
	d, differ := canonjson.FirstDifference(w, g)
	switch {
	case !differ:
		return nil
	case dryRun:
		return []diag.Diagnostic{rule.New(serverFile,
			"tool %q: under the dry-run variable every call answers with the dry-run envelope, so the Tool must list the envelope's schema as its %s (clients check results against it); it differs at %s: the server lists %s, the envelope's schema has %s",
			t.Name, key, pointerOrRoot(d.Pointer), show(d.B), show(d.A)).AtPointer(t.Pointer(key))}
	}
	return []diag.Diagnostic{rule.New(serverFile, "tool %q: %s differs from the contract at %s: the server lists %s, the contract has %s",
		t.Name, key, pointerOrRoot(d.Pointer), show(d.B), show(d.A)).AtPointer(t.Pointer(key))}
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "its root"
	}
	return p
}

// unknownTool calls a tool no package has and judges the rejection.
func (p *prober) unknownTool(ctx context.Context, s *mcpcheck.Session) error {
	res, err := s.CallTool(ctx, unknownToolName, rawJSON("{}"))
	if err != nil {
		return err
	}
	switch {
	case res == nil:
		// No answer: the session reported why.
	case res.Error != nil:
		p.result.UnknownToolAnswer = AnswerProtocolError
	default:
		r, perr := parseResult(res.Raw)
		if perr == nil && r.IsError && strings.Contains(r.Text(), "-32602") {
			p.result.UnknownToolAnswer = AnswerToolError
			break
		}
		what := "accepted it"
		if perr != nil {
			what = "answered with a malformed result: " + perr.Error()
		} else if r.IsError {
			what = "answered with an isError result that does not carry -32602 (invalid params)"
		}
		p.result.Diagnostics.Add(RuleUnknownTool.New(serverFile,
			"tools/call of the unknown tool %q: the server %s; it must reject it with a JSON-RPC error", unknownToolName, what))
	}
	p.result.Checks.UnknownTool.add(p.result.UnknownToolAnswer != "")
	return nil
}

// invalidArguments calls a tool with its required arguments missing (or
// with an unexpected argument when it requires none) and checks that the
// call is rejected.
func (p *prober) invalidArguments(ctx context.Context, s *mcpcheck.Session, t *expectedTool) error {
	args, what := rawJSON("{}"), "without its required arguments"
	if req, _ := field(t.input, "required").(canonjson.Array); len(req) == 0 {
		args, what = rawJSON(`{"`+unexpectedArgument+`":true}`), "with the unexpected argument "+unexpectedArgument
	}
	res, err := s.CallTool(ctx, t.name, args)
	if err != nil {
		return err
	}
	if res == nil {
		p.result.Checks.InvalidArguments.add(false) // no answer: the session reported why
		return nil
	}
	rejected, returned := res.Error != nil, true
	if !rejected {
		r, perr := parseResult(res.Raw)
		switch {
		case perr != nil:
		case !r.IsError:
		case strings.Contains(r.Text(), "-32602"):
			rejected = true // the TypeScript SDK's input validation error
		default:
			rejected = len(envelopeProblems(r, t)) == 0
		}
		if perr == nil && r.IsError {
			returned = p.judgeClients("a call "+what, t.name, r)
		}
	}
	if !rejected {
		p.result.Diagnostics.Add(RuleInvalidArguments.New(serverFile,
			"tool %q called %s was not rejected by a JSON-RPC error or a structured Tool error; validate input before the handler runs", t.name, what))
	}
	p.result.Checks.InvalidArguments.add(rejected && returned)
	return nil
}
