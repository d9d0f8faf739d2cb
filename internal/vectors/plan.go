package vectors

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/jsonschema"
)

// planner derives the checks of a contract and the calls their vectors
// make.
type planner struct {
	in      *derive.Inputs
	adapter bool // the package has an MCP adapter to run
	caps    []*capPlan
	calls   []*call
	checks  []*check
	schemas map[string]*jsonschema.Schema // by the schema's digest form
	comp    *jsonschema.Compiler
	goals   map[string]*goalPlan
}

// plan derives, for every capability, its behaviour checks — the minimum
// the contract implies (spec §8.1) and the declared ones of phase behavior,
// plus CheckDryRun — and for every workflow its bypass checks, with the
// calls their vectors make.
func plan(in *derive.Inputs, adapter bool) *planner {
	p := &planner{in: in, adapter: adapter, schemas: map[string]*jsonschema.Schema{}, comp: jsonschema.NewCompiler(), goals: map[string]*goalPlan{}}
	c := in.Contract
	for i := range c.Capabilities {
		p.caps = append(p.caps, newCapPlan(p, i))
	}
	for _, k := range p.caps {
		behavior, _ := derive.MinimumChecks(c, k.cp)
		var ids []string
		pointers := map[string]string{}
		for _, id := range behavior {
			ids = append(ids, id)
			pointers[id] = k.cp.At
		}
		for _, vc := range k.cp.VerificationChecks {
			if vc.Phase == contract.PhaseBehavior && !slices.Contains(ids, vc.ID) {
				ids = append(ids, vc.ID)
				pointers[vc.ID] = vc.At
			}
		}
		if !slices.Contains(ids, CheckDryRun) {
			ids = append(ids, CheckDryRun)
			pointers[CheckDryRun] = k.cp.At
		}
		for _, id := range ids {
			p.checks = append(p.checks, k.build(id, pointers[id]))
		}
	}
	for i := range c.Workflows {
		p.checks = append(p.checks, p.workflowChecks(&c.Workflows[i])...)
	}
	return p
}

// add registers a call and gives it its ID.
func (p *planner) add(c *call) *call {
	c.id = len(p.calls) + 1
	p.calls = append(p.calls, c)
	return c
}

// capPlan returns the plan of a capability.
func (p *planner) capPlan(id string) *capPlan {
	for _, k := range p.caps {
		if k.cp.ID == id {
			return k
		}
	}
	return nil
}

// compile compiles a schema once per planner.
func (p *planner) compile(schema canonjson.Value) (*jsonschema.Schema, error) {
	key := string(canonjson.DigestForm(schema))
	if s, ok := p.schemas[key]; ok {
		return s, nil
	}
	s, err := p.comp.Compile(canonjson.Encode(schema))
	if err != nil {
		return nil, err
	}
	p.schemas[key] = s
	return s, nil
}
