package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family K: outputs and the success rule. Structure checks unique output
// paths.
var (
	RuleOutputSchema      = diag.Register("CONTRACT_OUTPUT_SCHEMA", diag.Error, "an object or array output declares no schema, or its schema does not allow the output's type")
	RuleOutputDomain      = diag.Register("CONTRACT_OUTPUT_DOMAIN", diag.Error, "an output declares no value domain and has no declared parent output to inherit one from")
	RuleOutputChildSchema = diag.Register("CONTRACT_OUTPUT_CHILD_SCHEMA", diag.Error, "a nested output's schema or type differs from what its parent output's schema declares at that path")
	RuleSuccessRule       = diag.Register("CONTRACT_SUCCESS_RULE", diag.Error, "a success rule's kind does not fit the implementation, or a required output path names no declared output (a path starting with data is relative to the result's data)")
	RuleSuccessNullable   = diag.Register("CONTRACT_REQUIRED_OUTPUT_NULLABLE", diag.Warning, "a required output path's schema allows null, while a live result whose path is null is no success: finalize refuses it as live evidence")
	RuleEmptyBody         = diag.Register("CONTRACT_EMPTY_BODY_SUCCESS", diag.Error, "a success without a body is declared inconsistently: a rule requiring no output names no emptyBodyStatusCodes, one requiring output or a local implementation names some, a code is not a success status of the output step, or outputs are empty while a success status answers with a body")
)

func (k *checker) outputs(cp *contract.Capability) {
	for i := range cp.Outputs {
		o := &cp.Outputs[i]
		what := "output " + quote(o.Path) + " of " + cp.ID
		switch s := o.Schema.(type) {
		case nil:
			if o.Type == "object" || o.Type == "array" {
				k.contractf(RuleOutputSchema, o.At, "%s is an %s: declare its schema", what, o.Type)
			}
		case *canonjson.Object:
			if types := schemaTypes(s); types != nil && o.Type != "" && !slices.Contains(types, o.Type) {
				k.contractf(RuleOutputSchema, ptr(o.At, "schema", "type"), "the schema of %s allows %q, not the output's type %q", what, types, o.Type)
			}
		default:
			k.contractf(RuleOutputSchema, child(o.At, "schema"), "the schema of %s must be an object", what)
		}
		k.facts(o.At, o.EvidenceRefs, what)

		parent := ancestor(cp, o.Path)
		if o.ValueDomain != nil {
			k.domain(o.ValueDomain, effective(o.Schema, o.Type), what)
		} else if providerDomain(cp, o.Path) == nil {
			if parent == nil {
				k.contractf(RuleOutputDomain, o.At, "%s declares no valueDomain: say whether its values are static, dynamic or unconstrained", what)
			} else {
				k.contractf(RuleOutputDomain, o.At, "%s declares no valueDomain and neither does its parent output %s", what, quote(parent.Path))
			}
		}
		if parent != nil {
			k.childSchema(cp, o, parent, what)
		}
	}
	k.successRule(cp)
}

// ancestor returns the declared output nearest above path.
func ancestor(cp *contract.Capability, path []string) *contract.Output {
	for n := len(path) - 1; n > 0; n-- {
		if o, ok := output(cp, path[:n]); ok {
			return o
		}
	}
	return nil
}

// childSchema checks a nested output against what its parent's schema
// declares at its path.
func (k *checker) childSchema(cp *contract.Capability, o, parent *contract.Output, what string) {
	if parent.Schema == nil {
		return
	}
	declared, ok := schemaAt(parent.Schema, o.Path[len(parent.Path):])
	if !ok {
		k.contractf(RuleOutputChildSchema, child(o.At, "path"),
			"the schema of the parent output %s does not declare %s; declare the nested field in the parent's schema", quote(parent.Path), quote(o.Path))
		return
	}
	if o.Schema != nil {
		if !sameSchema(o.Schema, declared) {
			k.contractf(RuleOutputChildSchema, child(o.At, "schema"), "the schema of %s differs from the one its parent %s declares at that path", what, quote(parent.Path))
		}
		return
	}
	if types := schemaTypes(declared); types != nil && o.Type != "" && !slices.Contains(types, o.Type) {
		k.contractf(RuleOutputChildSchema, child(o.At, "type"), "%s is a %s, but its parent %s declares %q there", what, o.Type, quote(parent.Path), types)
	}
}

// outputResolves reports whether a path names a declared output or a part
// of one that its schema declares.
func outputResolves(cp *contract.Capability, path []string) bool {
	if _, ok := output(cp, path); ok {
		return true
	}
	for n := len(path) - 1; n > 0; n-- {
		if o, ok := output(cp, path[:n]); ok {
			_, resolves := schemaAt(effective(o.Schema, o.Type), path[n:])
			return resolves
		}
	}
	return false
}

