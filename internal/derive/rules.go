package derive

import "github.com/code2skill/code2skill/internal/diag"

// Structural rules of the vNext inputs (the contract's "layer A"): what must
// hold before views can be derived, and no more. Wrong JSON types, missing
// fields and values outside the vocabularies views branch on are reported
// while decoding (FORMAT_* rules of internal/contract). Every deeper rule of
// the Portable Core belongs to internal/contractcheck (check-contract).
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

	RuleInputMissing = diag.Register("DERIVE_INPUT_MISSING", diag.Error, "an input derive reads (canonical contract, source topology, Host profile) is absent")
	RuleIOFailure    = diag.Register("DERIVE_IO_FAILURE", diag.Error, "derive could not read an input or write the derived views")

	RuleLegacyIgnoredInput = diag.Register("DERIVE_LEGACY_INPUT_IGNORED", diag.Warning, "a legacy package (capability-bundle.json, no canonical contract) holds a Portable Core input derive does not read")
)

// Rules returns the rules derive reports for a vNext package: the layer-A
// rules it checks and its own I/O rules. RuleLegacyIgnoredInput, which
// concerns legacy packages only, is not among them.
func Rules() []*diag.Rule {
	return []*diag.Rule{
		RuleTopologyMachineWide, RuleTopologyDuplicate, RuleTopologyRoot, RuleTopologyMissingPresent,
		RuleTopologyRef, RuleFeatureBoundary, RuleDuplicateID, RuleUnknownReference, RuleEvidenceUnknown,
		RuleIDFormat, RuleReadiness, RuleRequirementMap, RuleWorkflowEntry, RuleExposureSource,
		RuleHardEvidence, RuleWorkflowMapping, RuleGoalConditional,
		RuleTargetRequiredness, RuleTargetRequirednessEvidence, RuleTargetRequirednessProvider, RuleTargetRequirednessOptional,
		RuleInputMissing, RuleIOFailure,
	}
}
