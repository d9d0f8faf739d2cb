package vectors

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
)

// goalChecks plans the reference example, lets edit change its goals, and
// returns the judged goal checks of one capability by check ID. Goal
// vectors run in Go: no node is needed.
func goalChecks(t *testing.T, capabilityID string, edit func(c *contract.Contract)) map[string]*check {
	t.Helper()
	loaded, err := derive.Load(buildPackage(t, "reference", nil))
	in, list := loaded.Inputs, loaded.Read()
	if err != nil || list.HasErrors() {
		t.Fatal(err, list.Sorted())
	}
	edit(in.Contract)
	out := map[string]*check{}
	for _, ch := range plan(in, false).checks {
		if ch.capabilityID == capabilityID && strings.HasPrefix(ch.id, "goal-") {
			judgeCheck(ch)
			out[ch.id] = ch
		}
	}
	return out
}

func need(t *testing.T, c *contract.Contract, goalID, needID string) *contract.Need {
	t.Helper()
	for i := range c.Goals {
		if c.Goals[i].ID == goalID {
			if n, ok := c.Goals[i].Need(needID); ok {
				return n
			}
		}
	}
	t.Fatalf("no need %s of goal %s", needID, goalID)
	return nil
}

func TestGoalChecks(t *testing.T) {
	const (
		prepare = "goal-prepare-sample-request-"
		submit  = "goal-submit-sample-request-"
	)
	for _, tc := range []struct {
		name       string
		capability string
		edit       func(t *testing.T, c *contract.Contract)
		failing    map[string]string // check ID -> what its detail says
	}{
		{"coherent goals pass", "list-sample-request-kinds", func(*testing.T, *contract.Contract) {}, nil},
		{"a condition that reads no need stays pending", "list-sample-request-kinds", func(t *testing.T, c *contract.Contract) {
			need(t, c, "prepare-sample-request", "attachment-source").Condition.Raw.Set("path", canonjson.Strings([]string{"no-such-need", "flag"}))
		}, map[string]string{
			prepare + goalOrders:   "the goal is complete",
			prepare + goalAllKnown: "the goal is complete",
		}},
		{"a need nothing can supply", "validate-sample-request", func(t *testing.T, c *contract.Contract) {
			need(t, c, "prepare-sample-request", "validation-result").SatisfiedBy = nil
		}, map[string]string{
			prepare + goalAsksMissing: "missing validation-result can be obtained",
		}},
		{"a conditional need nothing can supply", "upload-sample-attachment", func(t *testing.T, c *contract.Contract) {
			n := need(t, c, "submit-sample-request", "approved-attachments")
			n.SatisfiedBy = nil
			n.Supplies = []contract.Supply{{CapabilityID: "upload-sample-attachment", InputName: "hostAttachmentGrant"}}
		}, map[string]string{
			submit + goalConditional: "approved-attachments can be obtained",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checks := goalChecks(t, tc.capability, func(c *contract.Contract) { tc.edit(t, c) })
			if len(checks) == 0 {
				t.Fatal("no goal check")
			}
			for id, ch := range checks {
				want, failing := tc.failing[id]
				switch {
				case failing && (ch.status != StatusFailed || !strings.Contains(ch.detail, want)):
					t.Errorf("%s: %s (%s), want failed saying %q", id, ch.status, ch.detail, want)
				case !failing && ch.status != StatusPassed:
					t.Errorf("%s: %s (%s), want passed", id, ch.status, ch.detail)
				}
			}
			for id := range tc.failing {
				if checks[id] == nil {
					t.Errorf("no check %s", id)
				}
			}
		})
	}
}
