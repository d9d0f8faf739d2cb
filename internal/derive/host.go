package derive

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// Host compatibility statuses. They describe only whether the Host can run a
// capability or goal; Canonical readiness is reported separately.
const (
	statusEnabled     = "enabled"
	statusIntegration = "requires-host-integration"
	statusDisabled    = "disabled"
	statusBlocked     = "blocked"
)

// severity orders statuses from harmless to worst: a goal is as bad as the
// worst thing it needs.
func severity(s string) int {
	switch s {
	case statusEnabled:
		return 0
	case statusIntegration:
		return 1
	case statusDisabled:
		return 2
	}
	return 3 // blocked
}

// preference orders the alternatives of an information need from best to
// worst: a blocked source may still be unblocked by new evidence, while a
// disabled one is ruled out by the Host, so blocked is preferred.
func preference(s string) int {
	switch s {
	case statusEnabled:
		return 0
	case statusIntegration:
		return 1
	case statusBlocked:
		return 2
	}
	return 3 // disabled
}

// capabilityAssessment is how the Host profile serves one capability.
type capabilityAssessment struct {
	capabilityID string
	status       string
	readiness    string
	missing      []string // requirements the Host does not support
	external     []string // requirements the Host supports only by external integration
}

// goalAssessment is how the Host profile serves one goal.
type goalAssessment struct {
	goalID       string
	status       string
	restrictions []restriction
}

// restriction is a conditional capability or a requiredWhen need that is not
// enabled: the goal works, but not on every branch.
type restriction struct {
	capabilityID   string // a conditional capability, or "" for a need
	informationID  string
	status         string
	requirementIDs []string
	capabilityIDs  []string
}

// compat compares a contract's consumer requirements with a Host profile.
type compat struct {
	profileID    string
	contractID   string
	capabilities []capabilityAssessment // in contract order
	goals        []goalAssessment       // in contract order
	overall      string

	c    *contract.Contract
	host *contract.HostProfile
}

func compatibility(c *contract.Contract, host *contract.HostProfile) *compat {
	if host == nil {
		host = &contract.HostProfile{}
	}
	x := &compat{profileID: host.ProfileID, contractID: c.ContractID, c: c, host: host}
	for i := range c.Capabilities {
		x.capabilities = append(x.capabilities, x.assessCapability(&c.Capabilities[i]))
	}
	for i := range c.Goals {
		x.goals = append(x.goals, x.assessGoal(&c.Goals[i]))
	}
	x.overall = x.overallStatus()
	return x
}

// hostStatus returns the Host profile's status for a requirement; a facility
// the profile does not classify is unsupported.
func (x *compat) hostStatus(req *contract.Requirement) string {
	if s, ok := x.host.Status(req.HostCapability); ok {
		return s
	}
	return contract.HostUnsupported
}

func (x *compat) assessCapability(cp *contract.Capability) capabilityAssessment {
	a := capabilityAssessment{capabilityID: cp.ID, readiness: cp.Readiness}
	disable := false
	for _, id := range cp.HostRequirements {
		req, ok := x.c.Requirement(id)
		if !ok {
			continue // reported by Check
		}
		switch x.hostStatus(req) {
		case contract.HostUnsupported:
			a.missing = append(a.missing, id)
			disable = disable || req.OnMissing == contract.OnMissingDisable
		case contract.HostExternalIntegration:
			a.external = append(a.external, id)
		}
	}
	switch {
	case cp.Readiness == contract.ReadinessBlocked:
		a.status = statusBlocked
	case len(a.missing) > 0 && disable:
		a.status = statusDisabled
	case len(a.missing) > 0 || len(a.external) > 0:
		a.status = statusIntegration
	default:
		a.status = statusEnabled
	}
	return a
}

// capabilityStatus returns a capability's status; an unknown capability is
// blocked.
func (x *compat) capabilityStatus(id string) string {
	for _, a := range x.capabilities {
		if a.capabilityID == id {
			return a.status
		}
	}
	return statusBlocked
}

// sourceStatus rates one way of obtaining a need.
func (x *compat) sourceStatus(s *contract.NeedSource) string {
	switch s.Kind {
	case contract.SatisfiedByUser:
		return statusEnabled
	case contract.SatisfiedByCapability:
		return x.capabilityStatus(s.CapabilityID)
	case contract.SatisfiedByTrusted:
		if s.RequirementID == "" {
			return statusIntegration
		}
		req, ok := x.c.Requirement(s.RequirementID)
		if !ok {
			return statusBlocked
		}
		switch x.hostStatus(req) {
		case contract.HostSupported:
			return statusEnabled
		case contract.HostExternalIntegration:
			return statusIntegration
		}
		if req.OnMissing == contract.OnMissingDisable {
			return statusDisabled
		}
		return statusIntegration
	}
	return statusBlocked
}

// needStatus rates a need by its best source.
func (x *compat) needStatus(n *contract.Need) string {
	best := statusBlocked
	for i, s := range n.SatisfiedBy {
		st := x.sourceStatus(&s)
		if i == 0 || preference(st) < preference(best) {
			best = st
		}
	}
	return best
}

