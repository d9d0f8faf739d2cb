package vectors

import (
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/sample"
	"github.com/code2skill/code2skill/internal/toolresult"
)

// capPlan holds what every vector of one capability starts from.
type capPlan struct {
	p      *planner
	c      *contract.Contract
	cp     *contract.Capability
	index  int
	tool   *derive.ToolContract
	input  *jsonschema.Schema
	output *jsonschema.Schema
	policy canonjson.Value
	http   bool
	// workflow is the workflow guarding a deterministic-workflow write.
	workflow *contract.Workflow
	// args are the valid arguments (nil, with argsErr, when none could be
	// made); responses answer a valid call; data is the output step's
	// planned data.
	args      *canonjson.Object
	argsErr   error
	responses []response
	respErr   error
	// attachments is the resolved content of each opaque attachment input
	// of a host-approved-reference capability (nil otherwise).
	attachments *canonjson.Object
	schemaErr   error
	solver      *sample.Solver
}

// resolvedContent is the synthetic content a Host resolves an approved
// attachment into.
func resolvedContent(input string) canonjson.String {
	return canonjson.String("synthetic-resolved-attachment-content:" + input)
}

func newCapPlan(p *planner, i int) *capPlan {
	c := p.in.Contract
	cp := &c.Capabilities[i]
	k := &capPlan{p: p, c: c, cp: cp, index: i, tool: derive.Tool(cp), http: cp.Implementation.Kind == contract.ImplementationHTTP}
	k.policy = cp.OperationPolicy.Raw
	var err error
	if k.input, err = p.compile(k.tool.InputSchema); err != nil {
		k.schemaErr = fmt.Errorf("the derived inputSchema does not compile: %w", err)
	}
	if k.output, err = p.compile(k.tool.OutputSchema); err != nil && k.schemaErr == nil {
		k.schemaErr = fmt.Errorf("the derived outputSchema does not compile: %w", err)
	}
	if k.schemaErr == nil {
		k.solver = sample.SolverFor(k.tool.InputSchema, k.input)
	}
	if rp := cp.RuntimeProtection; rp != nil && rp.Mode == contract.ProtectionDeterministicWorkflow {
		if w, ok := c.Workflow(rp.WorkflowID); ok {
			k.workflow = w
		}
	}
	if a := cp.Attachments; a != nil && a.Mode == contract.AttachmentsHostApprovedReference {
		k.attachments = &canonjson.Object{}
		for _, b := range a.ContentBindings {
			k.attachments.Set(b.InputName, resolvedContent(b.InputName))
		}
	}
	k.args, k.argsErr = k.validArguments()
	k.responses, k.respErr = k.plannedResponses(nil)
	return k
}

// validArguments returns the minimal valid arguments: the sampler's, settled
// against the conditional rules, with every input a workflow binding reads
// (a guard cannot check what is absent), and distinctive raw grants.
func (k *capPlan) validArguments() (*canonjson.Object, error) {
	if k.schemaErr != nil {
		return nil, k.schemaErr
	}
	args, err := sample.Arguments(k.tool.InputSchema, k.tool.ConditionalRules)
	if err != nil {
		return nil, err
	}
	if args, err = k.settle(args); err != nil {
		return nil, err
	}
	if k.workflow != nil {
		for _, b := range k.workflow.Bindings {
			name := b.ActualSource.InputName
			if name == "" || args.Has(name) {
				continue
			}
			v, err := sample.Value(sample.PropertySchema(k.tool.InputSchema, name))
			if err != nil {
				return nil, fmt.Errorf("input %q, read by workflow binding %q: %w", name, b.Name, err)
			}
			args.Set(name, v)
		}
		if args, err = k.settle(args); err != nil {
			return nil, err
		}
	}
	// Mark each raw attachment grant so that forwarding it is visible in a
	// request.
	if k.attachments != nil {
		for name := range k.attachments.All() {
			if grant, ok := args.At(name).(*canonjson.Object); ok {
				if _, isStr := grant.At("grantId").(canonjson.String); isStr {
					marked := canonjson.Clone(grant).(*canonjson.Object)
					marked.Set("grantId", rawGrantMarker(name))
					trial := canonjson.Clone(args).(*canonjson.Object)
					trial.Set(name, marked)
					if k.valid(trial) {
						args = trial
					}
				}
			}
		}
	}
	if vs := k.input.ValidateValue(jsonschema.Native(args)); len(vs) > 0 {
		return nil, fmt.Errorf("the sampled arguments are not valid: %s", vs[0])
	}
	return args, nil
}

func rawGrantMarker(input string) canonjson.String {
	return canonjson.String("code2skill-raw-grant-" + input)
}

