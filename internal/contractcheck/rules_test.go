package contractcheck_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/diag"
)

// ruleCase is a minimal edit of one reference input that makes a rule fire
// at a given place (in file, or in the contract when file is ""). The
// unedited reference inputs produce no finding at all (TestReference...):
// together they are each rule's failing and passing fixtures.
type ruleCase struct {
	rule string
	edit string // the input edited
	ops  []contracttest.Op
	file string // the file of the finding; "" means the edited input
	at   string
}

var (
	set    = contracttest.Set
	remove = contracttest.Remove
	add    = contracttest.Append
)

func ops(o ...contracttest.Op) []contracttest.Op { return o }

const (
	cc = contract.ContractFile
	tf = contract.TopologyFile
	hf = contract.HostProfileFile
	ef = contract.ExportProfileFile
)

var ruleCases = []ruleCase{
	// A: topology.
	{"TOPOLOGY_NOT_SEARCHED", tf, ops(set("/sources/0/searched", `false`)), "", "/sources/0/searched"},

	// C: evidence.
	{"CONTRACT_EVIDENCE_MISSING", cc, ops(set("/capabilities/3/inputs/0/evidenceRefs", `[]`)), "", "/capabilities/3/inputs/0/evidenceRefs"},
	{"CONTRACT_EVIDENCE_MISSING", cc, ops(remove("/capabilities/0/implementation/steps/0/bindings/0/evidenceRefs")), "", "/capabilities/0/implementation/steps/0/bindings/0"},
	{"CONTRACT_EVIDENCE_MISSING", cc, ops(set("/server/evidenceRefs", `[]`)), "", "/server/evidenceRefs"},
	{"CONTRACT_EVIDENCE_NOT_FACT", cc, ops(set("/evidenceCatalog/7/assertionLevel", `"inference"`)), "", "/capabilities/3/implementation/steps/0/bindings/0/evidenceRefs/0"},
	{"CONTRACT_EVIDENCE_UNAVAILABLE_SOURCE", tf, ops(set("/sources/3/availability", `"unavailable"`)), cc, "/evidenceCatalog/25/assertionLevel"},
	{"CONTRACT_EVIDENCE_WRONG_ROLE", cc, ops(set("/capabilities/3/implementation/steps/0/evidenceRefs", `["ev-service-save"]`)), "", "/capabilities/3/implementation/steps/0/evidenceRefs"},
	{"CONTRACT_EVIDENCE_WRONG_ROLE", cc, ops(set("/capabilities/3/implementation/steps/0/bindings/0/evidenceRefs", `["ev-service-save"]`)), "", "/capabilities/3/implementation/steps/0/bindings/0/evidenceRefs"},
	{"CONTRACT_EVIDENCE_UNSTATED", cc, ops(remove("/evidenceCatalog/17/claim")), "", "/capabilities/4/runtimeProtection/hardWorkflowEvidence/preDispatchEnforcement/0"},
	{"CONTRACT_EVIDENCE_UNSTATED", cc, ops(set("/evidenceCatalog/17/claim", `"  "`)), "", "/capabilities/4/runtimeProtection/hardWorkflowEvidence/preDispatchEnforcement/0"},
	{"CONTRACT_EVIDENCE_UNSTATED", cc, ops(set("/workflows/0/bindings/8/evidenceRefs", `["ev-service-attachment"]`)), "", "/workflows/0/bindings/8/evidenceRefs/0"},

	// D: exposure.
	{"CONTRACT_EXPOSURE_KIND", cc, ops(set("/capabilities/0/exposure/kind", `"explicitly-scoped-operation"`)), "", "/capabilities/0/exposure/kind"},
	{"CONTRACT_EXPOSURE_EVIDENCE", cc, ops(set("/capabilities/0/exposure/evidenceRefs", `["ev-client-goal"]`)), "", "/capabilities/0/exposure/evidenceRefs/0"},
	{"CONTRACT_EXPOSURE_SUPPLEMENTAL", cc, ops(add("/capabilities/0/exposure/supplementalEvidenceRefs", `"ev-client-list-call"`)), "", "/capabilities/0/exposure/supplementalEvidenceRefs/2"},

	// E: readiness.
	{"CONTRACT_READY_CONFLICT", cc, ops(set("/conflicts/0/status", `"unresolved"`), set("/conflicts/0/affectedCapabilityIds", `["save-sample-draft"]`)), "", "/capabilities/3/readiness"},
	// A category left out is a gap of a ready write, not a format error.
	{"CONTRACT_READY_EVIDENCE", cc, ops(remove("/capabilities/3/evidenceCoverage/idempotency")), "", "/capabilities/3/evidenceCoverage"},
	{"CONTRACT_READY_MISSING_SOURCE", tf, ops(set("/missingSources", `[{"availability": "not-found", "semanticRoles": ["persistence"], "reason": "the storage layer was not provided"}]`)), cc, "/capabilities/3/readiness"},

	// F: inputs.
	{"CONTRACT_INPUT_SCHEMA", cc, ops(remove("/capabilities/3/inputs/0/schema")), "", "/capabilities/3/inputs/0"},
	{"CONTRACT_INPUT_SCHEMA", cc, ops(set("/capabilities/3/inputs/0/schema/type", `"array"`)), "", "/capabilities/3/inputs/0/schema/type"},
	{"CONTRACT_INPUT_LOCAL_PATH", cc, ops(set("/capabilities/0/inputs/0/name", `"filePath"`)), "", "/capabilities/0/inputs/0/name"},
	{"CONTRACT_INPUT_LOCAL_PATH", cc, ops(set("/capabilities/0/inputs/0/name", `"local_path"`)), "", "/capabilities/0/inputs/0/name"},

	// G: strategies and handoffs.
	{"CONTRACT_TRUSTED_STRATEGY", cc, ops(set("/capabilities/4/inputs/2/sourceStrategies", `["trusted-host-context"]`)), "", "/capabilities/4/inputs/2/sourceStrategies/0"},
	{"CONTRACT_UPSTREAM_STRATEGY", cc, ops(set("/capabilities/4/inputs/1/sourceStrategies/0/capabilityId", `"submit-sample-request"`)), "", "/capabilities/4/inputs/1/sourceStrategies/0/capabilityId"},
	{"CONTRACT_UPSTREAM_STRATEGY", cc, ops(set("/capabilities/4/inputs/1/sourceStrategies/0", `"upstream-tool"`)), "", "/capabilities/4/inputs/1/sourceStrategies/0"},
	{"CONTRACT_UPSTREAM_STRATEGY", cc, ops(set("/capabilities/2/inputs/0/sourceStrategies/0/mappingKind", `"append-to-array"`)), "", "/capabilities/2/inputs/0/sourceStrategies/0/mappingKind"},
	{"CONTRACT_STRATEGY_CLASS", cc, ops(add("/capabilities/4/inputs/1/sourceStrategies", `"user"`)), "", "/capabilities/4/inputs/1/sourceStrategies/1"},
	{"CONTRACT_STRATEGY_CLASS", cc, ops(add("/capabilities/1/inputs/0/sourceStrategies", `"user"`)), "", "/capabilities/1/inputs/0/sourceStrategies/1"},
	{"CONTRACT_STRATEGY_HANDOFF", cc, ops(remove("/handoffs/2")), "", "/capabilities/4/inputs/1/sourceStrategies/0"},
	{"CONTRACT_HANDOFF", cc, ops(set("/handoffs/1/fromCapabilityId", `"validate-sample-request"`)), "", "/handoffs/1"},
	{"CONTRACT_HANDOFF", cc, ops(set("/handoffs/3/toCapabilityId", `"validate-sample-request"`)), "", "/handoffs/3"},
	{"CONTRACT_HANDOFF", cc, ops(add("/handoffs/0/mappings", `{"sourcePath": ["options", "*", "selectionGrant"], "targetInput": "selectionGrant", "mappingKind": "select-one"}`)), "", "/handoffs/0/mappings/1"},
	{"CONTRACT_HANDOFF_MAPPING", cc, ops(set("/handoffs/2/mappings/0/sourcePath", `["payloadDigest"]`)), "", "/handoffs/2/mappings/0/mappingKind"},
	{"CONTRACT_HANDOFF_MAPPING", cc, ops(set("/handoffs/2/mappings/0/sourcePath", `["grant"]`)), "", "/handoffs/2/mappings/0/sourcePath"},

	// H: value domains and freshness.
	{"CONTRACT_DOMAIN_DYNAMIC_REQUIRED", cc, ops(set("/capabilities/4/inputs/1/valueDomain", `{"kind": "unconstrained"}`)), "", "/capabilities/4/inputs/1/valueDomain/kind"},
	{"CONTRACT_DOMAIN_SOURCE", cc, ops(set("/capabilities/4/inputs/1/valueDomain/mappingKind", `"append-to-array"`)), "", "/capabilities/4/inputs/1/valueDomain"},
	{"CONTRACT_DOMAIN_SOURCE", cc, ops(remove("/capabilities/4/inputs/1/valueDomain/sourceCapabilityId")), "", "/capabilities/4/inputs/1/valueDomain"},
	{"CONTRACT_DOMAIN_SCOPE", cc, ops(set("/capabilities/4/inputs/1/valueDomain/tenantScoped", `true`)), "", "/capabilities/4/inputs/1/valueDomain/tenantScoped"},
	{"CONTRACT_DOMAIN_SCOPE", cc, ops(set("/capabilities/4/inputs/1/valueDomain/freshness/ttlSeconds", `600`)), "", "/capabilities/4/inputs/1/valueDomain/freshness"},
	{"CONTRACT_DOMAIN_SCOPE", cc, ops(set("/capabilities/2/outputs/0/valueDomain", `{"kind": "unconstrained"}`)), "", "/capabilities/4/inputs/1/valueDomain/sourcePath"},
	{"CONTRACT_DOMAIN_STATIC", cc, ops(set("/capabilities/0/inputs/0/valueDomain/values/1", `5`)), "", "/capabilities/0/inputs/0/valueDomain/values/1"},
	{"CONTRACT_FRESHNESS", cc, ops(set("/capabilities/0/inputs/0/freshness/refreshWhen", `["whenever"]`)), "", "/capabilities/0/inputs/0/freshness/refreshWhen/0"},
	{"CONTRACT_FRESHNESS", cc, ops(set("/capabilities/1/inputs/0/freshness/ttlSeconds", `0`)), "", "/capabilities/1/inputs/0/freshness/ttlSeconds"},
	{"CONTRACT_FRESHNESS", cc, ops(remove("/capabilities/0/outputs/0/valueDomain/freshness")), "", "/capabilities/0/outputs/0/valueDomain"},

	// J: conditions.
	{"CONTRACT_CONDITION_PLACEMENT", cc, ops(set("/capabilities/2/inputs/2/informationClass", `"optional"`)), "", "/capabilities/2/inputs/2/informationClass"},
	{"CONTRACT_CONDITION_PLACEMENT", cc, ops(set("/capabilities/2/inputs/2/requiredWhen", `[]`)), "", "/capabilities/2/inputs/2/requiredWhen"},
	{"CONTRACT_CONDITION_PATH", cc, ops(set("/capabilities/2/inputs/2/requiredWhen/0/path", `["selectionGrant", "needsAttachment"]`)), "", "/capabilities/2/inputs/2/requiredWhen/0/path"},
	{"CONTRACT_CONDITION_PATH", cc, ops(set("/capabilities/2/inputs/2/requiredWhen/0/path", `["selection", "requiresAttachment"]`)), "", "/capabilities/2/inputs/2/requiredWhen/0/path/0"},
	{"CONTRACT_CONDITION_OPERATOR", cc, ops(set("/capabilities/2/inputs/2/requiredWhen/0/operator", `"gt"`)), "", "/capabilities/2/inputs/2/requiredWhen/0/operator"},
	{"CONTRACT_CONDITION_OPERATOR", cc, ops(set("/capabilities/2/inputs/2/requiredWhen/0/operator", `"present"`)), "", "/capabilities/2/inputs/2/requiredWhen/0/value"},
	{"CONTRACT_CONDITION_OPERATOR", cc, ops(set("/capabilities/2/inputs/2/requiredWhen/0/operator", `"in"`)), "", "/capabilities/2/inputs/2/requiredWhen/0/value"},
	{"CONTRACT_CONDITION_VALUE", cc, ops(set("/capabilities/2/inputs/2/requiredWhen/0/value", `"yes"`)), "", "/capabilities/2/inputs/2/requiredWhen/0/value"},
	{"CONTRACT_CONDITION_SELF", cc, ops(set("/capabilities/2/inputs/2/requiredWhen/0", `{"path": ["attachmentGrants"], "operator": "empty", "evidenceRefs": ["ev-service-selection"]}`)), "", "/capabilities/2/inputs/2/requiredWhen/0/path/0"},
	{"CONTRACT_CONDITION_CONTRADICTION", cc, ops(set("/capabilities/2/inputs/2/forbiddenWhen/0", `{"path": ["selectionGrant", "requiresAttachment"], "operator": "equals", "value": true, "evidenceRefs": ["ev-client-goal"]}`)), "", "/capabilities/2/inputs/2/forbiddenWhen/0"},
	{"CONTRACT_CONDITION_CYCLE", cc, ops(
		set("/capabilities/2/inputs/0/required", `false`), set("/capabilities/2/inputs/0/informationClass", `"requiredWhen"`),
		set("/capabilities/2/inputs/0/requiredWhen", `[{"path": ["attachmentGrants"], "operator": "non-empty", "evidenceRefs": ["ev-service-selection"]}]`)),
		"", "/capabilities/2/inputs/0/requiredWhen"},

	// K: outputs and the success rule.
	{"CONTRACT_OUTPUT_SCHEMA", cc, ops(remove("/capabilities/2/outputs/0/schema")), "", "/capabilities/2/outputs/0"},
	{"CONTRACT_OUTPUT_SCHEMA", cc, ops(set("/capabilities/2/outputs/0/type", `"array"`)), "", "/capabilities/2/outputs/0/schema/type"},
	{"CONTRACT_OUTPUT_DOMAIN", cc, ops(remove("/capabilities/3/outputs/0/valueDomain")), "", "/capabilities/3/outputs/0"},
	{"CONTRACT_OUTPUT_CHILD_SCHEMA", cc, ops(set("/capabilities/0/outputs/1/schema/required", `["grantId"]`)), "", "/capabilities/0/outputs/1/schema"},
	{"CONTRACT_OUTPUT_CHILD_SCHEMA", cc, ops(set("/capabilities/0/outputs/1/path", `["options", "*", "grant"]`)), "", "/capabilities/0/outputs/1/path"},
	{"CONTRACT_SUCCESS_RULE", cc, ops(set("/capabilities/3/successRule/requiredOutputPaths", `[["data", "draftId"]]`)), "", "/capabilities/3/successRule/requiredOutputPaths/0"},
	{"CONTRACT_SUCCESS_RULE", cc, ops(set("/capabilities/3/successRule/requiredOutputPaths", `[["draft"]]`)), "", "/capabilities/3/successRule/requiredOutputPaths/0"},
	{"CONTRACT_EMPTY_BODY_SUCCESS", cc, ops(set("/capabilities/3/successRule/outputRequired", `false`)), "", "/capabilities/3/successRule/outputRequired"},
	{"CONTRACT_EMPTY_BODY_SUCCESS", cc, ops(set("/capabilities/3/successRule/emptyBodyStatusCodes", `[200]`)), "", "/capabilities/3/successRule/outputRequired"},
	{"CONTRACT_EMPTY_BODY_SUCCESS", cc, ops(set("/capabilities/3/successRule/outputRequired", `false`), set("/capabilities/3/successRule/emptyBodyStatusCodes", `[204]`)), "", "/capabilities/3/successRule/emptyBodyStatusCodes/0"},
	{"CONTRACT_EMPTY_BODY_SUCCESS", cc, ops(set("/capabilities/3/outputs", `[]`), set("/capabilities/3/successRule/requiredOutputPaths", `[]`)), "", "/capabilities/3/outputs"},
	{"CONTRACT_EMPTY_BODY_SUCCESS", cc, ops(set("/capabilities/3/implementation/steps/0/successStatusCodes", `[200, 204]`), set("/capabilities/3/outputs", `[]`),
		set("/capabilities/3/successRule/requiredOutputPaths", `[]`), set("/capabilities/3/successRule/outputRequired", `false`), set("/capabilities/3/successRule/emptyBodyStatusCodes", `[204]`)),
		"", "/capabilities/3/successRule/emptyBodyStatusCodes"},
	{"CONTRACT_EMPTY_BODY_SUCCESS", cc, ops(set("/capabilities/0/implementation", `{"kind": "local"}`), set("/capabilities/0/successRule/kind", `"output"`), set("/capabilities/0/successRule/outputRequired", `false`)), "", "/capabilities/0/successRule/outputRequired"},
	{"CONTRACT_SUCCESS_RULE", cc, ops(set("/capabilities/3/successRule/kind", `"output"`)), "", "/capabilities/3/successRule/kind"},
	{"CONTRACT_REQUIRED_OUTPUT_NULLABLE", cc, ops(set("/capabilities/3/outputs/0/schema", `{"type": ["string", "null"]}`)), "", "/capabilities/3/successRule/requiredOutputPaths/0"},
	{"CONTRACT_REQUIRED_OUTPUT_NULLABLE", cc, ops(set("/capabilities/2/outputs/0/schema/properties/grantId/type", `["string", "null"]`), set("/capabilities/2/successRule/requiredOutputPaths/0", `["validationGrant", "grantId"]`)), "", "/capabilities/2/successRule/requiredOutputPaths/0"},

	// L: Host requirements.
	{"CONTRACT_HOST_REQUIREMENT_MISSING", cc, ops(remove("/capabilities/0/hostRequirements/3")), "", "/capabilities/0/hostRequirements"},
	{"CONTRACT_HOST_REQUIREMENT_MISSING", cc, ops(remove("/capabilities/1/hostRequirements/5")), "", "/capabilities/1/hostRequirements"},
	{"CONTRACT_HOST_REQUIREMENT_EXTRA", cc, ops(add("/capabilities/0/hostRequirements", `"trusted-confirmation"`)), "", "/capabilities/0/hostRequirements/4"},
	{"PROFILE_HOST_CAPABILITY_MISSING", hf, ops(remove("/capabilities/sessionState")), "", "/capabilities"},

	// M: policy and annotations.
	{"CONTRACT_SIDE_EFFECT_MISMATCH", cc, ops(set("/capabilities/3/operationPolicy/sideEffect", `"create"`)), "", "/capabilities/3/operationPolicy/sideEffect"},
	{"CONTRACT_SIDE_EFFECT_MISMATCH", cc, ops(set("/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect", `"delete"`)), "", "/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect"},
	{"CONTRACT_POLICY_READ", cc, ops(set("/capabilities/0/operationPolicy/automaticRetry", `"never"`)), "", "/capabilities/0/operationPolicy/automaticRetry"},
	{"CONTRACT_POLICY_WRITE", cc, ops(set("/capabilities/3/operationPolicy/automaticRetry", `"read-only-bounded"`)), "", "/capabilities/3/operationPolicy/automaticRetry"},
	{"CONTRACT_POLICY_WRITE", cc, ops(set("/capabilities/3/operationPolicy/unknownOutcome", `"not-applicable"`)), "", "/capabilities/3/operationPolicy/unknownOutcome"},
	{"CONTRACT_ANNOTATION_READ_ONLY", cc, ops(set("/capabilities/3/annotations/readOnlyHint", `true`)), "", "/capabilities/3/annotations/readOnlyHint"},
	{"CONTRACT_ANNOTATION_READ_ONLY", cc, ops(set("/capabilities/0/annotations/destructiveHint", `true`)), "", "/capabilities/0/annotations/destructiveHint"},
	{"CONTRACT_ANNOTATION_DESTRUCTIVE", cc, ops(
		set("/capabilities/3/sideEffect", `"delete"`), set("/capabilities/3/operationPolicy/sideEffect", `"delete"`),
		set("/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect", `"delete"`), set("/capabilities/3/annotations/destructiveHint", `false`)),
		"", "/capabilities/3/annotations/destructiveHint"},
	{"CONTRACT_ANNOTATION_IDEMPOTENT", cc, ops(set("/capabilities/3/annotations/idempotentHint", `false`)), "", "/capabilities/3/annotations/idempotentHint"},
	{"CONTRACT_ANNOTATION_OPEN_WORLD", cc, ops(set("/capabilities/0/annotations/openWorldHint", `false`)), "", "/capabilities/0/annotations/openWorldHint"},
	{"CONTRACT_CONFIRMATION", cc, ops(set("/capabilities/3/operationPolicy/confirmation", `"trusted-confirmation-required"`)), "", "/capabilities/3/operationPolicy/confirmation"},
	// A deployer's policy for another confirmation does not stand for this one.
	{"CONTRACT_CONFIRMATION", cc, ops(set("/capabilities/3/operationPolicy/confirmation", `"upload-confirmation-required"`),
		set("/capabilities/3/deployerPolicy", deployerPolicy)), "", "/capabilities/3/operationPolicy/confirmation"},
	{"CONTRACT_DEPLOYER_POLICY", cc, ops(set("/capabilities/0/deployerPolicy", deployerPolicy)), "", "/capabilities/0/deployerPolicy"},
	{"CONTRACT_DEPLOYER_POLICY", cc, ops(set("/capabilities/3/deployerPolicy", deployerPolicy)), "", "/capabilities/3/deployerPolicy/confirmation"},
	{"CONTRACT_CONFIRMATION", cc, ops(add("/capabilities/4/inputs", `{"name": "userConfirmed", "description": "Whether the user confirmed.", "type": "boolean", "required": false, "informationClass": "optional", "sourceStrategies": ["user"], "valueDomain": {"kind": "unconstrained"}, "evidenceRefs": ["ev-tests-workflow"]}`)), "", "/capabilities/4/inputs/4/name"},

	// O: error contract.
	{"CONTRACT_ERROR_RECOVERY", cc, ops(set("/capabilities/0/errorContract/preservesRecoveryContext", `false`)), "", "/capabilities/0/errorContract/preservesRecoveryContext"},
	{"CONTRACT_ERROR_RETRYABLE", cc, ops(remove("/capabilities/0/errorContract/retryabilityPath"), set("/capabilities/0/errorContract/defaultRetryable", `true`)), "", "/capabilities/0/errorContract/defaultRetryable"},

	// P: runtime protection.
	{"CONTRACT_RUNTIME_PROTECTION", cc, ops(remove("/capabilities/3/runtimeProtection")), "", "/capabilities/3"},
	{"CONTRACT_RUNTIME_PROTECTION", cc, ops(set("/capabilities/0/runtimeProtection", `{"mode": "backend-authoritative", "owner": "target-api", "evidenceRefs": ["ev-contract-catalog"]}`)), "", "/capabilities/0/runtimeProtection"},
	{"CONTRACT_RUNTIME_PROTECTION", cc, ops(set("/capabilities/4/workflowId", `"upload-sample-attachment"`)), "", "/capabilities/4/workflowId"},
	{"CONTRACT_PROTECTION_MODE", cc, ops(set("/capabilities/3/runtimeProtection/owner", `"mcp-session-runtime"`)), "", "/capabilities/3/runtimeProtection/owner"},
	{"CONTRACT_PROTECTION_MODE", cc, ops(set("/capabilities/3/runtimeProtection", `{"mode": "unresolved", "evidenceRefs": ["ev-service-save"]}`)), "", "/capabilities/3/runtimeProtection/mode"},
	{"CONTRACT_PROTECTION_MODE", cc, ops(set("/capabilities/4/runtimeProtection/owner", `"target-api"`)), "", "/capabilities/4/runtimeProtection/owner"},
	{"CONTRACT_HARD_EVIDENCE_ROLE", cc, ops(set("/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueIssuance", `["ev-service-submit"]`)), "", "/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueIssuance/0"},
	{"CONTRACT_HARD_EVIDENCE_ROLE", cc, ops(set("/capabilities/4/runtimeProtection/evidenceRefs", `["ev-contract-validation", "ev-contract-submit", "ev-service-validation", "ev-service-submit"]`)), "", "/capabilities/4/runtimeProtection/hardWorkflowEvidence/preDispatchEnforcement/1"},
	{"CONTRACT_HARD_EVIDENCE_CONTEXT", cc, ops(set("/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueBinding", `["ev-contract-validation"]`)), "", "/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueBinding/0"},

	// Q: HTTP steps and bindings.
	{"CONTRACT_HTTP_STEP", cc, ops(set("/capabilities/0/implementation/steps/0/url", `"ftp://application.example/kinds"`)), "", "/capabilities/0/implementation/steps/0/url"},
	{"CONTRACT_HTTP_STEP", cc, ops(set("/capabilities/0/implementation/steps/0/url", `"https://user:secret@application.example/kinds"`)), "", "/capabilities/0/implementation/steps/0/url"},
	{"CONTRACT_HTTP_STEP", cc, ops(set("/capabilities/3/implementation/steps/0/successStatusCodes/0", `700`)), "", "/capabilities/3/implementation/steps/0/successStatusCodes/0"},
	{"CONTRACT_HTTP_STEP", cc, ops(set("/capabilities/0/implementation/steps/0/bindings/0/source", `{"kind": "prior_response", "stepId": "listKinds", "path": ["detail"]}`)), "", "/capabilities/0/implementation/steps/0/bindings/0/source/stepId"},
	{"CONTRACT_BINDING_OVERLAP", cc, ops(set("/capabilities/2/implementation/steps/0/bindings/2/path", `["requestData", "attachments"]`)), "", "/capabilities/2/implementation/steps/0/bindings/2/path"},
	{"CONTRACT_INPUT_UNCONSUMED", cc, ops(remove("/capabilities/3/implementation/steps/0/bindings/0")), "", "/capabilities/3/inputs/0/name"},
	{"CONTRACT_RESOLVED_ATTACHMENT_BINDING", cc, ops(set("/capabilities/3/implementation/steps/0/bindings/0/source", `{"kind": "host_resolved_attachment", "inputName": "requestData", "requirementId": "attachment-resolution"}`)), "", "/capabilities/3/implementation/steps/0/bindings/0/source/kind"},

	// R: attachments.
	{"CONTRACT_ATTACHMENT_UPLOAD", cc, ops(
		set("/capabilities/1/sideEffect", `"delete"`), set("/capabilities/1/operationPolicy/sideEffect", `"delete"`),
		set("/capabilities/1/evidenceCoverage/sideEffect/declaredSideEffect", `"delete"`)),
		"", "/capabilities/1/attachments/mode"},
	{"CONTRACT_ATTACHMENT_ACCEPTED_INPUTS", cc, ops(set("/capabilities/1/attachments/acceptedInputs", `["bounded-content"]`)), "", "/capabilities/1/attachments/acceptedInputs/0"},
	{"CONTRACT_ATTACHMENT_GRANT_INPUT", cc, ops(set("/capabilities/1/inputs/0/schema/required", `["grantId", "fileName", "mediaType", "sizeBytes"]`)), "", "/capabilities/1/inputs/0/schema"},
	{"CONTRACT_ATTACHMENT_GRANT_INPUT", cc, ops(set("/capabilities/1/inputs/0/informationClass", `"required"`)), "", "/capabilities/1/inputs/0/informationClass"},
	{"CONTRACT_ATTACHMENT_RAW_GRANT", cc, ops(set("/capabilities/1/implementation/steps/0/bindings/0/source", `{"kind": "input", "inputName": "hostAttachmentGrant"}`)), "", "/capabilities/1/implementation/steps/0/bindings/0/source"},
	{"CONTRACT_ATTACHMENT_RESOLUTION", cc, ops(add("/capabilities/1/implementation/steps/0/bindings", `{"source": {"kind": "host_resolved_attachment", "inputName": "hostAttachmentGrant", "requirementId": "attachment-resolution"}, "location": "multipart", "path": ["copy"], "evidenceRefs": ["ev-client-upload-request"]}`)), "", "/capabilities/1/implementation"},
	{"CONTRACT_ATTACHMENT_RESOLUTION", cc, ops(set("/capabilities/1/implementation/steps/0/bindings/0/location", `"query"`)), "", "/capabilities/1/implementation/steps/0/bindings/0/location"},
	{"CONTRACT_ATTACHMENT_METADATA", cc, ops(set("/capabilities/1/attachments/metadata/maxSizeBytes", `2048`)), "", "/capabilities/1/attachments/metadata/maxSizeBytes"},
	{"CONTRACT_ATTACHMENT_METADATA", cc, ops(add("/capabilities/1/attachments/metadata/required", `"pageCount"`)), "", "/capabilities/1/attachments/metadata/required/4"},
	{"CONTRACT_ATTACHMENT_RESULT", cc, ops(set("/capabilities/1/attachments/resultBinding/valueKind", `"url"`)), "", "/capabilities/1/attachments/resultBinding/valueKind"},
	{"CONTRACT_ATTACHMENT_RESULT", cc, ops(set("/capabilities/1/successRule/requiredOutputPaths", `[]`)), "", "/capabilities/1/attachments/resultBinding/outputPath"},
	{"CONTRACT_ATTACHMENT_CONSUMER_BOUND", cc, ops(remove("/capabilities/2/implementation/steps/0/bindings/2")), "", "/capabilities/2/attachments/consumerBindings/0/inputName"},

	// S: constraints.
	{"CONTRACT_DUPLICATE_ID", cc, ops(set("/capabilities/4/constraints/1/constraintId", `"submitted-payload-equals-validated-payload"`)), "", "/capabilities/4/constraints/1/constraintId"},
	{"CONTRACT_CONSTRAINT_FORBIDDEN_SHAPE", cc, ops(set("/capabilities/1/constraints/0/predicate", `{"operator": "present"}`)), "", "/capabilities/1/constraints/0/predicate"},
	{"CONTRACT_CONSTRAINT_FORBIDDEN_SHAPE", cc, ops(set("/capabilities/1/constraints/0/path", `["localPath"]`)), "", "/capabilities/1/constraints/0/path/0"},
	{"CONTRACT_CONSTRAINT_CROSS_FIELD", cc, ops(set("/capabilities/4/constraints/0/operator", `"gt"`)), "", "/capabilities/4/constraints/0/operator"},
	{"CONTRACT_CONSTRAINT_CROSS_FIELD", cc, ops(set("/capabilities/4/constraints/0/left/path", `["payload"]`)), "", "/capabilities/4/constraints/0/left/path"},
	{"CONTRACT_CONSTRAINT_GRANT_BINDING", cc, ops(add("/capabilities/4/constraints/1/fields", `"receipt"`)), "", "/capabilities/4/constraints/1/fields/5"},
	{"CONTRACT_CONSTRAINT_GRANT_BINDING", cc, ops(remove("/capabilities/4/constraints/1/fields/2")), "", "/capabilities/4/constraints/1/fields"},

	// T: conflicts.
	{"CONTRACT_CONFLICT", cc, ops(remove("/conflicts/0/resolution")), "", "/conflicts/0"},
	{"CONTRACT_CONFLICT", cc, ops(set("/conflicts/0/evidenceRefs", `["ev-client-goal"]`)), "", "/conflicts/0/evidenceRefs"},

	// U: graph.
	{"CONTRACT_GRAPH", cc, ops(remove("/capabilityGraph/nodes/3")), "", "/capabilityGraph/nodes"},
	{"CONTRACT_GRAPH", cc, ops(set("/capabilityGraph/edges/4/toCapabilityId", `"list-sample-request-kinds"`)), "", "/capabilityGraph/edges/4"},
	{"CONTRACT_GRAPH_EDGE", cc, ops(set("/capabilityGraph/edges/4/required", `true`)), "", "/capabilityGraph/edges/4/required"},
	{"CONTRACT_GRAPH_EDGE", cc, ops(set("/capabilityGraph/edges/4/kind", `"handoff"`)), "", "/capabilityGraph/edges/4/kind"},
	{"CONTRACT_GRAPH_EDGE", cc, ops(add("/capabilityGraph/edges", `{"fromCapabilityId": "list-sample-request-kinds", "toCapabilityId": "upload-sample-attachment", "kind": "optional-planning", "composition": "derived", "required": false}`)), "", "/capabilityGraph/edges/5"},
	{"CONTRACT_GRAPH_EDGE", cc, ops(set("/capabilityGraph/edges/0/kind", `"hard-precondition"`)), "", "/capabilityGraph/edges/0/toCapabilityId"},
	{"CONTRACT_GRAPH_OBSERVED", cc, ops(set("/capabilityGraph/edges/0/required", `false`)), "", "/capabilityGraph/edges/0/required"},
	{"CONTRACT_GRAPH_OBSERVED", cc, ops(remove("/capabilityGraph/edges/0")), "", "/handoffs/0"},
	{"CONTRACT_GRAPH_DERIVED_GUARD", cc, ops(
		set("/workflows/1/entryCapabilityId", `"validate-sample-request"`), set("/workflows/1/capabilityIds", `["validate-sample-request", "submit-sample-request"]`),
		add("/capabilityGraph/edges", `{"fromCapabilityId": "list-sample-request-kinds", "toCapabilityId": "submit-sample-request", "kind": "optional-planning", "composition": "derived", "required": false}`)),
		"", "/capabilityGraph/edges/5/toCapabilityId"},

	// V: goals.
	{"CONTRACT_GOAL_PREDICATE", cc, ops(remove("/goals/1/completionPredicate/informationIds/1")), "", "/goals/1/completionPredicate/informationIds"},
	{"CONTRACT_GOAL_PREDICATE", cc, ops(set("/goals/1/completionPredicate", `{"operator": "any-satisfied", "informationIds": ["saved-draft"]}`)), "", "/goals/1/completionPredicate/informationIds"},
	{"CONTRACT_GOAL_NEED_SCHEMA", cc, ops(remove("/goals/1/informationNeeds/0/schema")), "", "/goals/1/informationNeeds/0"},
	{"CONTRACT_GOAL_NEED_CONDITION", cc, ops(remove("/goals/0/informationNeeds/2/condition")), "", "/goals/0/informationNeeds/2"},
	{"CONTRACT_GOAL_NEED_CONDITION", cc, ops(set("/goals/1/informationNeeds/0/condition", `{"path": ["saved-draft"], "operator": "absent", "evidenceRefs": ["ev-client-save-call"]}`)), "", "/goals/1/informationNeeds/0/condition"},
	{"CONTRACT_GOAL_SOURCE_ALIGNMENT", cc, ops(set("/goals/1/informationNeeds/0/satisfiedBy", `[{"kind": "trusted-host-context", "requirementId": "session-state"}]`)), "", "/goals/1/informationNeeds/0/satisfiedBy/0"},
	{"CONTRACT_GOAL_SUPPLY", cc, ops(set("/goals/1/informationNeeds/0/supplies/0/mappingKind", `"append-to-array"`)), "", "/goals/1/informationNeeds/0/supplies/0/mappingKind"},
	{"CONTRACT_GOAL_SUPPLY", cc, ops(set("/goals/1/informationNeeds/0/supplies/0/capabilityId", `"submit-sample-request"`)), "", "/goals/1/informationNeeds/0/supplies/0/capabilityId"},
	{"CONTRACT_GOAL_SUPPLY", cc, ops(set("/goals/1/informationNeeds/0/classification", `"optional"`)), "", "/goals/1/informationNeeds/0/supplies/0"},
	{"CONTRACT_GOAL_SUPPLY_COVERAGE", cc, ops(remove("/goals/1/informationNeeds/0/supplies")), "", "/goals/1/informationNeeds"},
	{"CONTRACT_GOAL_SUPPLY_COVERAGE", cc, ops(add("/goals/0/informationNeeds/1/supplies", `{"capabilityId": "validate-sample-request", "inputName": "requestData", "mappingKind": "direct"}`)), "", "/goals/0/informationNeeds/1/supplies/1"},
	{"CONTRACT_GOAL_REUSE", cc, ops(remove("/goals/1/informationNeeds/1/reuseWhile")), "", "/goals/1/informationNeeds/1"},
	{"CONTRACT_GOAL_REUSE", cc, ops(set("/goals/1/informationNeeds/1/reuseWhile/sameSubject", `false`)), "", "/goals/1/informationNeeds/1/reuseWhile/sameSubject"},
	{"CONTRACT_GOAL_REUSE", cc, ops(remove("/goals/0/informationNeeds/0/reuseWhile/sameTenant")), "", "/goals/0/informationNeeds/0/reuseWhile"},
	{"CONTRACT_GOAL_CONDITIONAL_INPUT", cc, ops(set("/goals/0/informationNeeds/3/condition/value", `false`)), "", "/goals/0/informationNeeds/3/condition"},
	{"CONTRACT_GOAL_CYCLE", cc, ops(set("/goals/1/informationNeeds/1/supplies", `[{"capabilityId": "save-sample-draft", "inputName": "requestData", "mappingKind": "direct"}]`)), "", "/goals/1/informationNeeds"},
	{"CONTRACT_GOAL_CAPABILITY_LISTS", cc, ops(set("/goals/1/optionalCapabilityIds", `["save-sample-draft"]`)), "", "/goals/1/optionalCapabilityIds/0"},
	{"CONTRACT_GOAL_CAPABILITY_LISTS", cc, ops(set("/goals/0/conditionalCapabilityIds/0", `{"capabilityId": "upload-sample-attachment", "condition": {"path": ["current-selection", "allowsAttachment"], "operator": "equals", "value": true, "evidenceRefs": ["ev-service-selection"]}}`)), "", "/goals/0/conditionalCapabilityIds/0/condition"},
	{"CONTRACT_GOAL_CAPABILITY_SETS", cc, ops(add("/goals/1/requiredCapabilityIds", `"list-sample-request-kinds"`)), "", "/goals/1/requiredCapabilityIds/1"},
	{"CONTRACT_GOAL_COVERS_GRAPH", cc, ops(set("/goals/1/requiredCapabilityIds", `[]`)), "", "/capabilityGraph/nodes/3/capabilityId"},

	// W: workflows.
	{"CONTRACT_DUPLICATE_ID", cc, ops(set("/workflows/1/bindings/2/name", `"subject"`)), "", "/workflows/1/bindings/2/name"},
	{"CONTRACT_WORKFLOW_TARGET", cc, ops(add("/workflows/0/capabilityIds", `"save-sample-draft"`)), "", "/workflows/0/capabilityIds/1"},
	{"CONTRACT_WORKFLOW_RUNTIME_CONTEXT", cc, ops(set("/workflows/1/bindings/0/actualSource/path", `["userId"]`)), "", "/workflows/1/bindings/0/actualSource/path"},
	{"CONTRACT_WORKFLOW_RUNTIME_CONTEXT", cc, ops(set("/workflows/1/bindings/1/name", `"sessionKey"`)), "", "/workflows/1/bindings/1/name"},
	{"CONTRACT_WORKFLOW_RUNTIME_CONTEXT", cc, ops(set("/workflows/0/bindings/8/actualSource/requirementId", `"session-state"`)), "", "/workflows/0/bindings/8/actualSource/requirementId"},
	{"CONTRACT_WORKFLOW_EXPECTED", cc, ops(set("/workflows/1/bindings/2/expectedSource/value", `"other-request"`)), "", "/workflows/1/bindings/2/expectedSource"},
	{"CONTRACT_WORKFLOW_ZERO_DISPATCH", cc, ops(set("/workflows/1/verificationChecks", `["payload-mismatch-is-rejected"]`)), "", "/workflows/1/verificationChecks"},

	// X: the portable schema subset.
	{"SCHEMA_TYPE", cc, ops(set("/capabilities/3/inputs/0/schema/properties/note/type", `"text"`)), "", "/capabilities/3/inputs/0/schema/properties/note/type"},
	{"SCHEMA_TYPE", cc, ops(set("/capabilities/3/inputs/0/schema/properties/note/type", `["string", "integer"]`)), "", "/capabilities/3/inputs/0/schema/properties/note/type"},
	{"SCHEMA_TYPE", cc, ops(remove("/capabilities/3/inputs/0/schema/properties/note/type")), "", "/capabilities/3/inputs/0/schema/properties/note"},
	{"SCHEMA_KEYWORD", cc, ops(set("/capabilities/3/inputs/0/schema/properties/note/anyOf", `[{"type": "string"}]`)), "", "/capabilities/3/inputs/0/schema/properties/note/anyOf"},
	{"SCHEMA_KEYWORD", cc, ops(set("/capabilities/3/inputs/0/schema/properties/note/minimum", `1`)), "", "/capabilities/3/inputs/0/schema/properties/note/minimum"},
	{"SCHEMA_ENUM", cc, ops(set("/capabilities/3/inputs/0/schema/properties/note/enum", `[]`)), "", "/capabilities/3/inputs/0/schema/properties/note/enum"},
	{"SCHEMA_ENUM", cc, ops(set("/capabilities/3/inputs/0/schema/properties/note/const", `1`)), "", "/capabilities/3/inputs/0/schema/properties/note/const"},
	{"SCHEMA_FORMAT", cc, ops(set("/capabilities/3/inputs/0/schema/properties/note/format", `"email"`)), "", "/capabilities/3/inputs/0/schema/properties/note/format"},
	{"SCHEMA_BOUNDS", cc, ops(set("/capabilities/1/inputs/0/schema/properties/sizeBytes/minimum", `2000000`)), "", "/capabilities/1/inputs/0/schema/properties/sizeBytes/minimum"},
	{"SCHEMA_BOUNDS", cc, ops(set("/capabilities/3/inputs/0/schema/properties/note/maxLength", `-1`)), "", "/capabilities/3/inputs/0/schema/properties/note/maxLength"},
	{"SCHEMA_OBJECT", cc, ops(remove("/capabilities/3/inputs/0/schema/additionalProperties")), "", "/capabilities/3/inputs/0/schema"},
	{"SCHEMA_OBJECT", cc, ops(add("/capabilities/3/inputs/0/schema/required", `"title"`)), "", "/capabilities/3/inputs/0/schema/required/1"},
	{"SCHEMA_ARRAY", cc, ops(remove("/capabilities/2/inputs/2/schema/items")), "", "/capabilities/2/inputs/2/schema"},
	{"SCHEMA_PATTERN", cc, ops(set("/capabilities/1/inputs/0/schema/properties/sha256/pattern", `"^(?=[a-f0-9])[a-f0-9]{64}$"`)), "", "/capabilities/1/inputs/0/schema/properties/sha256/pattern"},

	// The export profile.
	{"PROFILE_FEATURE_SURFACE", ef, ops(set("/featureSurface/kind", `"route"`)), "", "/featureSurface/identifier"},
	{"PROFILE_FEATURE_SURFACE", ef, ops(set("/featureSurface/identifier", `"sample\nrequest"`)), "", "/featureSurface/identifier"},
	{"PROFILE_DRY_RUN_VARIABLE", ef, ops(set("/dryRunEnvironmentVariable", `"dry_run"`)), "", "/dryRunEnvironmentVariable"},
	{"PROFILE_ORIGINS", ef, ops(set("/allowedRuntimeOrigins/0", `"https://application.example/api"`)), "", "/allowedRuntimeOrigins/0"},
	{"PROFILE_ORIGINS", ef, ops(set("/allowedRuntimeOrigins", `[]`)), "", "/allowedRuntimeOrigins"},
	{"PROFILE_ORIGINS", ef, ops(add("/allowedRuntimeOrigins", `"https://other.example"`)), "", "/allowedRuntimeOrigins/1"},

	// The export profile's host runtime (hostRuntime, the passing
	// fixture of TestHostRuntimeFixture, edited).
	{"PROFILE_HOST_RUNTIME_ORIGINS", ef, hostRuntime(set("/hostRuntime/baseUrlVariables", `{}`)), "", "/hostRuntime/baseUrlVariables"},
	{"PROFILE_HOST_RUNTIME_ORIGINS", ef, hostRuntime(set("/hostRuntime/baseUrlVariables/https:~1~1other.example", `"OTHER_BASE_URL"`)), "", "/hostRuntime/baseUrlVariables/https:~1~1other.example"},
	{"PROFILE_HOST_RUNTIME_CREDENTIALS", ef, hostRuntime(set("/hostRuntime/credentials", `{}`)), "", "/hostRuntime/credentials"},
	{"PROFILE_HOST_RUNTIME_CREDENTIALS", ef, hostRuntime(set("/hostRuntime/credentials/cookie_session", `{"variable": "SAMPLE_SESSION", "cookie": "sid"}`)), "", "/hostRuntime/credentials/cookie_session"},
	{"PROFILE_HOST_RUNTIME_CREDENTIALS", ef, hostRuntime(set("/hostRuntime/credentials/runtime_context/cookie", `"sid"`)), "", "/hostRuntime/credentials/runtime_context"},
	{"PROFILE_HOST_RUNTIME_CREDENTIALS", ef, hostRuntime(set("/hostRuntime/credentials/runtime_context/header", `"Content-Type"`)), "", "/hostRuntime/credentials/runtime_context/header"},
	{"PROFILE_HOST_RUNTIME_CREDENTIALS", ef, hostRuntime(set("/hostRuntime/credentials/runtime_context/scheme", `"Bearer token"`)), "", "/hostRuntime/credentials/runtime_context/scheme"},
	{"PROFILE_HOST_RUNTIME_VARIABLE", ef, hostRuntime(set("/hostRuntime/credentials/runtime_context/variable", `"sample_token"`)), "", "/hostRuntime/credentials/runtime_context/variable"},
	{"PROFILE_HOST_RUNTIME_VARIABLE", ef, hostRuntime(set("/hostRuntime/subjectVariable", `"SAMPLE_BASE_URL"`)), "", "/hostRuntime/subjectVariable"},
	{"PROFILE_HOST_RUNTIME_VARIABLE", ef, hostRuntime(set("/hostRuntime/baseUrlVariables/https:~1~1application.example", `"CODE2SKILL_DRY_RUN"`)), "", "/hostRuntime/baseUrlVariables/https:~1~1application.example"},
	{"PROFILE_HOST_RUNTIME_SUBJECT", ef, hostRuntime(remove("/hostRuntime/subjectVariable")), "", "/hostRuntime"},
	{"FORMAT_FIELD_UNKNOWN", ef, hostRuntime(set("/hostRuntime/baseUrl", `"https://application.example"`)), "", "/hostRuntime/baseUrl"},
}