// requiredSchema returns the schema at a required output path: the
// declared output's, or what the nearest declared output above it declares
// there.
func requiredSchema(cp *contract.Capability, path []string) (canonjson.Value, bool) {
	if o, ok := output(cp, path); ok {
		return effective(o.Schema, o.Type), true
	}
	if o := ancestor(cp, path); o != nil {
		return schemaAt(effective(o.Schema, o.Type), path[len(o.Path):])
	}
	return nil, false
}

// successRule checks the success rule against the implementation and the
// outputs.
func (k *checker) successRule(cp *contract.Capability) {
	sr := &cp.SuccessRule
	want := map[string]string{contract.ImplementationHTTP: "http_status_and_output", contract.ImplementationLocal: "output"}[cp.Implementation.Kind]
	if want != "" && sr.Kind != "" && sr.Kind != want {
		k.contractf(RuleSuccessRule, child(sr.At, "kind"), "a %s implementation succeeds by %q, not %q", cp.Implementation.Kind, want, sr.Kind)
	}
	for i, p := range sr.RequiredOutputPaths {
		at := ptr(sr.At, "requiredOutputPaths", i)
		switch {
		case len(p) == 0:
		case outputResolves(cp, p):
			// A body that really has a data member ({data, pagination})
			// declares the output ["data"]: the path names it.
			if s, ok := requiredSchema(cp, p); ok && slices.Contains(schemaTypes(s), "null") {
				k.contractf(RuleSuccessNullable, at, "the schema of %s, a required output path of %q, allows null; the offline vectors sample a value, and a live result whose %s is null is no success (finalize refuses it as live evidence): require it only if the backend always returns a value, else leave it out of requiredOutputPaths",
					quote(p), cp.ID, quote(p))
			}
		case p[0] == "data" && len(p) > 1 && outputResolves(cp, p[1:]):
			k.contractf(RuleSuccessRule, at, "required output paths are relative to the result's data: write %s, not %s", quote(p[1:]), quote(p))
		case p[0] == "data" && len(p) == 1:
			k.contractf(RuleSuccessRule, at, "%q declares no output at %s: required output paths are relative to the result's data, so %s names a member called data; declare that output, or drop the path (outputRequired already requires the data itself)", cp.ID, quote(p), quote(p))
		default:
			k.contractf(RuleSuccessRule, at, "%q declares no output at %s, and no declared output's schema has it", cp.ID, quote(p))
		}
	}
	k.emptyBody(cp)
	k.facts(sr.At, sr.EvidenceRefs, "the success rule of "+cp.ID)
}

// emptyBody checks a success without a body: only an HTTP capability whose
// success rule requires no output has one, at statuses its output step
// accepts; and a capability without outputs answers every success status
// without a body.
func (k *checker) emptyBody(cp *contract.Capability) {
	sr := &cp.SuccessRule
	codes := sr.EmptyBodyStatusCodes
	at := child(sr.At, "emptyBodyStatusCodes")
	switch {
	case cp.Implementation.Kind == contract.ImplementationLocal:
		if !sr.OutputRequired || len(codes) > 0 {
			k.contractf(RuleEmptyBody, child(sr.At, "outputRequired"),
				"a local implementation returns its output: outputRequired is true and there are no emptyBodyStatusCodes")
		}
		return
	case cp.Implementation.Kind != contract.ImplementationHTTP:
		return
	case !sr.OutputRequired && len(codes) == 0:
		k.contractf(RuleEmptyBody, child(sr.At, "outputRequired"),
			"a success rule that requires no output names the statuses at which the backend answers without a body: add emptyBodyStatusCodes, such as [204]")
	case sr.OutputRequired && len(codes) > 0:
		k.contractf(RuleEmptyBody, child(sr.At, "outputRequired"),
			"the success rule accepts an empty body (emptyBodyStatusCodes %s), so it does not require output: set outputRequired to false", statusCodes(codes))
	}
	step, ok := cp.Implementation.Step(cp.Implementation.OutputStepID)
	if !ok {
		return // reported by Structure
	}
	for i, code := range codes {
		if !slices.Contains(step.SuccessStatusCodes, code) {
			k.contractf(RuleEmptyBody, ptr(sr.At, "emptyBodyStatusCodes", i),
				"%d is not a success status of the output step %q (%s): an empty body is a success only at a status the step accepts", code, step.ID, statusCodes(step.SuccessStatusCodes))
		}
	}
	if len(cp.Outputs) > 0 {
		return
	}
	var withBody []int64
	for _, code := range step.SuccessStatusCodes {
		if !sr.EmptyBody(code) {
			withBody = append(withBody, code)
		}
	}
	if len(withBody) > 0 {
		if len(codes) == 0 {
			at = child(cp.At, "outputs")
		}
		k.contractf(RuleEmptyBody, at,
			"%q declares no outputs, but its output step answers %s with a body: declare the outputs of that body, or list those statuses in emptyBodyStatusCodes when they have none", cp.ID, statusCodes(withBody))
	}
}

// statusCodes writes status codes as "[204]" or "[200, 204]".
func statusCodes(codes []int64) string { return "[" + contract.StatusList(codes) + "]" }
