package contractcheck

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family is one family of Portable Core rules: the rules that protect one
// part of the contract, wherever they are checked (decoding, derive's
// structure, or this package).
type Family struct {
	Letter   string // A to X, as the behavioural inventory numbers them; "" for the groups it does not
	Name     string
	Protects string // what the family keeps true, in one line
	Rules    []*diag.Rule
}

// Families returns every family of Portable Core rules, in order. Each
// rule check-contract can report is in exactly one family.
func Families() []Family {
	return []Family{
		{"", "Reading and format", "every input is a readable, regular, bounded JSON file of its format: types, required fields, closed records and vocabularies",
			[]*diag.Rule{RuleInputMissing, contract.RuleType, contract.RuleFieldMissing, contract.RuleFieldUnknown, contract.RuleFieldUnrecognized, contract.RuleEmpty, contract.RuleVocabulary}},
		{"", "Identities and references", "every identifier has its form and is declared once; every reference names something declared",
			[]*diag.Rule{RuleIDFormat, RuleDuplicateID, RuleUnknownReference}},
		{"A", "Topology", "the producer searched explicitly authorised, portable roots only, and they exist here as distinct directories",
			[]*diag.Rule{RuleTopologyMachineWide, RuleTopologyDuplicate, RuleTopologyRoot, RuleTopologyMissingPresent,
				RuleNotSearched, RuleSourceMap, RuleSourceUnmaped, RuleRootMissing, RuleRootShared}},
		{"B", "Portable core and feature boundary", "the contract is bound to no runtime, and its boundary names which sources define the feature",
			[]*diag.Rule{RuleTopologyRef, RuleFeatureBoundary}},
		{"C", "Evidence", "every fact cites catalogued, fact-level evidence of a fitting role, from a searched source, at a symbol a file inside that source declares, and evidence of an enforcement says what it enforces",
			[]*diag.Rule{RuleEvidenceUnknown, RuleEvidenceMissing, RuleEvidenceNotFact, RuleEvidenceRole, RuleEvidenceWrongRole, RuleEvidenceUnstated, RuleLocator,
				RuleEvidenceNoSource, RuleNotChecked, RuleFileMissing, RuleEscapesRoot, RuleSymbolVanished, RuleSymbolMoved, RuleSymbolNotLocated, RuleLineBeyondFile}},
		{"D", "Exposure", "a capability exists because the feature's primary sources expose it",
			[]*diag.Rule{RuleExposureSource, RuleExposureKind, RuleExposureEvidence, RuleExposureSupplemental}},
		{"E", "Readiness", "ready means nothing is missing: no gap, no unresolved conflict or unsearched critical source behind a write",
			[]*diag.Rule{RuleReadiness, RuleReadyConflict, RuleReadyMissingSource, RuleCapabilityCount}},
		{"F", "Inputs", "every input has its schema, its evidence, and is never a local path",
			[]*diag.Rule{RuleInputSchema, RuleInputLocalPath}},
		{"G", "Source strategies and handoffs", "every input's sources fit its class, and every upstream source is a real, typed handoff",
			[]*diag.Rule{RuleTrustedStrategy, RuleUpstreamStrategy, RuleStrategyClass, RuleStrategyHandoff, RuleHandoff, RuleHandoffMapping}},
		{"H", "Value domains and freshness", "dynamic values are obtained, scoped and refreshed like their provider's, never frozen; static values fit their schema",
			[]*diag.Rule{RuleDomainDynamicRequired, RuleDomainSource, RuleDomainScope, RuleDomainFrozen, RuleDomainStatic, RuleFreshness}},
		{"I", "Target requiredness", "an optional input an upstream Tool normally fills says whether the target API accepts its omission, and nothing makes it a precondition",
			[]*diag.Rule{RuleTargetRequiredness, RuleTargetRequirednessEvidence, RuleTargetRequirednessProvider, RuleTargetRequirednessOptional}},
		{"J", "Conditions", "requiredWhen and forbiddenWhen conditions address real inputs, compare with possible values, and do not contradict or depend on themselves",
			[]*diag.Rule{RuleConditionPlacement, RuleConditionPath, RuleConditionOperator, RuleConditionValue, RuleConditionSelf, RuleConditionContradiction, RuleConditionCycle}},
		{"K", "Outputs and success", "every output has its schema, evidence and value domain, nested outputs agree with their parent, success names real outputs, and a success without a body says at which statuses",
			[]*diag.Rule{RuleOutputSchema, RuleOutputDomain, RuleOutputChildSchema, RuleSuccessRule, RuleSuccessNullable, RuleEmptyBody}},
		{"L", "Host requirements", "each capability needs exactly the Host facilities its contract implies, and the Host profile classifies each",
			[]*diag.Rule{RuleRequirementMap, RuleHostRequirementMissing, RuleHostRequirementExtra, RuleHostCapabilityMissing}},
		{"M", "Policy and annotations", "side effect, retry, confirmation and the four Tool hints agree with each other, and a confirmation is enforced by the sources or required by the deployer",
			[]*diag.Rule{RuleSideEffect, RulePolicyRead, RulePolicyWrite, RuleAnnotationReadOnly, RuleAnnotationDestroys, RuleAnnotationIdempot, RuleAnnotationOpenWorld, RuleConfirmation, RuleDeployerPolicy}},
		{"N", "Evidence coverage", "a ready capability's side effect (and a write's contract, authorization, validation, idempotency and unknown outcome) is proven by bound, authoritative facts",
			[]*diag.Rule{RuleReadyEvidence}},
		{"O", "Error contract", "a failure keeps its recovery context and is never retryable by default without saying when",
			[]*diag.Rule{RuleErrorRecovery, RuleErrorRetryable}},
		{"P", "Runtime protection", "every write says who protects it; a deterministic workflow is proven, part by part, by the right evidence",
			[]*diag.Rule{RuleRuntimeProtection, RuleProtectionMode, RuleHardEvidence, RuleWorkflowMapping, RuleHardEvidenceRole, RuleHardEvidenceFrom}},
		{"Q", "HTTP steps and bindings", "requests are exact: absolute URLs, real status codes, evidenced non-overlapping bindings, and every input reaches the request",
			[]*diag.Rule{RuleHTTPStep, RuleBindingOverlap, RuleInputUnconsumed, RuleResolvedBinding}},
		{"R", "Attachments", "an attachment is a complete chain: an approved Host grant resolved once into the real upload field, its result bound into later requests, never a local path or a user-attested result",
			[]*diag.Rule{RuleAttachmentForbidden, RuleAttachmentUpload, RuleAttachmentAccepted, RuleAttachmentGrant, RuleAttachmentRawGrant, RuleAttachmentResolve,
				RuleAttachmentContent, RuleAttachmentEvidence, RuleAttachmentMetadata, RuleAttachmentResult, RuleAttachmentWorkflow,
				RuleConsumerSource, RuleConsumerProvider, RuleConsumerBound}},
		{"S", "Constraints", "constraints read declared inputs and grants, compare by equality, and bind the fields a grant must",
			[]*diag.Rule{RuleForbiddenShape, RuleCrossField, RuleGrantBinding}},
		{"T", "Conflicts", "a conflict cites both sides, and a resolved one says how",
			[]*diag.Rule{RuleConflict}},
		{"U", "Capability graph", "one node per capability; observed edges are the handoffs; derived compositions keep write guards",
			[]*diag.Rule{RuleGraph, RuleGraphEdge, RuleGraphObserved, RuleGraphGuard}},
		{"V", "Goals", "a goal's needs come from where their inputs may come from, feed every input it uses once, and imply exactly its capability lists",
			[]*diag.Rule{RuleGoalConditional, RuleGoalPredicate, RuleGoalNeedSchema, RuleGoalNeedCondition, RuleGoalSource, RuleGoalSourceAlignment,
				RuleGoalSupply, RuleGoalSupplyCoverage, RuleGoalReuse, RuleGoalConditionalIn, RuleGoalCycle, RuleGoalCapabilityLists,
				RuleGoalCapabilitySets, RuleGoalCoversGraph}},
		{"W", "Workflows", "a workflow guards only its deterministic writes, reads declared inputs and trusted claims, and compares with protected state",
			[]*diag.Rule{RuleWorkflowEntry, RuleWorkflowTarget, RuleWorkflowInputSource, RuleWorkflowRuntimeClaim, RuleWorkflowExpected, RuleWorkflowZeroDispatch}},
		{"X", "Portable schema subset", "schemas use only the keywords every runtime reads alike, closed objects, sane bounds and patterns that run",
			[]*diag.Rule{RuleSchemaType, RuleSchemaKeyword, RuleSchemaEnum, RuleSchemaFormat, RuleSchemaBounds, RuleSchemaObject, RuleSchemaArray, RuleSchemaPattern}},
		{"", "Export profile", "the runtime profile names its surface and dry-run variable properly, allows exactly the origins the contract calls, and gives its host runtime a base URL, credential and subject variable for exactly what the contract needs",
			[]*diag.Rule{RuleFeatureSurface, RuleDryRunVariable, RuleOrigins,
				RuleHostRuntimeOrigins, RuleHostRuntimeCredentials, RuleHostRuntimeVariable, RuleHostRuntimeSubject}},
	}
}

// FamilyTable renders Families as the Markdown table docs/check-contract.md carries:
// family, number of rules, what they protect.
func FamilyTable() string {
	var b strings.Builder
	b.WriteString("| family | rules | what they protect |\n|---|---|---|\n")
	for _, f := range Families() {
		name := f.Name
		if f.Letter != "" {
			name = f.Letter + ". " + name
		}
		fmt.Fprintf(&b, "| %s | %d | %s |\n", name, len(f.Rules), f.Protects)
	}
	return b.String()
}
