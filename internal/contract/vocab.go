package contract

import "slices"

// File names of the vNext inputs, relative to the package root.
const (
	ContractFile      = "canonical-contract.json"
	TopologyFile      = "source-topology.json"
	HostProfileFile   = "host-profile.json"
	ExportProfileFile = "export-profile.json"
)

// Values the model's users branch on. The closed vocabularies below list
// every value a field may take.
const (
	SideEffectRead = "read"

	ReadinessReady          = "ready"
	ReadinessRequiresReview = "requires-review"
	ReadinessBlocked        = "blocked"

	ProtectionBackendAuthoritative  = "backend-authoritative"
	ProtectionDeterministicWorkflow = "deterministic-workflow"
	ProtectionUnresolved            = "unresolved"

	ImplementationLocal = "local"
	ImplementationHTTP  = "http"

	SourceInput                  = "input"
	SourcePriorResponse          = "prior_response"
	SourceHostResolvedAttachment = "host_resolved_attachment"

	AttachmentsNone                  = "none"
	AttachmentsHostApprovedReference = "host-approved-reference"
	AttachmentsBusinessUploadResults = "business-upload-results"

	StrategyUser                   = "user"
	StrategyTrustedHostContext     = "trusted-host-context"
	StrategyUpstreamTool           = "upstream-tool"
	StrategyHostApprovedAttachment = "host-approved-attachment"
	StrategyBoundedContent         = "bounded-content"

	DomainStatic        = "static"
	DomainDynamic       = "dynamic"
	DomainUnconstrained = "unconstrained"

	ClassRequired     = "required"
	ClassOptional     = "optional"
	ClassRequiredWhen = "requiredWhen"
	ClassDerived      = "derived"
	ClassDynamic      = "dynamic"
	ClassAttachment   = "attachment"

	TargetRequirednessUnproven = "unproven"

	ConflictUnresolved = "unresolved"

	CompositionDerived = "derived"

	SatisfiedByUser       = "user"
	SatisfiedByTrusted    = "trusted-host-context"
	SatisfiedByCapability = "capability"

	PredicateAllSatisfied      = "all-satisfied"
	PredicateAnySatisfied      = "any-satisfied"
	PredicateWorkflowCompleted = "workflow-completed"

	OnMissingDisable = "disable"

	HostSupported           = "supported"
	HostExternalIntegration = "external-integration"
	HostUnsupported         = "unsupported"

	PhaseBehavior = "behavior"
	PhaseRuntime  = "runtime"
	PhaseHost     = "host"
	PhaseBypass   = "bypass"

	BoundaryClientFeature  = "client-feature"
	BoundaryServiceFeature = "explicitly-scoped-service-feature"
)

