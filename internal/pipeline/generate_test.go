package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/strict"
)

// TestGenerateKeepsTheMarkerOfAStaleDocument: a document that states a
// bound the contract does not hold keeps its old marker, generate fails
// with the statement at its line, and the documents that agree are
// refreshed; once the statement is corrected, generate refreshes it too.
func TestGenerateKeepsTheMarkerOfAStaleDocument(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	skill := filepath.Join(fx.dir, "SKILL.md")
	stale := voucherDocuments["SKILL.md"] + "\n`redeem_voucher` 的 `credit` 不小于 1。\n"
	writeFile(t, skill, stale)
	fx.init(InitOptions{})
	rep := fx.run(RunOptions{})
	if fx.statuses()[StageGenerate] != StatusFailed {
		t.Fatalf("generate over a stale document: %v", fx.statuses())
	}
	found := false
	for _, d := range rep.Findings.Sorted() {
		if d.Rule == strict.RuleDocStaleBound.ID && d.File == "SKILL.md" && d.Line == 7 {
			found = true
		}
	}
	if !found {
		t.Errorf("want %s at SKILL.md:7 among %v", strict.RuleDocStaleBound.ID, rep.Findings.Sorted())
	}
	if data, _ := os.ReadFile(skill); string(data) != stale {
		t.Errorf("generate re-marked the stale document:\n%s", data)
	}
	marker := derive.Marker(viewsOf(t, fx.dir))
	if data, _ := os.ReadFile(filepath.Join(fx.dir, "MCP.zh-CN.md")); !strings.Contains(string(data), marker) {
		t.Errorf("the document that agrees was not refreshed:\n%s", data)
	}

	writeFile(t, skill, strings.Replace(stale, "不小于 1", "不小于 0", 1))
	fx.run(RunOptions{})
	if fx.statuses()[StageGenerate] == StatusFailed {
		t.Fatalf("generate over the corrected document: %v", fx.statuses())
	}
	if data, _ := os.ReadFile(skill); !strings.Contains(string(data), marker) {
		t.Errorf("the corrected document was not refreshed:\n%s", data)
	}
}