func worst(statuses []string) string {
	w := statusEnabled
	for _, s := range statuses {
		if severity(s) > severity(w) {
			w = s
		}
	}
	return w
}

func (x *compat) assessGoal(g *contract.Goal) goalAssessment {
	var statuses []string
	for _, id := range g.RequiredCapabilityIDs {
		statuses = append(statuses, x.capabilityStatus(id))
	}
	pred := &g.CompletionPredicate
	if pred.Operator == contract.PredicateAnySatisfied {
		// Any one of the predicate's needs completes the goal: the best of
		// them counts.
		best := ""
		for i := range g.InformationNeeds {
			n := &g.InformationNeeds[i]
			if !slices.Contains(pred.InformationIDs, n.ID) {
				continue
			}
			if st := x.needStatus(n); best == "" || preference(st) < preference(best) {
				best = st
			}
		}
		if best != "" {
			statuses = append(statuses, best)
		}
	} else {
		for i := range g.InformationNeeds {
			n := &g.InformationNeeds[i]
			if n.Classification != contract.ClassOptional && n.Classification != contract.ClassRequiredWhen {
				statuses = append(statuses, x.needStatus(n))
			}
		}
	}
	if pred.Operator == contract.PredicateWorkflowCompleted {
		if w, ok := x.c.Workflow(pred.WorkflowID); ok {
			for _, id := range w.CapabilityIDs {
				statuses = append(statuses, x.capabilityStatus(id))
			}
		}
	}
	a := goalAssessment{goalID: g.ID, status: worst(statuses)}
	for _, cc := range g.ConditionalCapabilityIDs {
		if st := x.capabilityStatus(cc.CapabilityID); st != statusEnabled {
			a.restrictions = append(a.restrictions, restriction{capabilityID: cc.CapabilityID, status: st})
		}
	}
	for i := range g.InformationNeeds {
		n := &g.InformationNeeds[i]
		if n.Classification != contract.ClassRequiredWhen {
			continue
		}
		st := x.needStatus(n)
		if st == statusEnabled {
			continue
		}
		r := restriction{informationID: n.ID, status: st}
		for _, s := range n.SatisfiedBy {
			switch {
			case s.Kind == contract.SatisfiedByTrusted && s.RequirementID != "" && !slices.Contains(r.requirementIDs, s.RequirementID):
				r.requirementIDs = append(r.requirementIDs, s.RequirementID)
			case s.Kind == contract.SatisfiedByCapability && !slices.Contains(r.capabilityIDs, s.CapabilityID):
				r.capabilityIDs = append(r.capabilityIDs, s.CapabilityID)
			}
		}
		a.restrictions = append(a.restrictions, r)
	}
	return a
}

// overallStatus is incompatible when the Host can run no capability at all,
// compatible with restrictions when any capability or goal is not enabled,
// and compatible otherwise.
func (x *compat) overallStatus() string {
	ruledOut, restricted := 0, false
	for _, a := range x.capabilities {
		if a.status == statusDisabled || a.status == statusBlocked {
			ruledOut++
		}
		restricted = restricted || a.status != statusEnabled
	}
	for _, g := range x.goals {
		restricted = restricted || g.status != statusEnabled
	}
	switch {
	case len(x.capabilities) > 0 && ruledOut == len(x.capabilities):
		return "incompatible"
	case restricted:
		return "compatible-with-restrictions"
	}
	return "compatible"
}

// report is host-compatibility-report.json.
func (x *compat) report() *canonjson.Object {
	caps := canonjson.Array{}
	for _, a := range x.capabilities {
		caps = append(caps, object(
			m{"capabilityId", str(a.capabilityID)},
			m{"status", str(a.status)},
			m{"canonicalReadiness", str(a.readiness)},
			m{"missingRequirementIds", strs(a.missing)},
			m{"externalIntegrationRequirementIds", strs(a.external)},
		))
	}
	goals := canonjson.Array{}
	for _, g := range x.goals {
		restrictions := canonjson.Array{}
		for _, r := range g.restrictions {
			if r.capabilityID != "" {
				restrictions = append(restrictions, object(
					m{"capabilityId", str(r.capabilityID)},
					m{"status", str(r.status)},
				))
				continue
			}
			restrictions = append(restrictions, object(
				m{"informationId", str(r.informationID)},
				m{"status", str(r.status)},
				m{"requirementIds", strs(r.requirementIDs)},
				m{"capabilityIds", strs(r.capabilityIDs)},
			))
		}
		goals = append(goals, object(
			m{"goalId", str(g.goalID)},
			m{"status", str(g.status)},
			m{"conditionalRestrictions", restrictions},
		))
	}
	return object(
		m{"schemaVersion", str("vNext")},
		m{"contractId", str(x.contractID)},
		m{"consumerRequirementsRef", str(consumerRequirementsRef)},
		m{"hostProfileRef", str(hostProfileRef)},
		m{"profileId", str(x.profileID)},
		m{"overallStatus", str(x.overall)},
		m{"capabilityAssessments", caps},
		m{"goalAssessments", goals},
	)
}