// Closed vocabularies, one per field (or family of fields sharing one).
var (
	vocabVNext         = []string{"vNext"}
	vocabNone          = []string{"none"}
	vocabDiscovery     = []string{"observable-semantic-evidence"}
	vocabScopeKind     = []string{"business-feature"}
	vocabPrimaryRole   = []string{BoundaryClientFeature, BoundaryServiceFeature}
	vocabBackendRole   = []string{"supplement-and-verify"}
	vocabInclusionRule = []string{"client-observed-only", "explicitly-scoped-surface"}
	vocabAssertion     = []string{"fact", "inference", "unknown"}
	vocabConflict      = []string{"resolved", ConflictUnresolved}

	vocabAuthentication = []string{"none", "cookie_session", "runtime_context", "cookie_and_runtime_context"}
	vocabReadiness      = []string{ReadinessReady, ReadinessRequiresReview, ReadinessBlocked}
	vocabExposure       = []string{"client-request", "client-local-behavior", "explicitly-scoped-operation"}
	vocabSideEffect     = []string{SideEffectRead, "create", "update", "delete"}

	vocabInputType  = []string{"string", "number", "integer", "boolean", "object", "array"}
	vocabOutputType = []string{"string", "number", "integer", "boolean", "object", "array", "null"}
	vocabClass      = []string{ClassRequired, ClassOptional, ClassRequiredWhen, ClassDerived, ClassDynamic, ClassAttachment}
	vocabStrategy   = []string{StrategyUser, StrategyTrustedHostContext, StrategyUpstreamTool, StrategyHostApprovedAttachment, StrategyBoundedContent}
	vocabDomain     = []string{DomainStatic, DomainDynamic, DomainUnconstrained}
	vocabMapping    = []string{"direct", "select-one", "append-to-array"}
	vocabTargetReq  = []string{"proven-optional", TargetRequirednessUnproven}
	vocabOperator   = []string{"equals", "not-equals", "in", "not-in", "present", "absent", "non-empty", "empty", "gt", "gte", "lt", "lte", "and", "or", "not"}

	vocabConstraintKind = []string{"forbidden-shape", "cross-field", "grant-binding"}
	vocabEnforcement    = []string{"runtime", "function-and-runtime", "runtime-before-dispatch", "schema", "function"}

	vocabAttachments      = []string{AttachmentsNone, AttachmentsHostApprovedReference, AttachmentsBusinessUploadResults}
	vocabHostInputRole    = []string{"approved-reference-or-bounded-content"}
	vocabUploadOwner      = []string{"business-tool"}
	vocabAcceptedInput    = []string{"opaque-host-grant", "bounded-content"}
	vocabResultKind       = []string{"source-defined"}
	vocabValueKind        = []string{"opaque-token", "url", "file-id", "object-key", "object"}
	vocabReuse            = []string{"single-use", "reusable", "unknown"}
	vocabAttachmentResolv = []string{"attachment-resolution"}

	vocabImplementation = []string{ImplementationLocal, ImplementationHTTP}
	vocabMethod         = []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}
	vocabLocation       = []string{"path", "query", "body", "header", "multipart"}
	vocabContentLoc     = []string{"body", "multipart"}
	vocabSource         = []string{SourceInput, SourcePriorResponse, SourceHostResolvedAttachment}
	vocabSuccessRule    = []string{"output", "http_status_and_output"}
	vocabErrorFormat    = []string{"structured"}
	// vocabStatusCategory are the categories a rejected status may mean.
	vocabStatusCategory = []string{CategoryInput, CategoryAuthorization, CategoryBusiness, CategoryUpstream}

	vocabAutomaticRetry = []string{"read-only-bounded", "never"}
	vocabConfirmation   = []string{"not-required", "trusted-confirmation-required", "upload-confirmation-required"}
	// vocabDeployerConfirmation is the confirmation a deployer may
	// require: the user's, asked by the Host before dispatch.
	vocabDeployerConfirmation = []string{"trusted-confirmation-required"}
	vocabUnknownOutcome       = []string{"not-applicable", "stop-and-reconcile", "reconcile-before-any-retry"}
	vocabProtection           = []string{ProtectionBackendAuthoritative, ProtectionDeterministicWorkflow, ProtectionUnresolved}

	vocabCapabilityPhase = []string{PhaseBehavior, PhaseRuntime, PhaseHost}
	vocabWorkflowPhase   = []string{PhaseBypass, PhaseRuntime, PhaseHost}

	vocabEdgeKind    = []string{"handoff", "conditional-handoff", "hard-precondition", "optional-planning"}
	vocabComposition = []string{"observed", CompositionDerived}

	vocabNeedClass   = []string{ClassRequired, ClassOptional, ClassRequiredWhen, ClassDerived, ClassDynamic}
	vocabSatisfiedBy = []string{SatisfiedByUser, SatisfiedByTrusted, SatisfiedByCapability}
	vocabPredicate   = []string{PredicateAllSatisfied, PredicateAnySatisfied, PredicateWorkflowCompleted}
	vocabOnMissing   = []string{OnMissingDisable, "requires-host-integration"}

	vocabWorkflowKind   = []string{"deterministic-write-guard"}
	vocabGuardAsset     = []string{"portable-workflow-guard.mjs#dispatchWithPolicy"}
	vocabWorkflowPolicy = []string{"stop-and-reconcile-before-any-new-attempt", "reconcile-before-any-retry"}
	vocabComparator     = []string{"json-equals"}
	vocabActualSource   = []string{"capability-input", "runtime-context", "derived-calculation", "constant"}
	vocabExpectedSource = []string{"protected-runtime-state", "constant"}
	vocabClaim          = []string{"subject", "session", "confirmation", "expiry"}
	vocabAlgorithm      = []string{"canonical-json-sha256", "ordered-id-list"}

	vocabDiscoveryPolicy = []string{"explicit-roots-only"}
	vocabAvailability    = []string{"available", "partially-available", "unavailable", "not-provided", "not-found"}
	vocabHostStatus      = []string{HostSupported, HostExternalIntegration, HostUnsupported}

	vocabV1              = []string{"v1"}
	vocabProfile         = []string{"strict-export-v1"}
	vocabProtocolVersion = []string{"2025-11-25"}
	vocabTransport       = []string{"stdio"}
	vocabDocLanguage     = []string{LanguageChinese, LanguageEnglish}
	vocabSurfaceKind     = []string{"route", "backend-api", "rpc", "message", "worker", "other"}
)

// CredentialKinds names the credentials a request of the given
// authentication needs: none for "none" (or ""), both cookie_session and
// runtime_context for cookie_and_runtime_context, else the kind itself.
func CredentialKinds(authentication string) []string {
	switch authentication {
	case "", "none":
		return nil
	case "cookie_and_runtime_context":
		return []string{"cookie_session", "runtime_context"}
	}
	return []string{authentication}
}

// IsWrite reports whether a capability side effect changes state.
func IsWrite(sideEffect string) bool { return sideEffect != SideEffectRead }

// KnownSideEffect reports whether s is a side effect of the vocabulary: read,
// create, update or delete.
func KnownSideEffect(s string) bool { return slices.Contains(vocabSideEffect, s) }

// Generic requirement IDs: the Host facilities every profile names the same
// way. Each maps to a fixed host capability key and onMissing.
const (
	RequirementSkillsDiscovery       = "agent-skills-discovery"
	RequirementToolInvocation        = "mcp-tool-invocation"
	RequirementAuthentication        = "authentication-injection"
	RequirementTrustedConfirmation   = "trusted-confirmation"
	RequirementSessionState          = "session-state"
	RequirementAttachmentResolution  = "attachment-resolution"
	RequirementUnknownReconciliation = "unknown-outcome-reconciliation"
)

// GenericRequirement is the fixed meaning of a generic requirement ID.
type GenericRequirement struct {
	ID             string
	HostCapability string
	OnMissing      string
}

// GenericRequirements lists the generic requirement IDs with their fixed
// host capability and onMissing.
var GenericRequirements = []GenericRequirement{
	{RequirementSkillsDiscovery, "agentSkillsDiscovery", "requires-host-integration"},
	{RequirementToolInvocation, "mcpToolInvocation", OnMissingDisable},
	{RequirementAuthentication, "authenticationInjection", OnMissingDisable},
	{RequirementTrustedConfirmation, "trustedConfirmation", OnMissingDisable},
	{RequirementSessionState, "sessionState", OnMissingDisable},
	{RequirementAttachmentResolution, "attachmentResolution", "requires-host-integration"},
	{RequirementUnknownReconciliation, "unknownOutcomeReconciliation", OnMissingDisable},
}
