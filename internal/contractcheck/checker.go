package contractcheck

import (
	"fmt"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// checker accumulates the findings of the semantic families.
type checker struct {
	in   *contract.Inputs
	opts Options
	c    *contract.Contract // nil when the contract did not decode
	topo *contract.Topology // nil when the topology did not decode

	diags diag.List

	// Indexes of what the contract declares; the first of duplicates wins
	// (Structure reports the duplicates).
	caps map[string]*contract.Capability
	evs  map[string]*contract.Evidence
	reqs map[string]*contract.Requirement
	wfs  map[string]*contract.Workflow
}

func newChecker(in *contract.Inputs, opts Options) *checker {
	k := &checker{in: in, opts: opts, c: in.Contract, topo: in.Topology}
	if k.c == nil {
		return k
	}
	c := k.c
	k.caps = make(map[string]*contract.Capability, len(c.Capabilities))
	for i := range c.Capabilities {
		if _, dup := k.caps[c.Capabilities[i].ID]; !dup {
			k.caps[c.Capabilities[i].ID] = &c.Capabilities[i]
		}
	}
	k.evs = make(map[string]*contract.Evidence, len(c.EvidenceCatalog))
	for i := range c.EvidenceCatalog {
		if _, dup := k.evs[c.EvidenceCatalog[i].ID]; !dup {
			k.evs[c.EvidenceCatalog[i].ID] = &c.EvidenceCatalog[i]
		}
	}
	k.reqs = make(map[string]*contract.Requirement, len(c.ConsumerRequirements))
	for i := range c.ConsumerRequirements {
		if _, dup := k.reqs[c.ConsumerRequirements[i].ID]; !dup {
			k.reqs[c.ConsumerRequirements[i].ID] = &c.ConsumerRequirements[i]
		}
	}
	k.wfs = make(map[string]*contract.Workflow, len(c.Workflows))
	for i := range c.Workflows {
		if _, dup := k.wfs[c.Workflows[i].ID]; !dup {
			k.wfs[c.Workflows[i].ID] = &c.Workflows[i]
		}
	}
	return k
}

// report adds a finding about file at the JSON Pointer at, shortened to the
// nearest part of the document that exists.
func (k *checker) report(rule *diag.Rule, file, at, format string, args ...any) {
	k.diags.Add(rule.New(file, format, args...).AtPointer(nearest(k.in.Root(file), at)))
}

// contractf reports a finding in canonical-contract.json.
func (k *checker) contractf(rule *diag.Rule, at, format string, args ...any) {
	k.report(rule, contract.ContractFile, at, format, args...)
}

// ptr returns the pointer of a member or element below at.
func ptr(at string, tokens ...any) string { return at + diag.Pointer(tokens...) }

// child returns the pointer of a member of the object at at, without the
// allocations of ptr: schemas are walked member by member.
func child(at, key string) string { return at + "/" + diag.EscapeToken(key) }

// ref resolves an evidence reference; unknown references are reported by
// Structure and skipped here.
func (k *checker) ref(id string) (*contract.Evidence, bool) {
	e, ok := k.evs[id]
	return e, ok
}

// capabilityRef reports a capability ID that names no capability, and
// returns the capability it names.
func (k *checker) capabilityRef(at, id string) (*contract.Capability, bool) {
	cp, ok := k.caps[id]
	if !ok && id != "" {
		k.contractf(RuleUnknownReference, at, "capability %q is not declared", id)
	}
	return cp, ok
}

// requirementRef reports a requirement ID that names no consumer
// requirement.
func (k *checker) requirementRef(at, id string) bool {
	_, ok := k.reqs[id]
	if !ok && id != "" {
		k.contractf(RuleUnknownReference, at, "consumer requirement %q is not declared in consumerRequirements", id)
	}
	return ok
}

// inputRef reports an input name the capability does not declare, and
// returns the input it names.
func (k *checker) inputRef(cp *contract.Capability, at, name string) (*contract.Input, bool) {
	if cp == nil || name == "" {
		return nil, false
	}
	in, ok := cp.Input(name)
	if !ok {
		k.contractf(RuleUnknownReference, at, "capability %q has no input %q", cp.ID, name)
	}
	return in, ok
}

// unique reports each value of ids that repeats an earlier one.
func (k *checker) unique(rule *diag.Rule, what string, ids []string, at func(i int) string) {
	repeats(ids, func(i, j int) {
		k.contractf(rule, at(i), "%s %q is already declared at %s", what, ids[i], at(j))
	})
}

// quote renders a path of segments for messages: ["a", "*", "b"].
func quote(path []string) string {
	return fmt.Sprintf("%q", path)
}