// hostRuntimeFixture is a hostRuntime the reference export profile can
// declare without a finding: the reference contract's one origin and one
// authentication kind, and the subject its workflows bind.
const hostRuntimeFixture = `{
  "baseUrlVariables": {"https://application.example": "SAMPLE_BASE_URL"},
  "credentials": {"runtime_context": {"variable": "SAMPLE_TOKEN", "header": "Authorization", "scheme": "Bearer"}},
  "subjectVariable": "SAMPLE_SUBJECT_ID"
}`

// hostRuntime declares hostRuntimeFixture, then applies the edits.
func hostRuntime(edits ...contracttest.Op) []contracttest.Op {
	return append([]contracttest.Op{set("/hostRuntime", hostRuntimeFixture)}, edits...)
}

// TestHostRuntimeFixture: a hostRuntime that names a base URL for every
// allowed origin, a credential for every authentication kind the requests
// need and the subject the workflows bind has no finding.
func TestHostRuntimeFixture(t *testing.T) {
	l := check(t, ef, contractcheck.Options{}, hostRuntime()...)
	for _, d := range l.Sorted() {
		if d.Rule != contractcheck.RuleNotChecked.ID {
			t.Errorf("%s", d)
		}
	}
}

func TestRulesFireOnTheirFixtures(t *testing.T) {
	for i, rc := range ruleCases {
		t.Run(fmt.Sprintf("%03d_%s", i, rc.rule), func(t *testing.T) {
			file := rc.file
			if file == "" {
				file = rc.edit
			}
			l := check(t, rc.edit, contractcheck.Options{}, rc.ops...)
			if !has(l, rc.rule, file, rc.at) {
				t.Errorf("want %s at %s#%s; got:\n%s", rc.rule, file, rc.at, contracttest.Findings(l))
			}
		})
	}
}

