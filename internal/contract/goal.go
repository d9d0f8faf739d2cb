package contract

import "github.com/code2skill/code2skill/internal/canonjson"

// Goal is a user goal: the information it needs, where that information may
// come from, and when the goal is complete. It never fixes a transcript.
type Goal struct {
	Raw *canonjson.Object
	At  string

	ID                       string
	Intent                   string
	InformationNeeds         []Need
	CompletionPredicate      Predicate
	RequiredCapabilityIDs    []string
	OptionalCapabilityIDs    []string
	ConditionalCapabilityIDs []ConditionalCapability
	AgentPolicy              AgentPolicy
}

// Need returns the information need with the given ID.
func (g *Goal) Need(id string) (*Need, bool) {
	return find(g.InformationNeeds, func(x *Need) bool { return x.ID == id })
}

// Need is one piece of information a goal needs.
type Need struct {
	Raw *canonjson.Object
	At  string

	ID             string
	Description    string
	Classification string // required, optional, requiredWhen, derived, dynamic
	Type           string
	Schema         canonjson.Value // nil when absent
	Condition      *Condition      // requiredWhen needs
	SatisfiedBy    []NeedSource
	Supplies       []Supply
	ReuseWhile     *ReuseWhile // nil when absent
}

// NeedSource is one way to obtain a need: from the user, from trusted Host
// context, or from a capability output.
type NeedSource struct {
	At string

	Kind          string // user, trusted-host-context, capability
	RequirementID string // trusted-host-context; "" when absent
	CapabilityID  string // capability
	OutputPath    []string
}

// Supply maps a need onto an input of a goal capability.
type Supply struct {
	At string

	CapabilityID string
	InputName    string
	MappingKind  string
}

// ReuseWhile lists the evidence-backed claims under which an obtained value
// may be reused. Absent claims are false.
type ReuseWhile struct {
	At string

	SameSubject       bool
	SameTenant        bool
	SameSession       bool
	SamePayloadDigest bool
	SameVersion       bool
	NotEdited         bool
	NotExpired        bool
	NotConsumed       bool
	EvidenceRefs      []string
}

// Predicate says when a goal is complete.
type Predicate struct {
	At string

	Operator string // all-satisfied, any-satisfied, workflow-completed
	// InformationIDs lists the needs the predicate ranges over.
	InformationIDs []string
	WorkflowID     string // workflow-completed
}

// ConditionalCapability is a capability a goal uses only while a condition
// holds: a bare ID, or an object with its condition.
type ConditionalCapability struct {
	At string

	CapabilityID string
	Condition    *Condition // nil for the bare form
}

// AgentPolicy holds the five flags that keep a Consumer's questioning
// minimal; the format requires each to be true.
type AgentPolicy struct {
	At string

	AcceptInformationInAnyOrder bool
	ReuseFreshInformation       bool
	AskOnlyCurrentlyMissing     bool
	SkipUnnecessaryCapabilities bool
	StopWhenPredicateSatisfied  bool
}

func decodeGoal(r *record) Goal {
	g := Goal{Raw: r.obj, At: r.at}
	g.ID = r.str("goalId", req)
	g.Intent = r.str("intent", req)
	g.InformationNeeds = records(r, "informationNeeds", some, decodeNeed)
	g.CompletionPredicate = decodePredicate(r.object("completionPredicate", req))
	g.RequiredCapabilityIDs = r.strs("requiredCapabilityIds", req)
	g.OptionalCapabilityIDs = r.strs("optionalCapabilityIds", req)
	for _, e := range r.list("conditionalCapabilityIds", req) {
		cc := ConditionalCapability{At: e.at.String()}
		if _, ok := e.v.(canonjson.String); ok {
			cc.CapabilityID = r.rd.str(e.v, e.at, req)
		} else {
			cr := r.rd.record(e.v, e.at.String())
			cc.CapabilityID = cr.str("capabilityId", req)
			if cr.has("condition") {
				cond := decodeCondition(cr.object("condition", opt))
				cc.Condition = &cond
			}
			cr.known = append(cr.known, "condition")
			cr.open()
		}
		g.ConditionalCapabilityIDs = append(g.ConditionalCapabilityIDs, cc)
	}
	g.AgentPolicy = decodeAgentPolicy(r.object("agentPolicy", req))
	const transcript = "goals collect information in any order and never fix a transcript"
	for _, k := range []string{"fixedSequence", "orderedSteps", "mandatoryTranscript", "hardConstraints"} {
		r.forbid(k, transcript)
	}
	r.open()
	return g
}

