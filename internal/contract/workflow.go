package contract

import "github.com/code2skill/code2skill/internal/canonjson"

// Workflow is a proven hard constraint: a deterministic guard that must pass
// before a protected write is dispatched.
type Workflow struct {
	Raw *canonjson.Object
	At  string

	ID                   string
	Kind                 string
	GuardAsset           string
	EntryCapabilityID    string
	CapabilityIDs        []string
	Bindings             []WorkflowBinding
	Enforcement          Enforcement
	UnknownOutcomePolicy string
	VerificationChecks   []Check
}

// WorkflowBinding compares a value of the request with a protected expected
// value.
type WorkflowBinding struct {
	Raw *canonjson.Object
	At  string

	Name           string
	ActualSource   ActualSource
	ExpectedSource ExpectedSource
	Comparator     string
	EvidenceRefs   []string
}

// ActualSource is where the guard reads the value it checks.
type ActualSource struct {
	At string

	Kind          string // capability-input, runtime-context, derived-calculation, constant
	InputName     string
	Path          []string
	Claim         string // runtime-context
	RequirementID string // runtime-context
	Algorithm     string // derived-calculation
	Value         canonjson.Value
}

// ExpectedSource is where the guard reads the value it expects.
type ExpectedSource struct {
	At string

	Kind  string // protected-runtime-state or constant
	Path  []string
	Value canonjson.Value
}

// Enforcement names who runs the guard and what it guarantees.
type Enforcement struct {
	At string

	Owner                      string
	MustCompleteBeforeDispatch bool
	RejectWithoutDispatch      bool
}

func decodeWorkflow(r *record) Workflow {
	w := Workflow{Raw: r.obj, At: r.at}
	w.ID = r.str("workflowId", req)
	w.Kind = r.laterEnum("kind", req, vocabWorkflowKind)
	w.GuardAsset = r.laterEnum("guardAsset", req, vocabGuardAsset)
	w.EntryCapabilityID = r.str("entryCapabilityId", req)
	w.CapabilityIDs = r.strs("capabilityIds", some)
	w.Bindings = records(r, "bindings", some, decodeWorkflowBinding)
	er := r.object("enforcement", req)
	w.Enforcement = Enforcement{At: er.at, Owner: er.str("owner", req)}
	w.Enforcement.MustCompleteBeforeDispatch = mustBeTrue(er, "mustCompleteBeforeDispatch")
	w.Enforcement.RejectWithoutDispatch = mustBeTrue(er, "rejectWithoutDispatch")
	er.open()
	w.UnknownOutcomePolicy = r.laterEnum("unknownOutcomePolicy", req, vocabWorkflowPolicy)
	w.VerificationChecks = decodeChecks(r, "verificationChecks", some, vocabWorkflowPhase, PhaseBypass)
	r.open()
	return w
}

// mustBeTrue reads a required boolean whose only allowed value is true.
// Views copy such flags as written, so false is a deferred finding.
func mustBeTrue(r *record, key string) bool {
	v, ok := r.boolean(key, req)
	if ok && !v {
		r.rd.later(func() { r.rd.report(RuleVocabulary, child(r.at, key), "%s must be true", key) })
	}
	return v
}

func decodeWorkflowBinding(r *record) WorkflowBinding {
	b := WorkflowBinding{Raw: r.obj, At: r.at}
	b.Name = r.str("name", req)
	b.ActualSource = decodeActualSource(r.object("actualSource", req))
	b.ExpectedSource = decodeExpectedSource(r.object("expectedSource", req))
	b.Comparator = r.laterEnum("comparator", req, vocabComparator)
	b.EvidenceRefs = r.strs("evidenceRefs", req)
	r.open()
	return b
}

// decodeActualSource reads an actual source; each kind has a closed set of
// fields.
func decodeActualSource(r *record) ActualSource {
	s := ActualSource{At: r.at}
	s.Kind = r.laterEnum("kind", req, vocabActualSource)
	switch s.Kind {
	case "capability-input":
		s.InputName = r.str("inputName", req)
		s.Path = r.strs("path", opt)
	case "runtime-context":
		s.Claim = r.laterEnum("claim", req, vocabClaim)
		s.RequirementID = r.str("requirementId", req)
		s.Path = r.strs("path", some)
	case "derived-calculation":
		s.Algorithm = r.laterEnum("algorithm", req, vocabAlgorithm)
		s.InputName = r.str("inputName", req)
		s.Path = r.strs("path", opt)
	case "constant":
		s.Value = r.value("value", req)
	}
	r.closedFor(s.Kind, vocabActualSource)
	return s
}

// decodeExpectedSource reads an expected source; each kind has a closed set
// of fields.
func decodeExpectedSource(r *record) ExpectedSource {
	s := ExpectedSource{At: r.at}
	s.Kind = r.laterEnum("kind", req, vocabExpectedSource)
	switch s.Kind {
	case "protected-runtime-state":
		s.Path = r.strs("path", req)
	case "constant":
		s.Value = r.value("value", req)
	}
	r.closedFor(s.Kind, vocabExpectedSource)
	return s
}
