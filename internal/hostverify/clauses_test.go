package hostverify

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// The clauses of each multi-clause Host-phase check are judged one by one
// here, on the steps a host session records, so that each clause fails a
// test of its own when it is removed: a step that breaks one clause and
// keeps every other (a refusal with the right code that still dispatched,
// a refusal that dispatched nothing with the wrong code) must fail the
// check, and the step that keeps them all must pass it.

// clause is one fixture: a step (or steps), judged by failure, and
// whether the check passes; when it fails, the detail names the clause.
type clause struct {
	name    string
	failure func() string
	passes  bool
	detail  string
}

func runClauses(t *testing.T, clauses []clause) {
	t.Helper()
	for _, cl := range clauses {
		t.Run(cl.name, func(t *testing.T) {
			detail := cl.failure()
			switch {
			case cl.passes && detail != "":
				t.Errorf("failed: %s", detail)
			case !cl.passes && detail == "":
				t.Error("passed")
			case !cl.passes && !strings.Contains(detail, cl.detail):
				t.Errorf("detail %q, want it to say %q", detail, cl.detail)
			}
		})
	}
}

var (
	blocked   = relayed{Method: "POST", Path: "/api/loans/7/return", Forwarded: false, Carried: []string{}}
	forwarded = relayed{Method: "POST", Path: "/api/loans", Forwarded: true, Status: 201, Carried: []string{"authorization"}}
)

func refusal(code string, reached ...relayed) *step {
	return &step{Tool: "return_equipment_loan", IsError: true, Code: code, Result: canonjson.NewObject(), Relayed: reached}
}

// TestZeroDispatchClauses: a refusal passes only when it dispatched
// nothing and answered the expected code.
func TestZeroDispatchClauses(t *testing.T) {
	zero := func(st *step) func() string {
		return func() string { return zeroDispatchFailure(st, codeDeclined) }
	}
	runClauses(t, []clause{
		{"refused with the code, nothing dispatched", zero(refusal(codeDeclined)), true, ""},
		{"refused with the code, but dispatched", zero(refusal(codeDeclined, blocked)), false, "dispatched 1 request(s)"},
		{"nothing dispatched, another code", zero(refusal(codeCancelled)), false, "must be refused with " + codeDeclined},
		{"nothing dispatched, a success", zero(&step{Tool: "return_equipment_loan", Result: canonjson.NewObject()}), false, "must be refused with " + codeDeclined},
	})
}

// TestCallClauses: a call passes only when it answered a success, reached
// the backend, every request was forwarded, and each carried exactly the
// Tool's credential headers.
func TestCallClauses(t *testing.T) {
	success, _ := canonjson.Decode([]byte(`{"isError": false, "structuredContent": {"status": 201, "data": {"loanId": "loan-1"}}, "content": [{"type": "text", "text": "{\"status\":201,\"data\":{\"loanId\":\"loan-1\"}}"}]}`))
	ok := func(reached ...relayed) *step {
		return &step{Tool: "create_equipment_loan", Result: success, Relayed: reached}
	}
	cp := &contract.Capability{ToolName: "create_equipment_loan"}
	call := func(st *step) func() string {
		return func() string { return callFailure(cp, st, []string{"authorization"}) }
	}
	cookie := forwarded
	cookie.Carried = []string{"authorization", "cookie"}
	runClauses(t, []clause{
		{"a success that reached the backend with its credential", call(ok(forwarded)), true, ""},
		{"an error", call(refusal("UPSTREAM_STEP_REJECTED", forwarded)), false, "answered the error UPSTREAM_STEP_REJECTED"},
		{"a success that reached nothing", call(ok()), false, "nothing reached the backend"},
		{"a request not forwarded", call(ok(forwarded, blocked)), false, "did not reach the backend"},
		{"another credential too", call(ok(cookie)), false, "carried the credential headers"},
	})
}

// TestUnknownOutcomeClauses: the cut-off call must answer the unknown
// outcome's code and reach nothing; the next call must dispatch nothing and
// be refused for reconciliation.
func TestUnknownOutcomeClauses(t *testing.T) {
	cutOff := relayed{Method: "POST", Path: "/api/loans", Forwarded: false, Carried: []string{"authorization"}}
	leaked := cutOff
	leaked.Forwarded = true
	cp := &contract.Capability{ToolName: "create_equipment_loan"}
	unknown := func(cut, again *step) func() string {
		return func() string { return unknownOutcomeFailure(cp, cut, again, codeReconcileNo) }
	}
	runClauses(t, []clause{
		{"unknown, then refused", unknown(refusal(codeUnknown, cutOff), refusal(codeReconcileNo)), true, ""},
		{"the cut-off call answered another code", unknown(refusal("UPSTREAM_STEP_REJECTED", cutOff), refusal(codeReconcileNo)), false, "not " + codeUnknown},
		{"the cut-off request reached the backend", unknown(refusal(codeUnknown, leaked), refusal(codeReconcileNo)), false, "reached the backend"},
		{"the next call dispatched", unknown(refusal(codeUnknown, cutOff), refusal(codeReconcileNo, blocked)), false, "dispatched 1 request(s)"},
		{"the next call answered another code", unknown(refusal(codeUnknown, cutOff), refusal(codeReconcileNeeded)), false, "must be refused with " + codeReconcileNo},
	})
}

// TestDiscoveryClauses: the Tool must be listed, annotated as the contract
// says, in a session of the package's protocol version.
func TestDiscoveryClauses(t *testing.T) {
	annotations := `{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}`
	raw, _ := canonjson.Decode([]byte(annotations))
	cp := &contract.Capability{ToolName: "list_lendable_equipment", Annotations: contract.Annotations{Raw: raw.(*canonjson.Object)}}
	listed := func(name, annotations string) []mcpcheck.Tool {
		return []mcpcheck.Tool{{Raw: json.RawMessage(`{"name": "` + name + `", "annotations": ` + annotations + `}`)}}
	}
	withName := func(tools []mcpcheck.Tool) []mcpcheck.Tool {
		for i := range tools {
			var t struct{ Name string }
			_ = json.Unmarshal(tools[i].Raw, &t)
			tools[i].Name = t.Name
		}
		return tools
	}
	discovery := func(tools []mcpcheck.Tool, protocol string) func() string {
		return func() string {
			_, detail := discoveryFailure(cp, withName(tools), protocol, "2025-11-25")
			return detail
		}
	}
	runClauses(t, []clause{
		{"listed and annotated, the package's protocol", discovery(listed(cp.ToolName, annotations), "2025-11-25"), true, ""},
		{"not listed", discovery(listed("list_equipment", annotations), "2025-11-25"), false, "does not list"},
		{"other annotations", discovery(listed(cp.ToolName, strings.Replace(annotations, `"readOnlyHint": true`, `"readOnlyHint": false`, 1)), "2025-11-25"), false, "annotates"},
		{"another protocol", discovery(listed(cp.ToolName, annotations), "2025-06-18"), false, "speaks protocol 2025-06-18"},
	})
}
