package core

import (
	"testing"

	"github.com/code2skill/code2skill/internal/sandbox"
)

func TestNoteIsolation(t *testing.T) {
	c := newChecker(t, nil)
	c.noteIsolation(sandbox.Isolation{NetworkDenied: true, Detail: "user, network and PID namespaces"})
	c.noteIsolation(sandbox.Isolation{NetworkDenied: false, Detail: "later runs do not override the first"})
	wantRules(t, c)

	c = newChecker(t, nil)
	c.noteIsolation(sandbox.Isolation{NetworkDenied: false, Detail: "network not isolated: user namespaces refused"})
	wantRules(t, c, RuleNetworkOpen)
	if c.result.NetworkIsolation == nil || c.result.NetworkIsolation.NetworkDenied {
		t.Errorf("NetworkIsolation = %+v", c.result.NetworkIsolation)
	}
}