// deployerPolicy is the deployer's policy of a write that the backend
// performs without asking: the user confirms it first.
const deployerPolicy = `{"confirmation": "trusted-confirmation-required", "statement": "The deployer requires the user to confirm every saved draft."}`

// A confirmation no source enforces, declared as the deployer's policy with
// no evidence at all: the passing fixture of CONTRACT_DEPLOYER_POLICY and
// of CONTRACT_CONFIRMATION without a workflow.
func TestDeployerConfirmationPasses(t *testing.T) {
	l := check(t, cc, contractcheck.Options{},
		set("/capabilities/3/operationPolicy/confirmation", `"trusted-confirmation-required"`),
		set("/capabilities/3/deployerPolicy", deployerPolicy),
		set("/capabilities/3/hostRequirements", `["agent-skills-discovery", "mcp-tool-invocation", "authentication-injection", "trusted-confirmation", "unknown-outcome-reconciliation"]`))
	for _, d := range l.Sorted() {
		if d.Rule != contractcheck.RuleNotChecked.ID {
			t.Errorf("%s", d)
		}
	}
}

// A success without a body, declared as the contract says it: the
// passing fixtures of CONTRACT_EMPTY_BODY_SUCCESS. A write that answers
// 204 keeps its outputs for the statuses that carry a body, or declares
// none when no success status does.
func TestEmptyBodySuccessPasses(t *testing.T) {
	for name, edits := range map[string][]contracttest.Op{
		"a body or none": ops(set("/capabilities/3/implementation/steps/0/successStatusCodes", `[200, 204]`),
			set("/capabilities/3/successRule/outputRequired", `false`), set("/capabilities/3/successRule/emptyBodyStatusCodes", `[204]`)),
		"never a body": ops(set("/capabilities/3/implementation/steps/0/successStatusCodes", `[204]`), set("/capabilities/3/outputs", `[]`),
			set("/capabilities/3/successRule/requiredOutputPaths", `[]`), set("/capabilities/3/successRule/outputRequired", `false`),
			set("/capabilities/3/successRule/emptyBodyStatusCodes", `[204]`)),
	} {
		t.Run(name, func(t *testing.T) {
			l := check(t, cc, contractcheck.Options{}, edits...)
			for _, d := range l.Sorted() {
				// The reference's goals read the draft's output; a write
				// without one is judged by its success rule alone.
				if d.Rule != contractcheck.RuleNotChecked.ID && !(name == "never a body" && d.Rule == contractcheck.RuleGoalSource.ID) {
					t.Errorf("%s", d)
				}
			}
		})
	}
}

