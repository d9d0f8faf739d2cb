package contract

import (
	"github.com/code2skill/code2skill/internal/canonjson"
)

// Capability is one independently useful operation: a Function, an MCP Tool
// and the facts that prove its contract.
type Capability struct {
	Raw *canonjson.Object
	At  string

	ID                 string
	ToolName           string
	FunctionExport     string
	Description        string
	Authentication     string
	Readiness          string
	MissingEvidence    []string
	Exposure           Exposure
	Inputs             []Input
	Outputs            []Output
	Constraints        []Constraint
	Attachments        *Attachments // nil when absent
	Implementation     Implementation
	SuccessRule        SuccessRule
	ErrorContract      ErrorContract
	OperationPolicy    OperationPolicy
	DeployerPolicy     *DeployerPolicy // nil when absent
	Annotations        Annotations
	SideEffect         string
	RuntimeProtection  *RuntimeProtection // nil when absent
	WorkflowID         string             // "" when absent
	HostRequirements   []string
	EvidenceCoverage   []Coverage // in document order
	VerificationChecks []Check
	EvidenceRefs       []string
	Reasons            []string
	BlockingReasons    []string
}

// IsWrite reports whether the capability changes state.
func (c *Capability) IsWrite() bool { return IsWrite(c.SideEffect) }

// NeedsConfirmation reports whether the capability's policy requires the
// user's confirmation before it runs.
func (c *Capability) NeedsConfirmation() bool {
	return c.OperationPolicy.Confirmation != "" && c.OperationPolicy.Confirmation != "not-required"
}

// ConfirmationUnguarded reports whether the capability is a write that
// needs the user's confirmation and no deterministic workflow checks it
// (the deployer requires it, no source enforces it): its Function checks
// the trusted runtime context's confirmation itself.
func (c *Capability) ConfirmationUnguarded() bool {
	p := c.RuntimeProtection
	return c.IsWrite() && c.NeedsConfirmation() && (p == nil || p.Mode != ProtectionDeterministicWorkflow)
}

// AttachmentMode returns attachments.mode, or "none" when the capability
// declares no attachments.
func (c *Capability) AttachmentMode() string {
	if c.Attachments == nil || c.Attachments.Mode == "" {
		return AttachmentsNone
	}
	return c.Attachments.Mode
}

// Input returns the input with the given name.
func (c *Capability) Input(name string) (*Input, bool) {
	return find(c.Inputs, func(x *Input) bool { return x.Name == name })
}

// Exposure says how the feature's primary sources expose the capability.
type Exposure struct {
	At string

	Kind                     string
	EvidenceRefs             []string
	SupplementalEvidenceRefs []string
}

// OperationPolicy is the capability's side-effect, retry, confirmation and
// unknown-outcome policy.
type OperationPolicy struct {
	Raw *canonjson.Object
	At  string

	SideEffect     string
	Idempotency    string
	AutomaticRetry string
	Confirmation   string
	UnknownOutcome string
}

// DeployerPolicy is what the deployer requires of a capability beyond
// what its sources enforce, such as the user's confirmation of a write the
// backend performs without asking. It is the deployer's decision, recorded
// as such: a statement, never source evidence.
type DeployerPolicy struct {
	Raw *canonjson.Object
	At  string

	Confirmation string // the confirmation the deployer requires
	Statement    string // the deployer's policy, in words
}

// Annotations are the four MCP Tool hints.
type Annotations struct {
	Raw *canonjson.Object
	At  string

	ReadOnlyHint    bool
	DestructiveHint bool
	IdempotentHint  bool
	OpenWorldHint   bool
}

// RuntimeProtection says who enforces a write's non-bypassable rules.
type RuntimeProtection struct {
	Raw *canonjson.Object
	At  string

	Mode         string
	EvidenceRefs []string
	Owner        string
	WorkflowID   string
	// HardWorkflowEvidence is nil when absent.
	HardWorkflowEvidence *HardWorkflowEvidence
}

// HardWorkflowEvidence proves the three parts of a deterministic workflow.
type HardWorkflowEvidence struct {
	At string

	ProtectedValueIssuance []string
	ProtectedValueBinding  []string
	PreDispatchEnforcement []string
}

