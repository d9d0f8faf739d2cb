package core

import (
	"github.com/code2skill/code2skill/assets"
	"testing"

	"github.com/code2skill/code2skill/internal/sandbox"
)

func TestNoteIsolation(t *testing.T) {
	c := testChecker(t, nil)
	c.noteIsolation(sandbox.Isolation{NetworkDenied: true, Detail: "user, network and PID namespaces"})
	c.noteIsolation(sandbox.Isolation{NetworkDenied: false, Detail: "later runs do not override the first"})
	wantRules(t, c)

	c = testChecker(t, nil)
	c.noteIsolation(sandbox.Isolation{NetworkDenied: false, Detail: "network not isolated: user namespaces refused"})
	wantRules(t, c, RuleNetworkOpen)
	if c.result.NetworkIsolation == nil || c.result.NetworkIsolation.NetworkDenied {
		t.Errorf("NetworkIsolation = %+v", c.result.NetworkIsolation)
	}
}

func TestAssetModified(t *testing.T) {
	reviewed := string(assets.AgentResult.Bytes())
	c := testChecker(t, map[string]string{"portable-agent-result.mjs": reviewed})
	c.checkLayout()
	if c.result.Diagnostics.Has(RuleAssetModified) {
		t.Error("the reviewed asset is reported as modified")
	}
	c = testChecker(t, map[string]string{"portable-agent-result.mjs": reviewed + "\n// local tweak\n"})
	c.checkLayout()
	if !c.result.Diagnostics.Has(RuleAssetModified) {
		t.Error("an edited copy is not reported")
	}
}
