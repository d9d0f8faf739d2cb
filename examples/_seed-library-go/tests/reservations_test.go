package tests

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"seed-library/agentresult"
	functioncore "seed-library/function-core"
)

// What the reservation service answers for GET members/me/reservations:
// it repeats the member's session token, which must not reach the agent.
const answer = `{"member":{"memberId":"m-7","name":"A. Gardener","sessionToken":"sess-0123456789abcdef"},` +
	`"reservations":[{"reservationId":"r-1","varietyName":"Early pea","packetCount":2,"pickupAt":"2026-04-03T09:30:00","status":"active"}]}`

func TestTheMembersReservationsAreReadWithTheToken(t *testing.T) {
	rt, rec := recording(env, 200, `{"member":{"memberId":"m-7"},"reservations":[]}`)
	result, err := functioncore.ListMyReservations(background, map[string]any{"status": " active "}, rt)
	if err != nil {
		t.Fatal(err)
	}
	want := []recorded{{Method: "GET", URL: "https://reservations.seed-library.invalid/v2/members/me/reservations?status=active",
		Headers: map[string]string{"accept": "application/json", "authorization": "Token " + token}}}
	if !reflect.DeepEqual(rec.calls, want) {
		t.Errorf("requests\n got %+v\nwant %+v", rec.calls, want)
	}
	if got := asJSON(t, result); got != `{"httpStatus":200,"bodyText":"{\"member\":{\"memberId\":\"m-7\"},\"reservations\":[]}"}` {
		t.Errorf("result %s", got)
	}
}

func TestTheRepeatedSessionTokenIsRemovedEverythingElseKept(t *testing.T) {
	rt, _ := recording(env, 200, answer)
	result, err := functioncore.ListMyReservations(background, map[string]any{}, rt)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"member":{"memberId":"m-7","name":"A. Gardener"},` +
		`"reservations":[{"reservationId":"r-1","varietyName":"Early pea","packetCount":2,"pickupAt":"2026-04-03T09:30:00","status":"active"}]}`
	r, ok := result.(agentresult.HTTPResult)
	if !ok || r.HTTPStatus != 200 || r.BodyText != want {
		t.Errorf("result %+v", result)
	}
	if strings.Contains(asJSON(t, result), "sess-0123456789abcdef") {
		t.Error("the result still holds the session token")
	}
}

func TestARefusalIsPassedThrough(t *testing.T) {
	rt, _ := recording(env, 401, `{"error":"token expired"}`)
	result, err := functioncore.ListMyReservations(background, map[string]any{}, rt)
	if err != nil {
		t.Fatal(err)
	}
	if got := asJSON(t, result); got != `{"httpStatus":401,"bodyText":"{\"error\":\"token expired\"}"}` {
		t.Errorf("result %s", got)
	}
}

func TestACancellationIsADeleteOfOnePathSegment(t *testing.T) {
	rt, rec := recording(env, 200, `{"reservationId":"r/1","status":"cancelled"}`)
	result, err := functioncore.CancelReservation(background, map[string]any{"reservationId": " r/1 "}, rt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.calls) != 1 || rec.calls[0].Method != "DELETE" ||
		rec.calls[0].URL != "https://reservations.seed-library.invalid/v2/reservations/r%2F1" ||
		rec.calls[0].Headers["authorization"] != "Token "+token || rec.calls[0].Body != "" {
		t.Errorf("requests %+v", rec.calls)
	}
	if got := asJSON(t, result); got != `{"httpStatus":200,"bodyText":"{\"reservationId\":\"r/1\",\"status\":\"cancelled\"}"}` {
		t.Errorf("result %s", got)
	}
}

func TestACancellationWithoutAnIDStopsBeforeAnyRequest(t *testing.T) {
	for _, id := range []any{nil, "", "  "} {
		_, err := functioncore.CancelReservation(background, map[string]any{"reservationId": id}, runtime(env, forbidden{t}))
		var missing *functioncore.MissingInputError
		if !errors.As(err, &missing) || missing.Input != "reservationId" {
			t.Errorf("%q: error %v", id, err)
		}
	}
}

func TestACancellationUnderDryRunSendsNothing(t *testing.T) {
	result, err := functioncore.CancelReservation(background, map[string]any{"reservationId": "r-1"},
		runtime(with(map[string]string{"CODE2SKILL_DRY_RUN": "1"}), forbidden{t}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"dryRun":true,"request":{"method":"DELETE","url":"https://reservations.seed-library.invalid/v2/reservations/r-1",` +
		`"headers":{"accept":"application/json","authorization":"[credential, not shown]"}}}`
	if got := asJSON(t, result); got != want {
		t.Errorf("dry run\n got %s\nwant %s", got, want)
	}
}

func TestWithoutTheReservationServiceNothingIsSent(t *testing.T) {
	for _, missing := range []string{functioncore.ReservationsBaseURL, functioncore.ReservationsToken} {
		rt := runtime(with(map[string]string{missing: ""}), forbidden{t})
		for _, call := range []func() (any, error){
			func() (any, error) { return functioncore.ListMyReservations(background, map[string]any{}, rt) },
			func() (any, error) {
				return functioncore.CancelReservation(background, map[string]any{"reservationId": "r-1"}, rt)
			},
		} {
			_, err := call()
			var mc *functioncore.MissingConfigurationError
			if !errors.As(err, &mc) || mc.Variable != missing {
				t.Errorf("without %s: error %v", missing, err)
			}
		}
	}
}