// Coverage is one evidence-coverage category of a capability.
type Coverage struct {
	At string

	Category           string // sideEffect, backendContract, authorization, validation, idempotency, unknownOutcome
	AssertionLevel     string
	DeclaredSideEffect string // sideEffect category only
	EvidenceRefs       []string
}

// Coverage categories: a read covers only its side effect; a write covers
// all six.
var (
	readCoverage  = []string{"sideEffect"}
	writeCoverage = []string{"sideEffect", "backendContract", "authorization", "validation", "idempotency", "unknownOutcome"}
)

// Check is a declared verification check: a bare check ID (Raw is a String,
// Phase the default) or an object naming its phase.
type Check struct {
	Raw canonjson.Value // as written, for views that copy it
	At  string

	ID    string
	Phase string
}

func decodeCapability(r *record) Capability {
	c := decodeCapabilityBody(r)
	c.WorkflowID = r.str("workflowId", opt)
	c.Reasons = r.strs("reasons", opt)
	c.BlockingReasons = r.strs("blockingReasons", opt)
	r.open()
	return c
}

// decodeCapabilityBody reads the members a capability shares with its
// record in the capability bundle: all but workflowId, reasons and
// blockingReasons. It leaves the record for the caller to end.
func decodeCapabilityBody(r *record) Capability {
	c := Capability{Raw: r.obj, At: r.at}
	c.ID = r.str("capabilityId", req)
	c.ToolName = r.str("toolName", req)
	c.FunctionExport = r.str("functionExport", req)
	c.Description = r.str("description", req)
	c.Authentication = r.laterEnum("authentication", req, vocabAuthentication)
	c.Readiness = r.enum("readiness", req, vocabReadiness)
	c.MissingEvidence = r.strs("missingEvidence", opt)
	c.Exposure = decodeExposure(r.object("exposure", req))
	c.Inputs = records(r, "inputs", req, decodeInput)
	c.Outputs = records(r, "outputs", req, decodeOutput)
	c.Constraints = records(r, "constraints", opt, decodeConstraint)
	if r.has("attachments") {
		a := decodeAttachments(r.object("attachments", opt))
		c.Attachments = &a
	} else {
		r.known = append(r.known, "attachments")
	}
	c.Implementation = decodeImplementation(r.object("implementation", req))
	c.SuccessRule = decodeSuccessRule(r.object("successRule", req))
	c.ErrorContract = decodeErrorContract(r.object("errorContract", req))
	c.OperationPolicy = decodeOperationPolicy(r.object("operationPolicy", req))
	if r.has("deployerPolicy") {
		p := decodeDeployerPolicy(r.object("deployerPolicy", opt))
		c.DeployerPolicy = &p
	} else {
		r.known = append(r.known, "deployerPolicy")
	}
	c.Annotations = decodeAnnotations(r.object("annotations", req))
	c.SideEffect = r.enum("sideEffect", req, vocabSideEffect)
	if r.has("runtimeProtection") {
		p := decodeRuntimeProtection(r.object("runtimeProtection", opt))
		c.RuntimeProtection = &p
	} else {
		r.known = append(r.known, "runtimeProtection")
	}
	c.HostRequirements = r.strs("hostRequirements", req)
	c.EvidenceCoverage = decodeCoverage(r.object("evidenceCoverage", req), c.SideEffect)
	c.VerificationChecks = decodeChecks(r, "verificationChecks", opt, vocabCapabilityPhase, PhaseBehavior)
	c.EvidenceRefs = r.strs("evidenceRefs", some)
	return c
}

func decodeExposure(r *record) Exposure {
	e := Exposure{
		At:                       r.at,
		Kind:                     r.laterEnum("kind", req, vocabExposure),
		EvidenceRefs:             r.strs("evidenceRefs", req),
		SupplementalEvidenceRefs: r.strs("supplementalEvidenceRefs", opt),
	}
	r.open()
	return e
}

func decodeOperationPolicy(r *record) OperationPolicy {
	p := OperationPolicy{
		Raw:            r.obj,
		At:             r.at,
		SideEffect:     r.enum("sideEffect", req, vocabSideEffect),
		Idempotency:    r.str("idempotency", req),
		AutomaticRetry: r.laterEnum("automaticRetry", req, vocabAutomaticRetry),
		Confirmation:   r.laterEnum("confirmation", req, vocabConfirmation),
		UnknownOutcome: r.laterEnum("unknownOutcome", req, vocabUnknownOutcome),
	}
	r.open()
	return p
}

