package core

import (
	"testing"

	"github.com/code2skill/code2skill/assets"

	"github.com/code2skill/code2skill/internal/sandbox"
)

func TestNoteIsolation(t *testing.T) {
	confined := sandbox.Isolation{Level: sandbox.LevelConfined, FileSystem: true, NetworkDenied: true, Processes: true, Detail: "user, mount, network, PID and IPC namespaces"}
	c := testChecker(t, nil)
	c.noteIsolation(confined)
	c.noteIsolation(confined)
	c.reportIsolation()
	wantRules(t, c)

	// The weakest of the package's processes is what the report says.
	c = testChecker(t, nil)
	c.noteIsolation(confined)
	c.noteIsolation(sandbox.Isolation{Level: sandbox.LevelNone, Detail: "no namespaces: user namespaces refused"})
	c.noteIsolation(confined)
	c.reportIsolation()
	wantRules(t, c, RuleNetworkOpen, sandbox.RuleNotConfined)
	if c.result.Isolation == nil || c.result.Isolation.Level != sandbox.LevelNone {
		t.Errorf("Isolation = %+v, want the weakest", c.result.Isolation)
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
