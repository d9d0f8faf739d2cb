package contracttest

import "github.com/code2skill/code2skill/internal/contract"

// Case is a named minimal edit of a reference input.
type Case struct {
	Name string
	File string
	Ops  []Op
}

// ViewNeutral lists contracts the established derive accepts (it writes
// views for them) and its validator rejects: their problems do not keep
// views from being derived, so derive accepts them and check-contract
// reports them.
var ViewNeutral = []Case{
	{"content binding with an extra field", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/contentBindings/0/fieldName", `"file"`)}},
	{"content binding without evidence", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/contentBindings/0/evidenceRefs", `[]`)}},
	{"content binding off the real upload field", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/contentBindings/0/path", `["attachment"]`)}},
	{"attachment hiding the host input role", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/hostInputRole", `"business-upload"`)}},
	{"attachment skipping its proven guard", contract.ContractFile,
		[]Op{Remove("/capabilities/1/attachments/enforcedByWorkflow")}},
	{"attachment taking arbitrary local paths", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/forbiddenInputs", `["unverified-url"]`)}},
	{"user-attested upload result", contract.ContractFile,
		[]Op{Set("/capabilities/2/inputs/2/sourceStrategies", `["user"]`)}},
	{"upload result disconnected from its provider", contract.ContractFile,
		[]Op{Remove("/handoffs/1")}},
	{"unresolved cross-capability reference", contract.ContractFile,
		[]Op{Set("/capabilities/2/inputs/0/sourceStrategies/0/capabilityId", `"list-other-kinds"`)}},
	{"cross-field constraint on an unknown input", contract.ContractFile,
		[]Op{Set("/capabilities/2/constraints/0/if/path", `["selection", "requiresAttachment"]`)}},
	{"cross-field constraint with an unknown operator", contract.ContractFile,
		[]Op{Set("/capabilities/2/constraints/0/then/operator", `"non-blank"`)}},
	{"duplicate graph node", contract.ContractFile,
		[]Op{Append("/capabilityGraph/nodes", `{"capabilityId": "save-sample-draft", "independentValue": "Save again."}`)}},
	{"dynamic value domain frozen to one sample", contract.ContractFile,
		[]Op{Set("/capabilities/2/inputs/0/valueDomain/values", `[{"grantId": "g-1", "requiresAttachment": false, "allowsAttachment": false}]`)}},
	{"evidence role its source does not declare", contract.ContractFile,
		[]Op{Set("/evidenceCatalog/0/semanticRole", `"authorization"`)}},
	{"goal overriding inactive conditional completion", contract.ContractFile,
		[]Op{Set("/goals/0/completionPredicate/conditionalNeedsOnlyWhenActive", `false`)}},
	{"goal need with a fake output path", contract.ContractFile,
		[]Op{Set("/goals/0/informationNeeds/0/satisfiedBy/0/outputPath", `["options", "selectionGrant"]`)}},
	{"vendor extension field in an implementation", contract.ContractFile,
		[]Op{Set("/capabilities/3/implementation/x-vendor-retry", `3`)}},
	{"ready write with incomplete evidence", contract.ContractFile,
		[]Op{Set("/capabilities/3/evidenceCoverage/idempotency/assertionLevel", `"inference"`)}},
	{"locator traversing out of its source", contract.ContractFile,
		[]Op{Set("/evidenceCatalog/3/locator", `"../service/api#uploadAttachmentMultipartFile"`)}},
	{"system-produced information falling back to the user", contract.ContractFile,
		[]Op{Append("/goals/0/informationNeeds/0/satisfiedBy", `{"kind": "user"}`)}},
	{"undeclared derived calculation as an input source", contract.ContractFile,
		[]Op{Set("/capabilities/4/inputs/1/sourceStrategies/0", `"derived-calculation"`)}},
	{"unknown goal completion operator", contract.ContractFile,
		[]Op{Set("/goals/1/completionPredicate/operator", `"most-satisfied"`)}},
	{"upload authorisation without content transfer", contract.ContractFile,
		[]Op{Set("/capabilities/1/attachments/contentBindings", `[]`)}},
	{"workflow expected value from a public Tool input", contract.ContractFile,
		[]Op{Set("/workflows/1/bindings/4/expectedSource", `{"kind": "capability-input", "inputName": "validationGrant", "path": ["grantId"]}`)}},
	{"unresolved workflow source path", contract.ContractFile,
		[]Op{Set("/workflows/1/bindings/4/actualSource/path", `["id"]`)}},
	{"empty workflow expected path", contract.ContractFile,
		[]Op{Set("/workflows/1/bindings/4/expectedSource/path", `[]`)}},
	{"write downgraded to read keeping its write evidence", contract.ContractFile,
		[]Op{Set("/capabilities/3/sideEffect", `"read"`), Set("/capabilities/3/operationPolicy/sideEffect", `"read"`)}},
}
