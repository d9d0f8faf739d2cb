package core

import (
	"slices"
	"testing"
)

func TestAuditFiles(t *testing.T) {
	c := testChecker(t, map[string]string{
		"PAGE.md":                               "# the page",
		"skills/find/PAGE.md":                   "# the page",
		"function-core/validation-receipt.json": "{}",
		"export-manifest.json":                  "{}",
		"release-manifest.json":                 "{}",
		"verification/results/search.json":      "{}",
		"verification/logs/search.log":          "",
		"evidence/live.json":                    "{}",
		"references/capability-contracts.json":  "{}",
		"mcp-tool/schema-contract.json":         "{}",
		"function-core/index.mjs":               "export {};",
		"package.json":                          "{}",
		"package-lock.json":                     "{}",
		"tests/search.test.mjs":                 "",
		"references/feature-context.md":         "# context",
	})
	c.checkAuditFiles()
	var got []string
	for _, d := range c.result.Diagnostics.Sorted() {
		if d.Rule != RuleAuditFile.ID {
			t.Errorf("unexpected %s", d)
		}
		got = append(got, d.File)
	}
	want := []string{
		"PAGE.md",
		"evidence",
		"function-core/validation-receipt.json",
		"mcp-tool/schema-contract.json",
		"references/capability-contracts.json",
		"release-manifest.json",
		"skills/find/PAGE.md",
		"verification",
	}
	// export-manifest.json is a strict file, reported by the layout check.
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("reported %v\nwant     %v", got, want)
	}
}

func TestAuditFilesNoneInTheExample(t *testing.T) {
	c := testChecker(t, map[string]string{
		"SKILL.md":                      "---\nname: pkg\n---\n",
		"references/feature-context.md": "# context",
		"package-lock.json":             "{}",
		"tests/verification.test.mjs":   "",
	})
	c.checkAuditFiles()
	if c.result.Diagnostics.Len() != 0 {
		t.Errorf("findings: %v", findings(c))
	}
}
