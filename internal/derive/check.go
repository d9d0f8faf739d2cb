package derive

import (
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Check checks the structural rules the inputs must satisfy before views can
// be derived from them (the contract's "layer A"): the topology's
// authorisation boundary, unique identities, the references views resolve,
// readiness against missing evidence, and the few cross-field facts the
// views rest on (target requiredness, the exposure's primary evidence, the
// workflow of a deterministic write, conditional goal capabilities). It
// reports every problem it finds, each with its file and JSON Pointer.
//
// Check judges only what derive needs. A contract Check accepts may still
// break deeper rules: internal/contractcheck judges the whole Portable Core.
//
// Inputs that failed to decode (nil) are skipped, and so are the checks that
// need them. The export profile is not read: no view depends on it.
func Check(in *Inputs) *diag.List {
	k := &checker{in: in, file: contract.ContractFile}
	if in.Topology != nil {
		k.topology(in.Topology)
	}
	if c := in.Contract; c != nil {
		k.root = c.Raw
		k.index(c)
		k.topologyRef(c)
		k.featureBoundary(c)
		k.evidenceCatalog(c)
		k.evidenceRefs(c)
		k.conflicts(c)
		k.identities(&c.Server, c.Capabilities)
		for i := range c.Capabilities {
			k.capability(c, &c.Capabilities[i])
		}
		k.goals(c)
		k.requirements(c)
		k.workflows(c)
	}
	return &k.diags
}

// checker accumulates the findings of Check and CheckBundle.
type checker struct {
	in    *Inputs
	diags diag.List

	// file is the document that holds the capabilities, and root its
	// decoded value: canonical-contract.json, or capability-bundle.json in
	// a legacy package.
	file string
	root *canonjson.Object

	// Identifiers the contract declares, for resolving references.
	capabilities   map[string]*contract.Capability
	evidenceIDs    map[string]bool
	requirementIDs map[string]bool
	workflowIDs    map[string]bool
}

func (k *checker) index(c *contract.Contract) {
	k.indexCapabilities(c.Capabilities)
	k.evidenceIDs = make(map[string]bool, len(c.EvidenceCatalog))
	for _, e := range c.EvidenceCatalog {
		k.evidenceIDs[e.ID] = true
	}
	k.requirementIDs = make(map[string]bool, len(c.ConsumerRequirements))
	for _, r := range c.ConsumerRequirements {
		k.requirementIDs[r.ID] = true
	}
	k.workflowIDs = make(map[string]bool, len(c.Workflows))
	for _, w := range c.Workflows {
		k.workflowIDs[w.ID] = true
	}
}

// indexCapabilities indexes capabilities by ID; the first of two with one ID
// wins.
func (k *checker) indexCapabilities(caps []contract.Capability) {
	k.capabilities = make(map[string]*contract.Capability, len(caps))
	for i := range caps {
		if _, dup := k.capabilities[caps[i].ID]; !dup {
			k.capabilities[caps[i].ID] = &caps[i]
		}
	}
}

// report adds a finding about file at the JSON Pointer at, shortened to the
// nearest part of the document that exists (see Nearest).
func (k *checker) report(rule *diag.Rule, file, at, format string, args ...any) {
	root := k.in.root(file)
	if file == k.file && k.root != nil {
		root = k.root
	}
	k.diags.Add(rule.New(file, format, args...).AtPointer(Nearest(root, at)))
}

// Nearest shortens the JSON Pointer at to its nearest ancestor that resolves
// in root: a finding about a part of the document that is absent (a missing
// record, reported where it is missing) then points at something that
// exists. A nil root (a document that is not an object) gives the pointer of
// the whole document.
func Nearest(root canonjson.Value, at string) string {
	if root == nil {
		return ""
	}
	for at != "" {
		if _, ok := canonjson.Resolve(root, at); ok {
			break
		}
		at = at[:strings.LastIndexByte(at, '/')]
	}
	return at
}

// root returns the decoded document of an input file, or nil.
func (in *Inputs) root(file string) canonjson.Value {
	var o *canonjson.Object
	switch file {
	case contract.ContractFile:
		if in.Contract != nil {
			o = in.Contract.Raw
		}
	case contract.TopologyFile:
		if in.Topology != nil {
			o = in.Topology.Raw
		}
	case contract.HostProfileFile:
		if in.Host != nil {
			o = in.Host.Raw
		}
	case contract.ExportProfileFile:
		if in.Export != nil {
			o = in.Export.Raw
		}
	}
	if o == nil {
		return nil
	}
	return o
}

// Root returns the decoded document of one of the input files, or nil when
// it is absent or unreadable.
func (in *Inputs) Root(file string) canonjson.Value { return in.root(file) }

// contractf reports a finding in the document that holds the capabilities.
func (k *checker) contractf(rule *diag.Rule, at, format string, args ...any) {
	k.report(rule, k.file, at, format, args...)
}

// unique reports each value of ids that repeats an earlier one, in the
// document that holds the capabilities. at gives the pointer of the i-th
// value. Empty values are reported by decoding.
func (k *checker) unique(what string, ids []string, at func(i int) string) {
	k.uniqueAs(RuleDuplicateID, k.file, what, ids, at)
}

// uniqueAs is unique reporting under another rule.
func (k *checker) uniqueAs(rule *diag.Rule, file, what string, ids []string, at func(i int) string) {
	first := make(map[string]int, len(ids))
	for i, id := range ids {
		if id == "" {
			continue
		}
		if j, dup := first[id]; dup {
			k.report(rule, file, at(i), "%s %q is already declared at %s", what, id, at(j))
			continue
		}
		first[id] = i
	}
}

// resolve reports id when the contract does not declare it. An empty id was
// reported by decoding.
func (k *checker) resolve(known bool, at, what, id string) {
	if !known && id != "" {
		k.contractf(RuleUnknownReference, at, "%s %q is not declared", what, id)
	}
}

// capabilityRef reports a capability ID that names no capability.
func (k *checker) capabilityRef(at, id string) {
	_, ok := k.capabilities[id]
	k.resolve(ok, at, "capability", id)
}

func (k *checker) requirementRef(at, id string) {
	k.resolve(k.requirementIDs[id], at, "consumer requirement", id)
}

func (k *checker) workflowRef(at, id string) {
	k.resolve(k.workflowIDs[id], at, "workflow", id)
}

// ptr returns the pointer of a member or element below at.
func ptr(at string, tokens ...any) string { return at + diag.Pointer(tokens...) }

// child returns the pointer of a member of the object at at, without the
// allocations of ptr.
func child(at, key string) string { return at + "/" + diag.EscapeToken(key) }

// elementAt returns a function giving the pointer of the i-th element of the
// list at at/key.
func elementAt(at, key string) func(int) string {
	return func(i int) string { return ptr(at, key, i) }
}
