// Package contractcheck judges a Portable Core: canonical-contract.json
// with the source topology, the Host profile and the export profile it is
// read with. It is the one judge of the contract's rules, called by
// check-contract, by the strict validator and by the pipeline.
//
// The rules come in layers:
//
//   - Format (internal/contract): JSON syntax, field types, required
//     fields, closed records and vocabularies, found while decoding.
//     Decoding defers the findings views do not depend on; Check reports
//     them with the rest.
//   - Structure, "layer A" (Structure, structure*.go): what must hold
//     before views can be derived — identities, the references views
//     resolve, target requiredness, the workflow of a deterministic write.
//     derive refuses inputs with these findings and judges no rule itself.
//   - Semantics, "layer B" (this package): every other rule of the
//     contract, one file per rule family (A to X of the behavioural
//     inventory): topology, boundary and evidence, exposure, readiness,
//     inputs, strategies and handoffs, value domains, conditions, outputs,
//     Host requirements, policy and annotations, evidence coverage, error
//     contract, runtime protection, HTTP bindings, attachments,
//     constraints, conflicts, graph, goals, workflows and the portable
//     schema subset, plus the export profile's runtime origins.
//
// Check reports all three layers, so that one call judges the whole
// Portable Core. Derived-view equality and the verification matrix belong
// to the strict validator, which judges files this package never reads.
//
// Everything is a pure function of the decoded inputs except evidence
// resolution: with Options.Sources, evidence locators are resolved to files
// under their source roots on this machine (resolve.go is the only part
// that touches the file system). Without sources, resolution is reported as
// not checked, never as passed.
//
// Value checks (static domain values, condition values against the schema
// they address) use the portable subset's own rules, which a general JSON
// Schema library cannot express: 1.0 is not an integer, "format" asserts
// only "uri", and patterns are Go regular expressions (see
// docs/divergences.md). They are implemented here, in value.go.
package contractcheck

import (
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// RuleInputMissing is the finding of a required Portable Core input that is
// absent, reported by the reader every command starts from
// (derive.Load).
var RuleInputMissing = diag.Register("DERIVE_INPUT_MISSING", diag.Error, "an input derive reads (canonical contract, source topology, Host profile) is absent")

// Options configure Check.
type Options struct {
	// Sources says where the topology's sources are on this machine. When
	// neither a base nor a map is given, evidence locators are not resolved
	// and Check says so (an info finding).
	Sources contract.Sources
}

// Check runs every rule of the Portable Core: the findings decoding
// deferred, the structural rules (Structure) and every semantic family. Inputs
// that failed to decode (nil) are skipped, and so are the rules that need
// them.
func Check(in *contract.Inputs, opts Options) *diag.List {
	var l diag.List
	l.Merge(&in.Deferred)
	l.Merge(Structure(in))
	k := newChecker(in, opts)
	k.run()
	l.Merge(&k.diags)
	return &l
}

// run checks every family whose inputs decoded.
func (k *checker) run() {
	if k.topo != nil {
		k.topology()
	}
	if k.c == nil {
		return
	}
	k.evidence()
	k.exposures()
	k.readiness()
	k.counts()
	for i := range k.c.Capabilities {
		cp := &k.c.Capabilities[i]
		k.inputs(cp)
		k.strategies(cp)
		k.domains(cp)
		k.conditions(cp)
		k.outputs(cp)
		k.hostRequirements(cp)
		k.policy(cp)
		k.errorContract(cp)
		k.protection(cp)
		k.http(cp)
		k.attachments(cp)
		k.constraints(cp)
	}
	k.handoffs()
	k.conflicts()
	k.graph()
	k.goals()
	k.workflows()
	k.schemas()
	if k.in.Host != nil {
		k.hostProfile()
	}
	if k.in.Export != nil {
		k.exportProfile()
		k.hostRuntime()
	}
	k.resolveEvidence()
}
