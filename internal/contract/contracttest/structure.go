package contracttest

import "github.com/code2skill/code2skill/internal/contract"

// RuleCase is a minimal edit of one reference input that must make a rule
// fire at a given place of that input.
type RuleCase struct {
	Rule string
	File string // the edited input, and the file of the finding
	Ops  []Op
	At   string // JSON Pointer of the finding
}

// StructureCases make each structural rule (contractcheck.Structure, the
// rules derive refuses inputs with) fire. The unedited reference inputs
// break none of them: together they are each rule's failing and passing
// fixtures.
var StructureCases = []RuleCase{
	{"TOPOLOGY_MACHINE_WIDE", contract.TopologyFile, []Op{Set("/authorizationBoundary/machineWideDiscovery", `true`)}, "/authorizationBoundary/machineWideDiscovery"},
	{"TOPOLOGY_DUPLICATE_SOURCE", contract.TopologyFile, []Op{Set("/sources/2/sourceId", `"sample-client"`)}, "/sources/2/sourceId"},
	{"TOPOLOGY_ROOT_NOT_PORTABLE", contract.TopologyFile, []Op{Set("/sources/0/root", `"../client"`)}, "/sources/0/root"},
	{"TOPOLOGY_ROOT_NOT_PORTABLE", contract.TopologyFile, []Op{Set("/sources/1/root", `"C:\\sources\\service"`)}, "/sources/1/root"},
	{"TOPOLOGY_MISSING_SOURCE_AVAILABLE", contract.TopologyFile,
		[]Op{Set("/missingSources", `[{"availability": "available", "semanticRoles": ["persistence"], "reason": "not searched"}]`)}, "/missingSources/0/availability"},

	{"CONTRACT_TOPOLOGY_REF", contract.ContractFile, []Op{Set("/sourceTopologyRef", `"sources.json"`)}, "/sourceTopologyRef"},
	{"CONTRACT_FEATURE_BOUNDARY", contract.ContractFile, []Op{Set("/featureBoundary/inclusionRule", `"explicitly-scoped-surface"`)}, "/featureBoundary/inclusionRule"},
	{"CONTRACT_FEATURE_BOUNDARY", contract.ContractFile, []Op{Append("/featureBoundary/supplementarySourceIds", `"sample-client"`)}, "/featureBoundary/supplementarySourceIds/3"},
	{"CONTRACT_FEATURE_BOUNDARY", contract.ContractFile, []Op{Remove("/featureBoundary/clientSourceIds")}, "/featureBoundary"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, []Op{Set("/capabilities/1/toolName", `"list_sample_request_kinds"`)}, "/capabilities/1/toolName"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, []Op{Set("/evidenceCatalog/1/evidenceId", `"ev-client-goal"`)}, "/evidenceCatalog/1/evidenceId"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, []Op{Set("/capabilities/2/inputs/1/name", `"selectionGrant"`)}, "/capabilities/2/inputs/1/name"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, []Op{Set("/goals/2/informationNeeds/1/informationId", `"current-selection"`)}, "/goals/2/informationNeeds/1/informationId"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, []Op{Set("/workflows/1/workflowId", `"upload-sample-attachment"`)}, "/workflows/1/workflowId"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, []Op{Set("/capabilities/0/outputs/1/path", `["options"]`)}, "/capabilities/0/outputs/1/path"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, []Op{Set("/capabilities/0/hostRequirements/3", `"session-storage"`)}, "/capabilities/0/hostRequirements/3"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, []Op{Set("/evidenceCatalog/0/sourceId", `"sample-desktop-client"`)}, "/evidenceCatalog/0/sourceId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, []Op{Set("/capabilities/3/implementation/outputStepId", `"save"`)}, "/capabilities/3/implementation/outputStepId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, []Op{Set("/workflows/0/entryCapabilityId", `"upload-other"`)}, "/workflows/0/entryCapabilityId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, []Op{Set("/conflicts/0/affectedCapabilityIds/1", `"validate-other"`)}, "/conflicts/0/affectedCapabilityIds/1"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, []Op{Set("/capabilities/0/exposure/supplementalEvidenceRefs/0", `"ev-contract-list"`)}, "/capabilities/0/exposure/supplementalEvidenceRefs/0"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, []Op{Set("/capabilities/2/inputs/2/requiredWhen/0/evidenceRefs/0", `"ev-selection"`)}, "/capabilities/2/inputs/2/requiredWhen/0/evidenceRefs/0"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, []Op{Set("/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueBinding/0", `"ev-submit"`)}, "/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueBinding/0"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, []Op{Set("/capabilities/3/errorContract/sourceError", `{"codePath": ["code"], "evidenceRefs": ["ev-contract-errors", "ev-backend-codes"]}`)}, "/capabilities/3/errorContract/sourceError/evidenceRefs/1"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, []Op{Set("/capabilities/0/toolName", `"List-Kinds"`)}, "/capabilities/0/toolName"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, []Op{Set("/capabilities/3/functionExport", `"delete"`)}, "/capabilities/3/functionExport"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, []Op{Set("/server/name", `"Sample"`)}, "/server/name"},
	{"CONTRACT_READINESS", contract.ContractFile, []Op{Set("/capabilities/0/missingEvidence", `["the catalog size is unknown"]`)}, "/capabilities/0/missingEvidence"},
	{"CONTRACT_READINESS", contract.ContractFile, []Op{Set("/capabilities/0/readiness", `"requires-review"`)}, "/capabilities/0/readiness"},
	{"CONTRACT_REQUIREMENT_MAPPING", contract.ContractFile, []Op{Set("/consumerRequirements/requirements/1/onMissing", `"requires-host-integration"`)}, "/consumerRequirements/requirements/1/onMissing"},
	{"CONTRACT_REQUIREMENT_MAPPING", contract.ContractFile, []Op{Set("/consumerRequirements/requirements/4/hostCapability", `"sessionStore"`)}, "/consumerRequirements/requirements/4/hostCapability"},
	{"CONTRACT_WORKFLOW_ENTRY", contract.ContractFile, []Op{Set("/workflows/0/entryCapabilityId", `"submit-sample-request"`)}, "/workflows/0/capabilityIds"},

	// Supplementary backend evidence verifies a capability; it cannot
	// expose one.
	{"CONTRACT_EXPOSURE_SOURCE", contract.ContractFile, []Op{Set("/capabilities/3/exposure/evidenceRefs/0", `"ev-service-save"`)}, "/capabilities/3/exposure/evidenceRefs/0"},
	{"CONTRACT_HARD_WORKFLOW_EVIDENCE", contract.ContractFile, []Op{Remove("/capabilities/4/runtimeProtection/hardWorkflowEvidence")}, "/capabilities/4/runtimeProtection"},
	{"CONTRACT_WORKFLOW_MAPPING", contract.ContractFile, []Op{Append("/workflows/0/capabilityIds", `"submit-sample-request"`)}, "/capabilities/4/runtimeProtection/workflowId"},
	{"CONTRACT_WORKFLOW_MAPPING", contract.ContractFile, []Op{Set("/workflows/1/capabilityIds", `["validate-sample-request"]`), Set("/workflows/1/entryCapabilityId", `"validate-sample-request"`)}, "/capabilities/4/runtimeProtection/workflowId"},
	{"CONTRACT_WORKFLOW_MAPPING", contract.ContractFile, []Op{Remove("/capabilities/4/runtimeProtection/workflowId"), Remove("/capabilities/4/workflowId")}, "/capabilities/4/runtimeProtection"},
	{"CONTRACT_GOAL_CONDITIONAL", contract.ContractFile, []Op{Set("/goals/0/conditionalCapabilityIds", `[]`)}, "/goals/0/conditionalCapabilityIds"},
	{"CONTRACT_TARGET_REQUIREDNESS", contract.ContractFile, []Op{Remove("/capabilities/4/inputs/3/targetRequiredness")}, "/capabilities/4/inputs/3"},
	{"CONTRACT_TARGET_REQUIREDNESS", contract.ContractFile,
		[]Op{Set("/capabilities/4/inputs/0/targetRequiredness", `{"status": "proven-optional", "evidenceRefs": ["ev-service-submit"]}`)}, "/capabilities/4/inputs/0/targetRequiredness"},
	{"CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", contract.ContractFile,
		[]Op{Set("/capabilities/4/inputs/3/targetRequiredness/evidenceRefs", `["ev-contract-attachment"]`)}, "/capabilities/4/inputs/3/targetRequiredness/evidenceRefs/0"},
	{"CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", contract.ContractFile,
		[]Op{Set("/capabilities/4/inputs/3/targetRequiredness/evidenceRefs", `["ev-service-attachment"]`)}, "/capabilities/4/inputs/3/targetRequiredness/evidenceRefs"},
	{"CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", contract.ContractFile,
		[]Op{Set("/capabilities/4/inputs/3/targetRequiredness", `{"status": "unproven", "normalProvider": {"capabilityId": "upload-sample-attachment", "outputPath": ["uploadedAttachmentGrant"], "mappingKind": "append-to-array"}, "evidenceRefs": ["ev-contract-submit"]}`)},
		"/capabilities/4/inputs/3/targetRequiredness/evidenceRefs"},
	{"CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", contract.ContractFile,
		[]Op{Set("/capabilities/4/inputs/3/targetRequiredness/evidenceRefs", `[]`)}, "/capabilities/4/inputs/3/targetRequiredness/evidenceRefs"},
	{"CONTRACT_TARGET_REQUIREDNESS_PROVIDER", contract.ContractFile,
		[]Op{Set("/capabilities/4/inputs/3/targetRequiredness", `{"status": "unproven", "normalProvider": {"capabilityId": "upload-sample-attachment", "outputPath": ["uploadedAttachmentGrant"], "mappingKind": "direct"}, "evidenceRefs": ["ev-contract-submit"]}`)},
		"/capabilities/4/inputs/3/targetRequiredness/normalProvider"},
	{"CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", contract.ContractFile, []Op{Set("/handoffs/3/required", `true`)}, "/handoffs/3/required"},
	{"CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", contract.ContractFile, []Op{Set("/capabilityGraph/edges/3/kind", `"hard-precondition"`)}, "/capabilityGraph/edges/3"},
	{"CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", contract.ContractFile, []Op{Remove("/handoffs/3")}, "/capabilities/4/inputs/3/targetRequiredness"},
	{"CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", contract.ContractFile, []Op{Append("/capabilityGraph/edges", `{"fromCapabilityId": "upload-sample-attachment", "toCapabilityId": "submit-sample-request", "kind": "handoff", "composition": "observed", "required": false}`)}, "/capabilityGraph/edges/5"},
}
