package tests

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	functioncore "seed-library/function-core"
)

// Two anonymous records as search_seed_varieties returns them. The second
// has no lot code: switching to it must not carry the first record's lot
// along.
var (
	firstRecord  = map[string]any{"varietyId": "var-0001", "lotCode": "lot-a", "name": "Variety one", "packetsAvailable": 4.0}
	secondRecord = map[string]any{"varietyId": "var-0002", "name": "Variety two", "packetsAvailable": 9.0}
)

func TestTheSelectedRecordSwitchesCompletelyBetweenCalls(t *testing.T) {
	rt, rec := recording(env, 201, `{"reservationId":"r-1"}`)
	for _, input := range []map[string]any{
		{"selectedVariety": firstRecord, "packetCount": 2.0, "pickupDate": "2026-04-03", "pickupTime": "9:30"},
		{"selectedVariety": secondRecord, "packetCount": "1", "pickupDate": "2026-04-04"},
	} {
		if _, err := functioncore.ReserveSeedPackets(background, input, rt); err != nil {
			t.Fatal(err)
		}
	}
	if len(rec.calls) != 2 {
		t.Fatalf("%d requests", len(rec.calls))
	}
	if got := rec.calls[0].Body; got != `{"reservation":{"variety_id":"var-0001","lot_code":"lot-a","packet_count":2,"pickup_at":"2026-04-03T09:30:00"}}` {
		t.Errorf("first body %s", got)
	}
	if got := rec.calls[1].Body; got != `{"reservation":{"variety_id":"var-0002","packet_count":1,"pickup_at":"2026-04-04T00:00:00"}}` {
		t.Errorf("second body %s", got)
	}
	if strings.Contains(rec.calls[1].Body, "lot-a") {
		t.Error("the second request still carries the first record")
	}
}

func TestAReservationIsAPostAsTheMember(t *testing.T) {
	rt, rec := recording(env, 201, `{"reservationId":"r-2"}`)
	result, err := functioncore.ReserveSeedPackets(background, map[string]any{
		"selectedVariety": firstRecord, "packetCount": 1.0, "pickupDate": "2026-05-01", "note": " for the school garden ",
	}, rt)
	if err != nil {
		t.Fatal(err)
	}
	want := []recorded{{
		Method:  "POST",
		URL:     "https://reservations.seed-library.invalid/v2/reservations",
		Headers: map[string]string{"accept": "application/json", "authorization": "Token " + token, "content-type": "application/json"},
		Body:    `{"reservation":{"variety_id":"var-0001","lot_code":"lot-a","packet_count":1,"pickup_at":"2026-05-01T00:00:00","member_note":"for the school garden"}}`,
	}}
	if !reflect.DeepEqual(rec.calls, want) {
		t.Errorf("requests\n got %+v\nwant %+v", rec.calls, want)
	}
	if got := asJSON(t, result); got != `{"httpStatus":201,"bodyText":"{\"reservationId\":\"r-2\"}"}` {
		t.Errorf("result %s", got)
	}
}

func TestARejectionIsPassedThrough(t *testing.T) {
	rt, _ := recording(env, 409, `{"error":"only 4 packets left"}`)
	result, err := functioncore.ReserveSeedPackets(background, map[string]any{"selectedVariety": firstRecord, "packetCount": 5.0}, rt)
	if err != nil {
		t.Fatal(err)
	}
	if got := asJSON(t, result); got != `{"httpStatus":409,"bodyText":"{\"error\":\"only 4 packets left\"}"}` {
		t.Errorf("result %s", got)
	}
}

func TestADryRunReturnsTheRequestAndSendsNothing(t *testing.T) {
	result, err := functioncore.ReserveSeedPackets(background, map[string]any{
		"selectedVariety": firstRecord, "packetCount": 3.0, "pickupDate": "2026-04-03", "pickupTime": "14:05",
	}, runtime(with(map[string]string{"CODE2SKILL_DRY_RUN": "1"}), forbidden{t}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"dryRun":true,"request":{"method":"POST","url":"https://reservations.seed-library.invalid/v2/reservations",` +
		`"headers":{"accept":"application/json","authorization":"[credential, not shown]","content-type":"application/json"},` +
		`"body":{"reservation":{"variety_id":"var-0001","lot_code":"lot-a","packet_count":3,"pickup_at":"2026-04-03T14:05:00"}}}}`
	if got := asJSON(t, result); got != want {
		t.Errorf("dry run\n got %s\nwant %s", got, want)
	}
}

func TestAMissingTokenStopsBeforeAnyRequest(t *testing.T) {
	_, err := functioncore.ReserveSeedPackets(background, map[string]any{"selectedVariety": firstRecord, "packetCount": 1.0},
		runtime(with(map[string]string{functioncore.ReservationsToken: ""}), forbidden{t}))
	var missing *functioncore.MissingConfigurationError
	if !errors.As(err, &missing) || missing.Variable != functioncore.ReservationsToken || strings.Contains(err.Error(), token) {
		t.Fatalf("error %v", err)
	}
}

func TestARecordWithoutItsVarietyIDStopsBeforeAnyRequest(t *testing.T) {
	for _, selected := range []any{nil, map[string]any{}, map[string]any{"lotCode": "lot-a"}, map[string]any{"varietyId": " "}} {
		for _, dryRun := range []string{"0", "1"} {
			_, err := functioncore.ReserveSeedPackets(background, map[string]any{"selectedVariety": selected, "packetCount": 1.0},
				runtime(with(map[string]string{"CODE2SKILL_DRY_RUN": dryRun}), forbidden{t}))
			var missing *functioncore.MissingInputError
			if !errors.As(err, &missing) || missing.Input != "selectedVariety.varietyId" {
				t.Errorf("%v (dry run %s): error %v", selected, dryRun, err)
			}
		}
	}
}

func TestPickupDateAndTimeJoinIntoOneTimestamp(t *testing.T) {
	for _, c := range []struct {
		date, clock any
		want        any
	}{
		{"2026-04-03", "9:30", "2026-04-03T09:30:00"},
		{"2026-04-03", "09:30:15", "2026-04-03T09:30:15"},
		{"2026-04-03", nil, "2026-04-03T00:00:00"},
		{nil, "10:00", nil},
	} {
		if got := functioncore.PickupTimestamp(c.date, c.clock); got != c.want {
			t.Errorf("%v + %v: got %v, want %v", c.date, c.clock, got, c.want)
		}
	}
}