// solve changes arguments so that cond evaluates to want, within the input
// schema (sample.Solve).
func (k *capPlan) solve(cond canonjson.Value, want condition.Truth, args *canonjson.Object) (*canonjson.Object, bool) {
	if k.solver == nil {
		return nil, false
	}
	return k.solver.Solve(cond, want, args)
}

// valid reports whether arguments satisfy the derived input schema.
func (k *capPlan) valid(args *canonjson.Object) bool {
	return k.input != nil && len(k.input.ValidateValue(jsonschema.Native(args))) == 0
}

// settledValid reports whether arguments satisfy the input schema, every
// conditional rule (nothing required missing, nothing forbidden present)
// and every Function-enforced constraint.
func (k *capPlan) settledValid(args *canonjson.Object) bool {
	if !k.valid(args) || !k.constraintsHold(args) {
		return false
	}
	settled, err := sample.Settle(args, k.tool.InputSchema, k.tool.ConditionalRules)
	return err == nil && canonjson.Equal(settled, args)
}

// settle makes arguments satisfy the conditional rules and the conditional
// (if/then) constraints the Function enforces.
func (k *capPlan) settle(args *canonjson.Object) (*canonjson.Object, error) {
	for range len(k.cp.Constraints) + 1 {
		var err error
		if args, err = sample.Settle(args, k.tool.InputSchema, k.tool.ConditionalRules); err != nil {
			return nil, err
		}
		changed := false
		for _, c := range k.functionConstraints() {
			if condition.Eval(c.If.Raw, condition.Values(args)) == condition.True &&
				condition.Eval(c.Then.Raw, condition.Values(args)) != condition.True {
				fixed, ok := k.solve(c.Then.Raw, condition.True, args)
				if !ok {
					return nil, fmt.Errorf("no valid arguments satisfy constraint %q", c.ID)
				}
				args, changed = fixed, true
			}
		}
		if !changed {
			return args, nil
		}
	}
	return nil, fmt.Errorf("the constraints do not settle")
}

// constraintsHold reports whether every conditional constraint the Function
// enforces holds for arguments.
func (k *capPlan) constraintsHold(args *canonjson.Object) bool {
	for _, c := range k.functionConstraints() {
		if condition.Eval(c.If.Raw, condition.Values(args)) == condition.True &&
			condition.Eval(c.Then.Raw, condition.Values(args)) != condition.True {
			return false
		}
	}
	return true
}

// functionConstraints returns the conditional (if/then) constraints the
// Function enforces.
func (k *capPlan) functionConstraints() []*contract.Constraint {
	var out []*contract.Constraint
	for i := range k.cp.Constraints {
		c := &k.cp.Constraints[i]
		if c.If != nil && c.Then != nil && enforcedByFunction(c) {
			out = append(out, c)
		}
	}
	return out
}

// enforcedByFunction reports whether the Function (not only the runtime or
// the Host) enforces a constraint.
func enforcedByFunction(c *contract.Constraint) bool {
	return strings.Contains(c.Enforcement, "function") || c.Enforcement == "schema"
}

// dataSchema returns the schema of the Function result's data.
func (k *capPlan) dataSchema() canonjson.Value {
	props, _ := k.tool.OutputSchema.At("properties").(*canonjson.Object)
	return props.At("data")
}

// outputStepIndex returns the index of the output step, or -1.
func (k *capPlan) outputStepIndex() int {
	im := &k.cp.Implementation
	return slices.IndexFunc(im.Steps, func(s contract.Step) bool { return s.ID == im.OutputStepID })
}

// successStatus returns the first accepted status of a step (200 when it
// declares none).
func successStatus(s *contract.Step) int64 {
	if len(s.SuccessStatusCodes) > 0 {
		return s.SuccessStatusCodes[0]
	}
	return 200
}

// plannedResponses answers each step of a valid call with its first accepted
// status: the output step with data (a sample of the data schema when data
// is nil), earlier steps with the values later steps read from them.
func (k *capPlan) plannedResponses(data canonjson.Value) ([]response, error) {
	if !k.http {
		return nil, nil
	}
	steps := k.cp.Implementation.Steps
	out := k.outputStepIndex()
	if out < 0 {
		return nil, fmt.Errorf("the output step %q is not among the steps", k.cp.Implementation.OutputStepID)
	}
	if data == nil {
		var err error
		if data, err = sample.Value(k.dataSchema()); err != nil {
			return nil, fmt.Errorf("no sample of the output data: %w", err)
		}
	}
	rs := make([]response, len(steps))
	for i := range steps {
		rs[i] = response{status: successStatus(&steps[i]), data: &canonjson.Object{}}
		if i == out {
			rs[i].data = canonjson.Clone(data)
		}
	}
	// Values later steps read from earlier responses.
	for i := range steps {
		for _, b := range steps[i].Bindings {
			if b.Source.Kind != contract.SourcePriorResponse {
				continue
			}
			j := slices.IndexFunc(steps[:i], func(s contract.Step) bool { return s.ID == b.Source.StepID })
			if j < 0 {
				return nil, fmt.Errorf("step %q reads step %q, which does not run before it", steps[i].ID, b.Source.StepID)
			}
			if slices.Contains(b.Source.Path, "*") {
				return nil, fmt.Errorf("step %q reads %q at a path through an array", steps[i].ID, b.Source.StepID)
			}
			root, _ := rs[j].data.(*canonjson.Object)
			if root == nil {
				return nil, fmt.Errorf("step %q reads an object member of a non-object response", steps[i].ID)
			}
			if _, ok := resolvePath(root, b.Source.Path); !ok {
				setPath(root, b.Source.Path, canonjson.String("synthetic-"+b.Source.StepID+"-"+strings.Join(b.Source.Path, ".")))
			}
		}
	}
	return rs, nil
}

