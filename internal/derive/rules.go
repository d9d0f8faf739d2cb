package derive

import "github.com/code2skill/code2skill/internal/diag"

// Structural rules of the vNext inputs (the contract's "layer A"): what must
// hold before any view can be derived. Wrong JSON types, missing fields and
// values outside a vocabulary are reported while decoding (FORMAT_* rules of
// internal/contract).
var (
	RuleTopologyMachineWide    = diag.Register("TOPOLOGY_MACHINE_WIDE", diag.Error, "the topology allows machine-wide discovery instead of explicitly authorised roots only")
	RuleTopologyDuplicate      = diag.Register("TOPOLOGY_DUPLICATE_SOURCE", diag.Error, "two topology sources share a sourceId")
	RuleTopologyRoot           = diag.Register("TOPOLOGY_ROOT_NOT_PORTABLE", diag.Error, "a source root is not a portable relative path (absolute, .., backslash, NUL or URI scheme)")
	RuleTopologyMissingPresent = diag.Register("TOPOLOGY_MISSING_SOURCE_AVAILABLE", diag.Error, "a missingSources entry claims its roles are available")

	RuleTopologyRef       = diag.Register("CONTRACT_TOPOLOGY_REF", diag.Error, "sourceTopologyRef names neither source-topology.json nor the topology's topologyId")
	RuleFeatureBoundary   = diag.Register("CONTRACT_FEATURE_BOUNDARY", diag.Error, "the feature boundary's inclusion rule or source lists do not match its primary evidence role")
	RuleDuplicateID       = diag.Register("CONTRACT_DUPLICATE_ID", diag.Error, "an identifier that must be unique in its scope is declared twice")
	RuleUnknownReference  = diag.Register("CONTRACT_UNKNOWN_REFERENCE", diag.Error, "a reference names a source, capability, input, step, requirement, need or workflow the contract does not declare")
	RuleEvidenceUnknown   = diag.Register("CONTRACT_EVIDENCE_UNKNOWN", diag.Error, "an evidence reference names no entry of the evidence catalog")
	RuleEvidenceRole      = diag.Register("CONTRACT_EVIDENCE_ROLE", diag.Error, "an evidence entry claims a semantic role its source does not declare")
	RuleLocator           = diag.Register("CONTRACT_LOCATOR_NOT_PORTABLE", diag.Error, "an evidence locator's path is not a portable path relative to its source root")
	RuleIDFormat          = diag.Register("CONTRACT_ID_FORMAT", diag.Error, "a capability ID, Tool name, Function export or server name does not have its required form")
	RuleReadiness         = diag.Register("CONTRACT_READINESS", diag.Error, "readiness contradicts missingEvidence (ready with gaps, or requires-review without any)")
	RuleSideEffect        = diag.Register("CONTRACT_SIDE_EFFECT_MISMATCH", diag.Error, "operationPolicy or evidenceCoverage declares a side effect other than the capability's")
	RuleRuntimeProtection = diag.Register("CONTRACT_RUNTIME_PROTECTION", diag.Error, "runtimeProtection is missing on a write, present on a read, or inconsistent with its mode and workflow")
	RuleHTTPStep          = diag.Register("CONTRACT_HTTP_STEP", diag.Error, "an HTTP step has no absolute credential-free http(s) URL, a status code outside 100-599, or reads a later step's response")
	RuleHandoff           = diag.Register("CONTRACT_HANDOFF", diag.Error, "a handoff connects a capability to itself or repeats another handoff's pair")
	RuleGraph             = diag.Register("CONTRACT_GRAPH", diag.Error, "the capability graph does not have exactly one node per capability, or an edge loops")
	RuleGoalPredicate     = diag.Register("CONTRACT_GOAL_PREDICATE", diag.Error, "an all-satisfied completion predicate does not list exactly the goal's needs")
	RuleRequirementMap    = diag.Register("CONTRACT_REQUIREMENT_MAPPING", diag.Error, "a generic requirement ID is mapped to another host capability or onMissing than its fixed ones")
	RuleWorkflowEntry     = diag.Register("CONTRACT_WORKFLOW_ENTRY", diag.Error, "a workflow's capabilityIds do not include its entryCapabilityId")
	RuleConflict          = diag.Register("CONTRACT_CONFLICT", diag.Error, "a conflict is resolved without a resolution, or cites fewer than two pieces of evidence")

	RuleHostCapabilityMissing = diag.Register("PROFILE_HOST_CAPABILITY_MISSING", diag.Warning, "the Host profile does not classify a host capability the contract requires; it is treated as unsupported")
	RuleFeatureSurface        = diag.Register("PROFILE_FEATURE_SURFACE", diag.Error, "featureSurface.identifier is not one line of at most 256 characters, or a route does not start with /")
	RuleDryRunVariable        = diag.Register("PROFILE_DRY_RUN_VARIABLE", diag.Error, "dryRunEnvironmentVariable is not an upper-case environment variable name of 3 to 81 characters")
	RuleOrigins               = diag.Register("PROFILE_ORIGINS", diag.Error, "allowedRuntimeOrigins is not exactly the set of bare http(s) origins the contract's HTTP steps use")

	RuleInputMissing = diag.Register("DERIVE_INPUT_MISSING", diag.Error, "an input derive reads (canonical contract, source topology, Host profile) is absent")
	RuleIOFailure    = diag.Register("DERIVE_IO_FAILURE", diag.Error, "derive could not read an input or write the derived views")
)
