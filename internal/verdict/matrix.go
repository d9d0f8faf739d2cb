package verdict

import (
	"github.com/code2skill/code2skill/internal/canonjson"
)

// member is a member of an object under construction.
type member = canonjson.Member

func object(members ...member) *canonjson.Object { return canonjson.NewObject(members...) }

func str(s string) canonjson.Value { return canonjson.String(s) }

func boolean(b bool) canonjson.Value { return canonjson.Bool(b) }

// JSON returns verification-matrix.json: the delivery status, then one row
// per capability and per workflow, in contract order.
//
// A capability row is {capabilityId, status, reasons, reviewItems,
// deployerPolicy (only when the contract records one), checks}
// and a workflow row {workflowId, status, reasons, checks}; checks are the
// executed checks of every phase, in phase order, each naming its phase.
func (m *Matrix) JSON() *canonjson.Object {
	generated := func() canonjson.Value { return object(member{Key: "status", Value: str("generated")}) }
	delivery := object(
		member{Key: "functionCore", Value: generated()},
		member{Key: "mcpServer", Value: generated()},
		member{Key: "skill", Value: generated()},
		member{Key: "runtime", Value: object(member{Key: "status", Value: str(m.Runtime)})},
		member{Key: "deployment", Value: object(member{Key: "status", Value: str("not-deployed")})},
	)
	caps := canonjson.Array{}
	for i := range m.Capabilities {
		r := &m.Capabilities[i]
		items := r.ReviewItems
		if items == nil {
			items = canonjson.Array{}
		}
		row := object(
			member{Key: "capabilityId", Value: str(r.ID)},
			member{Key: "status", Value: object(
				member{Key: "generated", Value: boolean(true)},
				member{Key: "behaviorVerified", Value: boolean(r.BehaviorVerified)},
				member{Key: "runtimeVerified", Value: boolean(r.RuntimeVerified)},
				member{Key: "hostVerified", Value: boolean(r.HostVerified)},
				member{Key: "requiresReview", Value: boolean(r.RequiresReview)},
				member{Key: "blocked", Value: boolean(r.Blocked)},
			)},
			member{Key: "reasons", Value: canonjson.Strings(r.Reasons)},
			member{Key: "reviewItems", Value: items},
		)
		if r.DeployerPolicy != nil {
			row.Set("deployerPolicy", canonjson.Clone(r.DeployerPolicy))
		}
		row.Set("checks", checksJSON(r.Checks))
		caps = append(caps, row)
	}
	workflows := canonjson.Array{}
	for i := range m.Workflows {
		r := &m.Workflows[i]
		workflows = append(workflows, object(
			member{Key: "workflowId", Value: str(r.ID)},
			member{Key: "status", Value: object(
				member{Key: "generated", Value: boolean(true)},
				member{Key: "behaviorVerified", Value: boolean(r.BehaviorVerified)},
				member{Key: "runtimeVerified", Value: boolean(r.RuntimeVerified)},
				member{Key: "hostVerified", Value: boolean(r.HostVerified)},
				member{Key: "bypassVerified", Value: boolean(r.BypassVerified)},
				member{Key: "requiresReview", Value: boolean(r.RequiresReview)},
				member{Key: "blocked", Value: boolean(r.Blocked)},
			)},
			member{Key: "reasons", Value: canonjson.Strings(r.Reasons)},
			member{Key: "checks", Value: checksJSON(r.Checks)},
		))
	}
	return object(
		member{Key: "schemaVersion", Value: str("vNext")},
		member{Key: "contractId", Value: str(m.ContractID)},
		member{Key: "canonicalContractRef", Value: str(contractFile)},
		member{Key: "delivery", Value: delivery},
		member{Key: "capabilities", Value: caps},
		member{Key: "workflows", Value: workflows},
	)
}

func checksJSON(checks []PhaseCheck) canonjson.Array {
	out := canonjson.Array{}
	for _, pc := range checks {
		out = append(out, pc.Check.JSON(pc.Phase))
	}
	return out
}

// IssueRefs returns the issueRef of each of the row's review items.
func (r *Row) IssueRefs() []string {
	var out []string
	for _, it := range r.ReviewItems {
		if o, ok := it.(*canonjson.Object); ok {
			if s := stringMember(o, "issueRef"); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}
