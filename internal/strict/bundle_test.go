package strict

import (
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
)

// A strict package holds 1 to 40 capabilities; the contract format already
// refuses none.
func TestCapabilityCount(t *testing.T) {
	for n, want := range map[int]bool{40: false, 41: true} {
		c := &contract.Contract{Capabilities: make([]contract.Capability, n)}
		fired := false
		for _, d := range checkBundle(c) {
			fired = fired || d.Rule == RuleBundleCount.ID
		}
		if fired != want {
			t.Errorf("%d capabilities: STRICT_BUNDLE_TOO_MANY_CAPABILITIES fired %t, want %t", n, fired, want)
		}
	}
}

// A local implementation does not reach an open world and answers with
// successRule kind output.
func TestLocalImplementation(t *testing.T) {
	c := &contract.Contract{Capabilities: []contract.Capability{{
		ID:             "count-sample-notes",
		Implementation: contract.Implementation{Kind: contract.ImplementationLocal},
		Annotations:    contract.Annotations{At: "/capabilities/0/annotations", OpenWorldHint: true},
		SuccessRule:    contract.SuccessRule{At: "/capabilities/0/successRule", Kind: "http_status_and_output"},
	}}}
	var got []string
	for _, d := range checkBundle(c) {
		got = append(got, d.Rule+" "+d.Pointer)
	}
	want := []string{
		"STRICT_BUNDLE_OPEN_WORLD /capabilities/0/annotations/openWorldHint",
		"STRICT_BUNDLE_SUCCESS_RULE /capabilities/0/successRule/kind",
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %q, want %q", got, want)
	}
}
