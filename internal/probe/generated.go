package probe

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/reach"
	"github.com/code2skill/code2skill/internal/sample"
)

// generatedFile stands for the case file of a generated case in messages.
const generatedFile = "(generated)"

// generateDryRunCases returns a dry-run case for every write tool the given
// cases leave without one, so that a strict package needs no hand-written
// case to prove its dry-run branch: the arguments are the minimal valid
// arguments of the tool's input schema, settled against its conditional
// rules — the sampler the behaviour vectors use. Given cases take
// precedence. A tool whose schema yields no valid arguments gets no case
// and a finding that says why (its coverage finding follows).
func generateDryRunCases(exp *expectations, given []*Case) ([]*Case, []diag.Diagnostic) {
	var out []*Case
	var ds []diag.Diagnostic
	for _, t := range exp.tools {
		if !t.write || hasCase(given, DryRun, t.name) {
			continue
		}
		args, err := sample.Arguments(t.input, t.rules)
		if err == nil {
			if vs := validate(t.input, args); len(vs) > 0 {
				err = errorf("the sampled arguments break the inputSchema: %s", vs[0])
			}
		}
		if err != nil {
			ds = append(ds, RuleCoverage.New(contractFile, "cannot generate a --dry-run-call case for write tool %q: %v", t.name, err).
				AtPointer(t.pointer+"/inputSchema"))
			continue
		}
		out = append(out, &Case{Kind: DryRun, File: generatedFile, Index: len(out), Name: t.name, Arguments: args, Generated: true})
	}
	return out, ds
}

func hasCase(cases []*Case, kind Kind, name string) bool {
	for _, c := range cases {
		if c.Kind == kind && c.Name == name {
			return true
		}
	}
	return false
}

// conditionalRules returns a schema-contract tool's conditionalRules, nil
// when it has none.
func conditionalRules(c *canonjson.Object) *canonjson.Object {
	rules, _ := field(c, "conditionalRules").(*canonjson.Object)
	return rules
}

// generateCoreDryRunCases returns a dry-run case for every write tool of a
// core package (readOnlyHint not true) the given cases leave without one:
// the arguments are those of validate's reachability calls, a value for
// every input the tool's schema declares. A core package needs no
// hand-written case either.
func (p *prober) generateCoreDryRunCases(listed []mcpcheck.Tool) []*Case {
	var out []*Case
	for _, t := range reach.ToolsOf(listed) {
		if t.ReadOnly() || hasCase(p.cases, DryRun, t.Name) {
			continue
		}
		c := &Case{Kind: DryRun, File: generatedFile, Index: len(out), Name: t.Name, Arguments: reach.Arguments(t), Generated: true}
		out = append(out, c)
		p.cases = append(p.cases, c)
		p.result.GeneratedDryRunCases = append(p.result.GeneratedDryRunCases, t.Name)
	}
	return out
}