// viewNeutral is the finding (rule, JSON Pointer) check-contract reports
// for each case of contracttest.ViewNeutral.
var viewNeutral = map[string][2]string{
	"content binding with an extra field":                  {"FORMAT_FIELD_UNKNOWN", "/capabilities/1/attachments/contentBindings/0/fieldName"},
	"content binding without evidence":                     {"CONTRACT_ATTACHMENT_CONTENT_EVIDENCE", "/capabilities/1/attachments/contentBindings/0/evidenceRefs"},
	"content binding off the real upload field":            {"CONTRACT_ATTACHMENT_CONTENT_BINDING", "/capabilities/1/attachments/contentBindings/0"},
	"attachment hiding the host input role":                {"FORMAT_VOCABULARY", "/capabilities/1/attachments/hostInputRole"},
	"attachment skipping its proven guard":                 {"CONTRACT_ATTACHMENT_WORKFLOW", "/capabilities/1/attachments"},
	"attachment taking arbitrary local paths":              {"CONTRACT_ATTACHMENT_FORBIDDEN_INPUTS", "/capabilities/1/attachments/forbiddenInputs"},
	"user-attested upload result":                          {"CONTRACT_ATTACHMENT_CONSUMER_SOURCE", "/capabilities/2/attachments/consumerBindings/0/inputName"},
	"upload result disconnected from its provider":         {"CONTRACT_ATTACHMENT_CONSUMER_PROVIDER", "/capabilities/2/attachments/consumerBindings/0"},
	"unresolved cross-capability reference":                {"CONTRACT_UNKNOWN_REFERENCE", "/capabilities/2/inputs/0/sourceStrategies/0/capabilityId"},
	"cross-field constraint on an unknown input":           {"CONTRACT_CONSTRAINT_CROSS_FIELD", "/capabilities/2/constraints/0/if/path"},
	"cross-field constraint with an unknown operator":      {"FORMAT_VOCABULARY", "/capabilities/2/constraints/0/then/operator"},
	"duplicate graph node":                                 {"CONTRACT_GRAPH", "/capabilityGraph/nodes/5/capabilityId"},
	"dynamic value domain frozen to one sample":            {"CONTRACT_DOMAIN_FROZEN", "/capabilities/2/inputs/0/valueDomain/values"},
	"evidence role its source does not declare":            {"CONTRACT_EVIDENCE_ROLE", "/evidenceCatalog/0/semanticRole"},
	"goal overriding inactive conditional completion":      {"FORMAT_VOCABULARY", "/goals/0/completionPredicate/conditionalNeedsOnlyWhenActive"},
	"goal need with a fake output path":                    {"CONTRACT_GOAL_SOURCE", "/goals/0/informationNeeds/0/satisfiedBy/0/outputPath"},
	"vendor extension field in an implementation":          {"FORMAT_FIELD_UNKNOWN", "/capabilities/3/implementation/x-vendor-retry"},
	"ready write with incomplete evidence":                 {"CONTRACT_READY_EVIDENCE", "/capabilities/3/evidenceCoverage/idempotency/assertionLevel"},
	"locator traversing out of its source":                 {"CONTRACT_LOCATOR_NOT_PORTABLE", "/evidenceCatalog/3/locator"},
	"system-produced information falling back to the user": {"CONTRACT_GOAL_SOURCE", "/goals/0/informationNeeds/0/satisfiedBy/1"},
	"undeclared derived calculation as an input source":    {"FORMAT_VOCABULARY", "/capabilities/4/inputs/1/sourceStrategies/0"},
	"unknown goal completion operator":                     {"FORMAT_VOCABULARY", "/goals/1/completionPredicate/operator"},
	"upload authorisation without content transfer":        {"CONTRACT_ATTACHMENT_CONTENT_BINDING", "/capabilities/1/attachments/contentBindings"},
	"workflow expected value from a public Tool input":     {"FORMAT_VOCABULARY", "/workflows/1/bindings/4/expectedSource/kind"},
	"unresolved workflow source path":                      {"CONTRACT_WORKFLOW_INPUT_SOURCE", "/workflows/1/bindings/4/actualSource/path"},
	"empty workflow expected path":                         {"CONTRACT_WORKFLOW_EXPECTED", "/workflows/1/bindings/4/expectedSource/path"},
	"write downgraded to read keeping its write evidence":  {"CONTRACT_SIDE_EFFECT_MISMATCH", "/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect"},
}

// Each contract the established derive accepts and its validator rejects
// is rejected here, at the place of its problem.
func TestViewNeutralProblemsAreFound(t *testing.T) {
	for _, tc := range contracttest.ViewNeutral {
		t.Run(tc.Name, func(t *testing.T) {
			want, ok := viewNeutral[tc.Name]
			if !ok {
				t.Fatal("no expected finding for this case")
			}
			l := check(t, tc.File, contractcheck.Options{}, tc.Ops...)
			if !has(l, want[0], tc.File, want[1]) {
				t.Errorf("want %s at %s#%s; got:\n%s", want[0], tc.File, want[1], contracttest.Findings(l))
			}
		})
	}
}

// has reports whether l holds a finding of rule at file#at.
func has(l *diag.List, rule, file, at string) bool {
	return slices.ContainsFunc(l.Sorted(), func(d diag.Diagnostic) bool {
		return d.Rule == rule && d.File == file && d.Pointer == at
	})
}
