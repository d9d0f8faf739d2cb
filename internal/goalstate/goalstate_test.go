package goalstate

import (
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// referenceGoal returns a goal of the reference example.
func referenceGoal(t *testing.T, id string) *Evaluator {
	t.Helper()
	data, err := os.ReadFile("../contract/testdata/reference/canonical-contract.json")
	if err != nil {
		t.Fatal(err)
	}
	c, l := contract.DecodeContract(contract.ContractFile, data)
	if l.HasErrors() {
		t.Fatalf("decoding the reference contract: %v", l.Sorted())
	}
	i := slices.IndexFunc(c.Goals, func(g contract.Goal) bool { return g.ID == id })
	if i < 0 {
		t.Fatalf("no goal %q", id)
	}
	e, err := New(&c.Goals[i])
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func value(t *testing.T, s string) canonjson.Value {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func now(id string, v canonjson.Value) Entry {
	return Entry{InformationID: id, Value: v, AcquiredNow: true}
}

func check(t *testing.T, got, want *Result) {
	t.Helper()
	if d := cmp.Diff(want, got, cmpopts.EquateEmpty()); d != "" {
		t.Errorf("result (-want +got):\n%s", d)
	}
}

func TestSubmitGoal(t *testing.T) {
	e := referenceGoal(t, "submit-sample-request")
	needsAttachment := value(t, `{"grantId": "g-1", "requiresAttachment": true, "allowsAttachment": true}`)
	noAttachment := value(t, `{"grantId": "g-1", "requiresAttachment": false, "allowsAttachment": false}`)

	t.Run("empty", func(t *testing.T) {
		// Nothing held: the attachment needs wait on the selection, which is
		// acquired, never asked; only the request data is asked.
		check(t, e.Evaluate(nil), &Result{
			Active:             []string{"current-selection", "request-data", "validated-payload", "trusted-confirmation"},
			PendingConditional: []string{"attachment-source", "approved-attachments"},
			Missing:            []string{"current-selection", "request-data", "validated-payload", "trusted-confirmation"},
			Acquire:            []string{"list-sample-request-kinds", "validate-sample-request"},
			Options: []Option{
				{"current-selection", SingleProvider, []string{"list-sample-request-kinds"}},
				{"validated-payload", SingleProvider, []string{"validate-sample-request"}},
			},
			Ask:            []string{"request-data"},
			TrustedContext: []string{"trusted-confirmation"},
		})
	})
	t.Run("attachment required", func(t *testing.T) {
		got := e.Evaluate([]Entry{now("current-selection", needsAttachment)})
		check(t, got, &Result{
			Active:    []string{"current-selection", "request-data", "attachment-source", "approved-attachments", "validated-payload", "trusted-confirmation"},
			Satisfied: []string{"current-selection"},
			Missing:   []string{"request-data", "attachment-source", "approved-attachments", "validated-payload", "trusted-confirmation"},
			Acquire:   []string{"upload-sample-attachment", "validate-sample-request"},
			Options: []Option{
				{"approved-attachments", SingleProvider, []string{"upload-sample-attachment"}},
				{"validated-payload", SingleProvider, []string{"validate-sample-request"}},
			},
			Ask:            []string{"request-data"},
			TrustedContext: []string{"attachment-source", "trusted-confirmation"},
		})
	})
	t.Run("attachment not required", func(t *testing.T) {
		got := e.Evaluate([]Entry{now("current-selection", noAttachment)})
		if !slices.Equal(got.InactiveConditional, []string{"attachment-source", "approved-attachments"}) {
			t.Errorf("inactive = %q, want both attachment needs", got.InactiveConditional)
		}
		if slices.Contains(got.Acquire, "upload-sample-attachment") {
			t.Errorf("acquire = %q: an inactive need must not call its provider", got.Acquire)
		}
	})
	t.Run("cached selection", func(t *testing.T) {
		cached := Entry{InformationID: "current-selection", Value: needsAttachment}
		// A held value without proof (or with a bare partial one) is stale.
		for _, proof := range [][]string{nil, {"sameSubject", "sameTenant", "sameSession"}} {
			cached.ReuseProof = proof
			got := e.Evaluate([]Entry{cached})
			if !slices.Equal(got.Stale, []string{"current-selection"}) || !slices.Contains(got.Missing, "current-selection") {
				t.Errorf("proof %q: stale %q missing %q, want the selection stale and missing", proof, got.Stale, got.Missing)
			}
		}
		cached.ReuseProof = []string{"notExpired", "sameSession", "sameSubject", "sameTenant"}
		if got := e.Evaluate([]Entry{cached}); !slices.Equal(got.Satisfied, []string{"current-selection"}) {
			t.Errorf("with every reuse claim proven: satisfied %q", got.Satisfied)
		}
	})
	t.Run("invalid", func(t *testing.T) {
		got := e.Evaluate([]Entry{now("request-data", value(t, `{"note": "no subject"}`))})
		if !slices.Equal(got.Invalid, []string{"request-data"}) || slices.Contains(got.Missing, "request-data") {
			t.Errorf("invalid %q missing %q", got.Invalid, got.Missing)
		}
		if !slices.Contains(got.Ask, "request-data") {
			t.Errorf("ask %q: an invalid value is asked again", got.Ask)
		}
	})
	t.Run("workflow completed", func(t *testing.T) {
		got := e.Evaluate([]Entry{now(WorkflowMarker("submit-sample-request"), canonjson.String("completed"))})
		if !got.Complete || len(got.Acquire)+len(got.Ask)+len(got.TrustedContext)+len(got.Options) > 0 {
			t.Errorf("complete %v, to-do %q %q %q: a completed goal stops", got.Complete, got.Acquire, got.Ask, got.TrustedContext)
		}
		got = e.Evaluate([]Entry{now(WorkflowMarker("submit-sample-request"), canonjson.String("started"))})
		if got.Complete {
			t.Error("a started workflow is not completed")
		}
	})
}

func TestPrepareGoalOrderDoesNotMatter(t *testing.T) {
	e := referenceGoal(t, "prepare-sample-request")
	all := []Entry{
		now("current-selection", value(t, `{"grantId": "g", "requiresAttachment": true, "allowsAttachment": true}`)),
		now("request-data", value(t, `{"subject": "s"}`)),
		now("attachment-source", value(t, `{"grantId": "a", "fileName": "f", "mediaType": "m", "sizeBytes": 1, "sha256": "`+
			"0000000000000000000000000000000000000000000000000000000000000000"+`"}`)),
		now("approved-attachments", value(t, `{"grantId": "a", "uploadResult": "u"}`)),
		now("validation-result", value(t, `{"grantId": "v", "payloadDigest": "d"}`)),
	}
	want := e.Evaluate(all)
	if !want.Complete {
		t.Fatalf("all information held, yet incomplete: %+v", want)
	}
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	check(t, e.Evaluate(reversed), want)
	// Without the attachment needs the goal waits for them.
	got := e.Evaluate(all[:2])
	if got.Complete || !slices.Equal(got.Missing, []string{"attachment-source", "approved-attachments", "validation-result"}) {
		t.Errorf("complete %v missing %q", got.Complete, got.Missing)
	}
}

func TestAnySatisfiedAndProviders(t *testing.T) {
	g := &contract.Goal{
		ID: "find",
		InformationNeeds: []contract.Need{
			{ID: "by-name", Classification: contract.ClassOptional, Type: "string",
				SatisfiedBy: []contract.NeedSource{{Kind: contract.SatisfiedByUser}}},
			{ID: "by-id", Classification: contract.ClassOptional, Type: "string",
				SatisfiedBy: []contract.NeedSource{{Kind: contract.SatisfiedByUser}}},
			{ID: "catalog", Classification: contract.ClassDynamic, Type: "array",
				SatisfiedBy: []contract.NeedSource{
					{Kind: contract.SatisfiedByCapability, CapabilityID: "list-a"},
					{Kind: contract.SatisfiedByCapability, CapabilityID: "list-b"},
					{Kind: contract.SatisfiedByUser},
				}},
		},
		CompletionPredicate: contract.Predicate{Operator: contract.PredicateAnySatisfied, InformationIDs: []string{"by-name", "by-id"}},
		AgentPolicy:         contract.AgentPolicy{StopWhenPredicateSatisfied: true},
	}
	e, err := New(g)
	if err != nil {
		t.Fatal(err)
	}
	got := e.Evaluate(nil)
	check(t, got, &Result{
		Active:  []string{"catalog"},
		Missing: []string{"catalog"},
		Acquire: []string{"list-a", "list-b"},
		Options: []Option{{"catalog", OneCompatibleProvider, []string{"list-a", "list-b"}}},
	})
	got = e.Evaluate([]Entry{now("by-id", canonjson.String("x"))})
	if !got.Complete || len(got.Acquire) > 0 {
		t.Errorf("one predicate need held: complete %v acquire %q", got.Complete, got.Acquire)
	}
}
