package contracttest

import "github.com/code2skill/code2skill/internal/contract"

// Case is a minimal edit of a reference input and the finding check-contract
// reports for it.
type Case struct {
	Name string
	File string
	Ops  []Op
	Rule string // the rule check-contract reports
	At   string // JSON Pointer of the finding
}

// ViewNeutral lists contracts the established derive accepts (it writes
// views for them) and its validator rejects: their problems do not keep
// views from being derived, so derive accepts them and check-contract
// reports them.
var ViewNeutral = []Case{
	{"content binding with an extra field", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/contentBindings/0/fieldName", `"file"`)},
		"FORMAT_FIELD_UNKNOWN", "/capabilities/1/attachments/contentBindings/0/fieldName"},
	{"content binding without evidence", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/contentBindings/0/evidenceRefs", `[]`)},
		"CONTRACT_ATTACHMENT_CONTENT_EVIDENCE", "/capabilities/1/attachments/contentBindings/0/evidenceRefs"},
	{"content binding off the real upload field", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/contentBindings/0/path", `["attachment"]`)},
		"CONTRACT_ATTACHMENT_CONTENT_BINDING", "/capabilities/1/attachments/contentBindings/0"},
	{"attachment hiding the host input role", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/hostInputRole", `"business-upload"`)},
		"FORMAT_VOCABULARY", "/capabilities/1/attachments/hostInputRole"},
	{"attachment skipping its proven guard", contract.ContractFile,
		[]Op{Remove("/capabilities/1/attachments/enforcedByWorkflow")},
		"CONTRACT_ATTACHMENT_WORKFLOW", "/capabilities/1/attachments"},
	{"attachment taking arbitrary local paths", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/forbiddenInputs", `["unverified-url"]`)},
		"CONTRACT_ATTACHMENT_FORBIDDEN_INPUTS", "/capabilities/1/attachments/forbiddenInputs"},
	{"user-attested upload result", contract.ContractFile,
		[]Op{Set("/capabilities/2/inputs/2/sourceStrategies", `["user"]`)},
		"CONTRACT_ATTACHMENT_CONSUMER_SOURCE", "/capabilities/2/attachments/consumerBindings/0/inputName"},
	{"upload result disconnected from its provider", contract.ContractFile,
		[]Op{Remove("/handoffs/1")},
		"CONTRACT_ATTACHMENT_CONSUMER_PROVIDER", "/capabilities/2/attachments/consumerBindings/0"},
	{"unresolved cross-capability reference", contract.ContractFile,
		[]Op{Set("/capabilities/2/inputs/0/sourceStrategies/0/capabilityId", `"list-other-kinds"`)},
		"CONTRACT_UNKNOWN_REFERENCE", "/capabilities/2/inputs/0/sourceStrategies/0/capabilityId"},
	{"cross-field constraint on an unknown input", contract.ContractFile,
		[]Op{Set("/capabilities/2/constraints/0/if/path", `["selection", "requiresAttachment"]`)},
		"CONTRACT_CONSTRAINT_CROSS_FIELD", "/capabilities/2/constraints/0/if/path"},
	{"cross-field constraint with an unknown operator", contract.ContractFile,
		[]Op{Set("/capabilities/2/constraints/0/then/operator", `"non-blank"`)},
		"FORMAT_VOCABULARY", "/capabilities/2/constraints/0/then/operator"},
	{"duplicate graph node", contract.ContractFile,
		[]Op{Append("/capabilityGraph/nodes", `{"capabilityId": "save-sample-draft", "independentValue": "Save again."}`)},
		"CONTRACT_GRAPH", "/capabilityGraph/nodes/5/capabilityId"},
	{"dynamic value domain frozen to one sample", contract.ContractFile,
		[]Op{Set("/capabilities/2/inputs/0/valueDomain/values", `[{"grantId": "g-1", "requiresAttachment": false, "allowsAttachment": false}]`)},
		"CONTRACT_DOMAIN_FROZEN", "/capabilities/2/inputs/0/valueDomain/values"},
	{"evidence role its source does not declare", contract.ContractFile,
		[]Op{Set("/evidenceCatalog/0/semanticRole", `"authorization"`)},
		"CONTRACT_EVIDENCE_ROLE", "/evidenceCatalog/0/semanticRole"},
	{"goal overriding inactive conditional completion", contract.ContractFile,
		[]Op{Set("/goals/0/completionPredicate/conditionalNeedsOnlyWhenActive", `false`)},
		"FORMAT_VOCABULARY", "/goals/0/completionPredicate/conditionalNeedsOnlyWhenActive"},
	{"goal need with a fake output path", contract.ContractFile,
		[]Op{Set("/goals/0/informationNeeds/0/satisfiedBy/0/outputPath", `["options", "selectionGrant"]`)},
		"CONTRACT_GOAL_SOURCE", "/goals/0/informationNeeds/0/satisfiedBy/0/outputPath"},
	{"vendor extension field in an implementation", contract.ContractFile,
		[]Op{Set("/capabilities/3/implementation/x-vendor-retry", `3`)},
		"FORMAT_FIELD_UNKNOWN", "/capabilities/3/implementation/x-vendor-retry"},
	{"ready write with incomplete evidence", contract.ContractFile,
		[]Op{Set("/capabilities/3/evidenceCoverage/idempotency/assertionLevel", `"inference"`)},
		"CONTRACT_READY_EVIDENCE", "/capabilities/3/evidenceCoverage/idempotency/assertionLevel"},
	{"locator traversing out of its source", contract.ContractFile,
		[]Op{Set("/evidenceCatalog/3/locator", `"../service/api#uploadAttachmentMultipartFile"`)},
		"CONTRACT_LOCATOR_NOT_PORTABLE", "/evidenceCatalog/3/locator"},
	{"system-produced information falling back to the user", contract.ContractFile,
		[]Op{Append("/goals/0/informationNeeds/0/satisfiedBy", `{"kind": "user"}`)},
		"CONTRACT_GOAL_SOURCE", "/goals/0/informationNeeds/0/satisfiedBy/1"},
	{"undeclared derived calculation as an input source", contract.ContractFile,
		[]Op{Set("/capabilities/4/inputs/1/sourceStrategies/0", `"derived-calculation"`)},
		"FORMAT_VOCABULARY", "/capabilities/4/inputs/1/sourceStrategies/0"},
	{"unknown goal completion operator", contract.ContractFile,
		[]Op{Set("/goals/1/completionPredicate/operator", `"most-satisfied"`)},
		"FORMAT_VOCABULARY", "/goals/1/completionPredicate/operator"},
	{"upload authorisation without content transfer", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/contentBindings", `[]`)},
		"CONTRACT_ATTACHMENT_CONTENT_BINDING", "/capabilities/1/attachments/contentBindings"},
	{"workflow expected value from a public Tool input", contract.ContractFile,
		[]Op{Set("/workflows/1/bindings/4/expectedSource", `{"kind": "capability-input", "inputName": "validationGrant", "path": ["grantId"]}`)},
		"FORMAT_VOCABULARY", "/workflows/1/bindings/4/expectedSource/kind"},
	{"unresolved workflow source path", contract.ContractFile,
		[]Op{Set("/workflows/1/bindings/4/actualSource/path", `["id"]`)},
		"CONTRACT_WORKFLOW_INPUT_SOURCE", "/workflows/1/bindings/4/actualSource/path"},
	{"empty workflow expected path", contract.ContractFile,
		[]Op{Set("/workflows/1/bindings/4/expectedSource/path", `[]`)},
		"CONTRACT_WORKFLOW_EXPECTED", "/workflows/1/bindings/4/expectedSource/path"},
	{"write downgraded to read keeping its write evidence", contract.ContractFile,
		[]Op{Set("/capabilities/3/sideEffect", `"read"`), Set("/capabilities/3/operationPolicy/sideEffect", `"read"`)},
		"CONTRACT_SIDE_EFFECT_MISMATCH", "/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect"},
}
