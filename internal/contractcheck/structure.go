package contractcheck

import (
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Structural rules of the vNext inputs (the contract's "layer A"): what must
// hold before views can be derived, and no more. Wrong JSON types, missing
// fields and values outside the vocabularies views branch on are reported
// while decoding (FORMAT_* rules of internal/contract). derive refuses a
// package whose inputs break one of these rules, with Structure's findings;
// every other rule is judged by Check alone.
var (
	RuleTopologyMachineWide    = diag.Register("TOPOLOGY_MACHINE_WIDE", diag.Error, "the topology allows machine-wide discovery instead of explicitly authorised roots only")
	RuleTopologyDuplicate      = diag.Register("TOPOLOGY_DUPLICATE_SOURCE", diag.Error, "two topology sources share a sourceId")
	RuleTopologyRoot           = diag.Register("TOPOLOGY_ROOT_NOT_PORTABLE", diag.Error, "a source root is not a portable relative path (absolute, .., backslash, NUL or URI scheme)")
	RuleTopologyMissingPresent = diag.Register("TOPOLOGY_MISSING_SOURCE_AVAILABLE", diag.Error, "a missingSources entry claims its roles are available")

	RuleTopologyRef      = diag.Register("CONTRACT_TOPOLOGY_REF", diag.Error, "sourceTopologyRef names neither source-topology.json nor the topology's topologyId")
	RuleFeatureBoundary  = diag.Register("CONTRACT_FEATURE_BOUNDARY", diag.Error, "the feature boundary's inclusion rule or source lists do not match its primary evidence role")
	RuleDuplicateID      = diag.Register("CONTRACT_DUPLICATE_ID", diag.Error, "an identifier that must be unique in its scope is declared twice")
	RuleUnknownReference = diag.Register("CONTRACT_UNKNOWN_REFERENCE", diag.Error, "a reference names a source, capability, input, step, requirement, need or workflow the contract does not declare")
	RuleEvidenceUnknown  = diag.Register("CONTRACT_EVIDENCE_UNKNOWN", diag.Error, "an evidence reference names no entry of the evidence catalog")
	RuleIDFormat         = diag.Register("CONTRACT_ID_FORMAT", diag.Error, "a capability ID, Tool name, Function export or server name does not have its required form")
	RuleReadiness        = diag.Register("CONTRACT_READINESS", diag.Error, "readiness contradicts missingEvidence (ready with gaps, or requires-review without any)")
	RuleRequirementMap   = diag.Register("CONTRACT_REQUIREMENT_MAPPING", diag.Error, "a generic requirement ID is mapped to another host capability or onMissing than its fixed ones")
	RuleWorkflowEntry    = diag.Register("CONTRACT_WORKFLOW_ENTRY", diag.Error, "a workflow's capabilityIds do not include its entryCapabilityId")
	RuleExposureSource   = diag.Register("CONTRACT_EXPOSURE_SOURCE", diag.Error, "a capability's exposure cites evidence outside the feature boundary's primary sources (supplementary evidence cannot create a capability)")
	RuleHardEvidence     = diag.Register("CONTRACT_HARD_WORKFLOW_EVIDENCE", diag.Error, "a deterministic-workflow protection does not carry hardWorkflowEvidence as an object")
	RuleWorkflowMapping  = diag.Register("CONTRACT_WORKFLOW_MAPPING", diag.Error, "a deterministic-workflow capability does not map to exactly one workflow, the one its protection names")
	RuleGoalConditional  = diag.Register("CONTRACT_GOAL_CONDITIONAL", diag.Error, "a goal does not declare as conditional a capability its requiredWhen needs or conditional handoffs make conditional")

	RuleTargetRequiredness         = diag.Register("CONTRACT_TARGET_REQUIREDNESS", diag.Error, "targetRequiredness is missing on an optional input fed by an upstream Tool, or declared on any other input")
	RuleTargetRequirednessEvidence = diag.Register("CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", diag.Error, "targetRequiredness cites no evidence, non-fact evidence, evidence the input does not cite, or evidence of the wrong role or source")
	RuleTargetRequirednessProvider = diag.Register("CONTRACT_TARGET_REQUIREDNESS_PROVIDER", diag.Error, "an unproven targetRequiredness names a normal provider that is not one of the input's upstream-tool strategies")
	RuleTargetRequirednessOptional = diag.Register("CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", diag.Error, "the handoff or observed graph edge feeding an input with targetRequiredness is missing, repeated, required or a hard precondition")
)

// StructureRules returns the rules Structure reports, in the order they are
// declared.
func StructureRules() []*diag.Rule {
	return []*diag.Rule{
		RuleTopologyMachineWide, RuleTopologyDuplicate, RuleTopologyRoot, RuleTopologyMissingPresent,
		RuleTopologyRef, RuleFeatureBoundary, RuleDuplicateID, RuleUnknownReference, RuleEvidenceUnknown,
		RuleIDFormat, RuleReadiness, RuleRequirementMap, RuleWorkflowEntry, RuleExposureSource,
		RuleHardEvidence, RuleWorkflowMapping, RuleGoalConditional,
		RuleTargetRequiredness, RuleTargetRequirednessEvidence, RuleTargetRequirednessProvider, RuleTargetRequirednessOptional,
	}
}

// BundleRules returns the rules Bundle reports: the structural rules that
// need nothing outside a capability bundle.
func BundleRules() []*diag.Rule {
	return []*diag.Rule{RuleDuplicateID, RuleUnknownReference, RuleIDFormat, RuleReadiness}
}

// Structure checks the structural rules the inputs must satisfy before
// views can be derived from them (the contract's "layer A"): the topology's
// authorisation boundary, unique identities, the references views resolve,
// readiness against missing evidence, and the few cross-field facts the
// views rest on (target requiredness, the exposure's primary evidence, the
// workflow of a deterministic write, conditional goal capabilities). It
// reports every problem it finds, each with its file and JSON Pointer.
//
// Structure judges only what derive needs; Check judges the rest of the
// Portable Core as well.
//
// Inputs that failed to decode (nil) are skipped, and so are the checks that
// need them. The export profile is not read: no view depends on it.
func Structure(in *contract.Inputs) *diag.List {
	k := &structure{in: in, file: contract.ContractFile}
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

// structure accumulates the findings of Structure and Bundle.
type structure struct {
	in    *contract.Inputs
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

func (k *structure) index(c *contract.Contract) {
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
func (k *structure) indexCapabilities(caps []contract.Capability) {
	k.capabilities = make(map[string]*contract.Capability, len(caps))
	for i := range caps {
		if _, dup := k.capabilities[caps[i].ID]; !dup {
			k.capabilities[caps[i].ID] = &caps[i]
		}
	}
}

// report adds a finding about file at the JSON Pointer at, shortened to the
// nearest part of the document that exists (see nearest).
func (k *structure) report(rule *diag.Rule, file, at, format string, args ...any) {
	root := k.in.Root(file)
	if file == k.file && k.root != nil {
		root = k.root
	}
	k.diags.Add(rule.New(file, format, args...).AtPointer(nearest(root, at)))
}

// nearest shortens the JSON Pointer at to its nearest ancestor that resolves
// in root: a finding about a part of the document that is absent (a missing
// record, reported where it is missing) then points at something that
// exists. A nil root (a document that is not an object) gives the pointer of
// the whole document.
func nearest(root canonjson.Value, at string) string {
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

// contractf reports a finding in the document that holds the capabilities.
func (k *structure) contractf(rule *diag.Rule, at, format string, args ...any) {
	k.report(rule, k.file, at, format, args...)
}

// unique reports each value of ids that repeats an earlier one, in the
// document that holds the capabilities. at gives the pointer of the i-th
// value. Empty values are reported by decoding.
func (k *structure) unique(what string, ids []string, at func(i int) string) {
	k.uniqueAs(RuleDuplicateID, k.file, what, ids, at)
}

// uniqueAs is unique reporting under another rule.
func (k *structure) uniqueAs(rule *diag.Rule, file, what string, ids []string, at func(i int) string) {
	repeats(ids, func(i, j int) {
		k.report(rule, file, at(i), "%s %q is already declared at %s", what, ids[i], at(j))
	})
}

// repeats calls dup(i, j) for each non-empty value ids[i] that repeats the
// earlier ids[j], its first occurrence. Empty values are reported by
// decoding.
func repeats(ids []string, dup func(i, j int)) {
	first := make(map[string]int, len(ids))
	for i, id := range ids {
		if id == "" {
			continue
		}
		if j, seen := first[id]; seen {
			dup(i, j)
			continue
		}
		first[id] = i
	}
}

// resolve reports id when the contract does not declare it. An empty id was
// reported by decoding.
func (k *structure) resolve(known bool, at, what, id string) {
	if !known && id != "" {
		k.contractf(RuleUnknownReference, at, "%s %q is not declared", what, id)
	}
}

// capabilityRef reports a capability ID that names no capability.
func (k *structure) capabilityRef(at, id string) {
	_, ok := k.capabilities[id]
	k.resolve(ok, at, "capability", id)
}

func (k *structure) requirementRef(at, id string) {
	k.resolve(k.requirementIDs[id], at, "consumer requirement", id)
}

func (k *structure) workflowRef(at, id string) {
	k.resolve(k.workflowIDs[id], at, "workflow", id)
}

// elementAt returns a function giving the pointer of the i-th element of the
// list at at/key.
func elementAt(at, key string) func(int) string {
	return func(i int) string { return ptr(at, key, i) }
}