// decodeNeed reads an information need, a closed record.
func decodeNeed(r *record) Need {
	n := Need{Raw: r.obj, At: r.at}
	n.ID = r.str("informationId", req)
	n.Description = r.str("description", opt)
	n.Classification = r.enum("classification", req, vocabNeedClass)
	n.Type = r.enum("type", req, vocabInputType)
	n.Schema = r.value("schema", opt)
	if r.has("condition") {
		cond := decodeCondition(r.object("condition", opt))
		n.Condition = &cond
	} else {
		r.known = append(r.known, "condition")
	}
	n.SatisfiedBy = records(r, "satisfiedBy", some, func(s *record) NeedSource {
		src := NeedSource{At: s.at, Kind: s.enum("kind", req, vocabSatisfiedBy)}
		switch src.Kind {
		case SatisfiedByTrusted:
			src.RequirementID = s.str("requirementId", opt)
		case SatisfiedByCapability:
			src.CapabilityID = s.str("capabilityId", req)
			src.OutputPath = s.strs("outputPath", some)
		}
		s.open()
		return src
	})
	n.Supplies = records(r, "supplies", opt, func(s *record) Supply {
		sup := Supply{
			At:           s.at,
			CapabilityID: s.str("capabilityId", req),
			InputName:    s.str("inputName", req),
			MappingKind:  s.laterEnum("mappingKind", req, vocabMapping),
		}
		s.closed()
		return sup
	})
	if r.has("reuseWhile") {
		n.ReuseWhile = decodeReuseWhile(r.object("reuseWhile", opt))
	} else {
		r.known = append(r.known, "reuseWhile")
	}
	r.closed()
	return n
}

func decodeReuseWhile(r *record) *ReuseWhile {
	w := &ReuseWhile{At: r.at}
	w.SameSubject, _ = r.boolean("sameSubject", opt)
	w.SameTenant, _ = r.boolean("sameTenant", opt)
	w.SameSession, _ = r.boolean("sameSession", opt)
	w.SamePayloadDigest, _ = r.boolean("samePayloadDigest", opt)
	w.SameVersion, _ = r.boolean("sameVersion", opt)
	w.NotEdited, _ = r.boolean("notEdited", opt)
	w.NotExpired, _ = r.boolean("notExpired", opt)
	w.NotConsumed, _ = r.boolean("notConsumed", opt)
	w.EvidenceRefs = r.strs("evidenceRefs", req)
	r.closed()
	return w
}

func decodePredicate(r *record) Predicate {
	p := Predicate{At: r.at}
	p.Operator = r.laterEnum("operator", req, vocabPredicate)
	switch p.Operator {
	case PredicateWorkflowCompleted:
		p.WorkflowID = r.str("workflowId", req)
		p.InformationIDs = r.strs("informationIds", opt)
	default:
		p.InformationIDs = r.strs("informationIds", some)
		p.WorkflowID = r.str("workflowId", opt)
	}
	if v, ok := r.boolean("conditionalNeedsOnlyWhenActive", opt); ok && !v {
		r.rd.later(func() {
			r.rd.report(RuleVocabulary, child(r.at, "conditionalNeedsOnlyWhenActive"),
				"conditionalNeedsOnlyWhenActive may only be true; omit it otherwise")
		})
	}
	r.open()
	return p
}

func decodeAgentPolicy(r *record) AgentPolicy {
	p := AgentPolicy{
		At:                          r.at,
		AcceptInformationInAnyOrder: mustBeTrue(r, "acceptInformationInAnyOrder"),
		ReuseFreshInformation:       mustBeTrue(r, "reuseFreshInformation"),
		AskOnlyCurrentlyMissing:     mustBeTrue(r, "askOnlyCurrentlyMissing"),
		SkipUnnecessaryCapabilities: mustBeTrue(r, "skipUnnecessaryCapabilities"),
		StopWhenPredicateSatisfied:  mustBeTrue(r, "stopWhenPredicateSatisfied"),
	}
	r.open()
	return p
}
