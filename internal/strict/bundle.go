package strict

import (
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// maxCapabilities is how many capabilities one strict package exposes at
// most: "1–40 capabilities" (strict-export-v1, capability bundle).
const maxCapabilities = 40

// checkBundle checks the rules of the execution view that belong to the
// node-stdio profile rather than to the business contract: the bundle is a
// projection of the contract (its equality is checked with the other
// views), so these rules are stated on the contract it projects.
//
// A top-level input of type integer is accepted: the contract allows every
// JSON type but null, and the compiled Function validates integers.
func checkBundle(c *contract.Contract) []diag.Diagnostic {
	const file = contract.ContractFile
	var out []diag.Diagnostic
	if n := len(c.Capabilities); n > maxCapabilities {
		out = append(out, RuleBundleCount.New(file,
			"the package exposes %d capabilities; a strict package holds at most %d: split the feature", n, maxCapabilities).AtPointer("/capabilities"))
	}
	for i := range c.Capabilities {
		cp := &c.Capabilities[i]
		http := cp.Implementation.Kind == contract.ImplementationHTTP
		local := cp.Implementation.Kind == contract.ImplementationLocal
		if (http || local) && cp.Annotations.OpenWorldHint != http {
			out = append(out, RuleBundleOpenWorld.New(file,
				"openWorldHint of %q is %t, but its implementation is %s: a Tool that sends HTTP requests reaches an open world, a local one does not",
				cp.ID, cp.Annotations.OpenWorldHint, cp.Implementation.Kind).AtPointer(cp.Annotations.At+"/openWorldHint"))
		}
		want := map[string]string{contract.ImplementationHTTP: "http_status_and_output", contract.ImplementationLocal: "output"}[cp.Implementation.Kind]
		if want != "" && cp.SuccessRule.Kind != "" && cp.SuccessRule.Kind != want {
			out = append(out, RuleBundleSuccessRule.New(file,
				"successRule.kind of %q is %q; a %s implementation uses %q", cp.ID, cp.SuccessRule.Kind, cp.Implementation.Kind, want).AtPointer(cp.SuccessRule.At+"/kind"))
		}
		for j, p := range cp.SuccessRule.RequiredOutputPaths {
			if len(p) > 0 && p[0] == "data" {
				out = append(out, RuleBundleSuccessRule.New(file,
					"required output path %q of %q starts with data: paths are relative to the Function result's data; drop the first segment",
					joinPath(p), cp.ID).AtPointer(cp.SuccessRule.At+diag.Pointer("requiredOutputPaths", j)))
			}
		}
		for _, s := range cp.Implementation.Steps {
			out = append(out, overlappingBindings(cp, &s)...)
		}
	}
	return out
}

// overlappingBindings reports two bindings of one step that write the same
// place of a request, or one inside the other (["a"] and ["a", "b"] of the
// body): the request could not hold both values.
func overlappingBindings(cp *contract.Capability, s *contract.Step) []diag.Diagnostic {
	var out []diag.Diagnostic
	for j := range s.Bindings {
		b := &s.Bindings[j]
		for k := range j {
			a := &s.Bindings[k]
			if a.Location != b.Location || len(a.Path) == 0 || len(b.Path) == 0 {
				continue
			}
			n := min(len(a.Path), len(b.Path))
			if slices.Equal(a.Path[:n], b.Path[:n]) {
				out = append(out, RuleBundleOverlap.New(contract.ContractFile,
					"binding %d of step %q of %q writes %s %q, which overlaps %q of binding %d",
					j, s.ID, cp.ID, b.Location, joinPath(b.Path), joinPath(a.Path), k).AtPointer(b.At+"/path"))
				break
			}
		}
	}
	return out
}