// rejecting returns responses that answer step i with status (and data),
// the steps before it as planned.
func (k *capPlan) rejecting(i int, status int64, data canonjson.Value) []response {
	rs := slices.Clone(k.responses[:i])
	return append(rs, response{status: status, data: data})
}

// throwing returns responses whose step i throws err.
func (k *capPlan) throwing(i int, err *canonjson.Object) []response {
	rs := slices.Clone(k.responses[:i])
	return append(rs, response{throw: err})
}

// call returns a Function call with args and the capability's usual context:
// the planned responses, resolved attachments, the user's confirmation when
// the Function checks it, and (for a guarded write) a trusted side
// protecting the call's own values.
func (k *capPlan) call(args *canonjson.Object, responses []response) *call {
	c := &call{scope: k.cp.ID, target: targetFunction, export: k.cp.FunctionExport, args: args, responses: responses, policy: k.policy}
	if k.attachments != nil {
		c.attachments = canonjson.Clone(k.attachments)
	}
	if k.workflow != nil {
		c.trusted = k.trustedSide()
	}
	if k.cp.ConfirmationUnguarded() {
		c.runtime = canonjson.NewObject(canonjson.Member{Key: "confirmationGrantId", Value: claimValue("confirmation")})
	}
	return k.p.add(c)
}

// adapterCall returns a Tool callback call with the same context as call.
func (k *capPlan) adapterCall(args *canonjson.Object, responses []response, dryRun bool) *call {
	c := k.call(args, responses)
	c.target, c.export, c.tool, c.dryRun = targetAdapter, "", k.cp.ToolName, dryRun
	c.listed = k.tool.OutputSchema
	if dryRun {
		c.listed = toolresult.DryRunOutputSchema()
	}
	return c
}

// trustedSide returns the trusted side of the capability's workflow: its
// bindings' actual sources, a runtime context with a synthetic value for
// each claim, an expiry when a binding checks one, single use when a
// binding proves it.
func (k *capPlan) trustedSide() *trusted {
	w := k.workflow
	t := &trusted{workflowID: w.ID, sources: &canonjson.Object{}, runtime: &canonjson.Object{}, protect: true}
	for _, b := range w.Bindings {
		src, _ := b.Raw.At("actualSource").(*canonjson.Object)
		t.sources.Set(b.Name, canonjson.Clone(src))
		a := b.ActualSource
		switch a.Kind {
		case "runtime-context":
			if len(a.Path) > 0 {
				setPath(t.runtime, a.Path, claimValue(a.Claim))
			}
			if a.Claim == "expiry" {
				at := int64(trustedNow + trustedLifetime)
				t.expiresAt = &at
			}
		case "constant":
			if b.Name == "singleUse" && a.Value == canonjson.Bool(true) {
				t.singleUse = true
			}
		}
	}
	return t
}

// claimValue is the synthetic runtime-context value of a claim.
func claimValue(claim string) canonjson.Value {
	if claim == "expiry" {
		return canonjson.String("2000-01-01T00:10:00Z")
	}
	return canonjson.String("synthetic-" + claim)
}

// resolvePath returns the value at path (no "*") below v.
func resolvePath(v canonjson.Value, path []string) (canonjson.Value, bool) {
	for _, seg := range path {
		o, ok := v.(*canonjson.Object)
		if !ok {
			return nil, false
		}
		if v, ok = o.Get(seg); !ok {
			return nil, false
		}
	}
	return v, true
}

// setPath sets the value at path (no "*") below o, creating objects on the
// way.
func setPath(o *canonjson.Object, path []string, v canonjson.Value) {
	for _, seg := range path[:len(path)-1] {
		next, ok := o.At(seg).(*canonjson.Object)
		if !ok {
			next = &canonjson.Object{}
			o.Set(seg, next)
		}
		o = next
	}
	o.Set(path[len(path)-1], v)
}