// decodeDeployerPolicy reads deployerPolicy, a closed record: the
// confirmation the deployer requires and its statement. It cites no
// evidence, since no source proves a deployer's decision.
func decodeDeployerPolicy(r *record) DeployerPolicy {
	p := DeployerPolicy{Raw: r.obj, At: r.at}
	p.Confirmation = r.laterEnum("confirmation", req, vocabDeployerConfirmation)
	p.Statement = r.str("statement", req)
	r.forbid("evidenceRefs", "a deployer's policy is the deployer's decision, not a fact of the sources, so it cites no evidence")
	r.closed()
	return p
}

func decodeAnnotations(r *record) Annotations {
	a := Annotations{Raw: r.obj, At: r.at}
	a.ReadOnlyHint, _ = r.boolean("readOnlyHint", req)
	a.DestructiveHint, _ = r.boolean("destructiveHint", req)
	a.IdempotentHint, _ = r.boolean("idempotentHint", req)
	a.OpenWorldHint, _ = r.boolean("openWorldHint", req)
	r.closed()
	return a
}

func decodeRuntimeProtection(r *record) RuntimeProtection {
	p := RuntimeProtection{Raw: r.obj, At: r.at}
	p.Mode = r.enum("mode", req, vocabProtection)
	p.EvidenceRefs = r.strs("evidenceRefs", req)
	p.Owner = r.str("owner", opt)
	p.WorkflowID = r.str("workflowId", opt)
	if r.has("hardWorkflowEvidence") {
		h := r.object("hardWorkflowEvidence", opt)
		p.HardWorkflowEvidence = &HardWorkflowEvidence{
			At:                     h.at,
			ProtectedValueIssuance: h.strs("protectedValueIssuance", some),
			ProtectedValueBinding:  h.strs("protectedValueBinding", some),
			PreDispatchEnforcement: h.strs("preDispatchEnforcement", some),
		}
		h.closed()
	} else {
		r.known = append(r.known, "hardWorkflowEvidence")
	}
	r.open()
	return p
}

// decodeCoverage reads evidenceCoverage, whose categories depend on the side
// effect: sideEffect for a read, the six of a write. A category left out
// is not a format error but a gap in what the evidence proves: readiness
// (check-contract) and the verification matrix's reasons record it
// (contractcheck.CoverageGaps), and derive goes on. A category of another
// side effect is one the record does not hold.
func decodeCoverage(r *record, sideEffect string) []Coverage {
	categories := writeCoverage
	if sideEffect == SideEffectRead {
		categories = readCoverage
	}
	var out []Coverage
	for _, cat := range categories {
		if !r.has(cat) {
			r.known = append(r.known, cat)
			continue
		}
		cr := r.object(cat, req)
		cov := Coverage{At: cr.at, Category: cat}
		if cat == "sideEffect" {
			cov.DeclaredSideEffect = cr.enum("declaredSideEffect", req, vocabSideEffect)
		}
		cov.AssertionLevel = cr.enum("assertionLevel", req, vocabAssertion)
		cov.EvidenceRefs = cr.strs("evidenceRefs", req)
		cr.closed()
		out = append(out, cov)
	}
	r.closed()
	return out
}

// decodeChecks reads a verificationChecks list: check IDs, or {checkId,
// phase} objects. A bare ID has the phase defaultPhase.
func decodeChecks(r *record, key string, p presence, phases []string, defaultPhase string) []Check {
	var out []Check
	for _, e := range r.list(key, p) {
		chk := Check{Raw: e.v, At: e.at.String(), Phase: defaultPhase}
		if _, ok := e.v.(canonjson.String); ok {
			chk.ID = r.rd.str(e.v, e.at, req)
		} else {
			cr := r.rd.record(e.v, e.at.String())
			chk.ID = cr.str("checkId", req)
			chk.Phase = cr.enum("phase", req, phases)
			cr.open()
		}
		out = append(out, chk)
	}
	return out
}
