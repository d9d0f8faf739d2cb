package skillmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/testnode"
)

// errorsOf returns the rule IDs of the error findings Parse and Check
// report about src.
func errorsOf(file string, src []byte) []string {
	s, diags := Parse(file, src)
	if s != nil {
		diags = append(diags, s.Check()...)
	}
	var ids []string
	for _, d := range diags {
		if d.Severity == diag.Error {
			ids = append(ids, d.Rule)
		}
	}
	return ids
}

// TestSkillsRefAgrees runs the Agent Skills reference validator (skills-ref,
// pinned in package.json) on the same skills as Parse and Check, in one node
// process, and compares verdicts. Where the two disagree on purpose, the
// case says so and why.
func TestSkillsRefAgrees(t *testing.T) {
	testnode.Node(t)
	testnode.Modules(t)
	front := func(fm string) string { return "---\n" + fm + "---\n# Body\n" }
	const d = "description: Reserves a plot.\n"
	type testCase struct {
		dir, src string
		refValid bool   // what skills-ref decides
		ours     bool   // what Parse and Check decide (no errors)
		why      string // why they differ, when they do
	}
	cases := []testCase{
		{"reserve-plot", validSkill, true, true, ""},
		{"upper-Plot", front("name: upper-Plot\n" + d), false, false, ""},
		{"plot-", front("name: plot-\n" + d), false, false, ""},
		{"reserve--plot", front("name: reserve--plot\n" + d), false, false, ""},
		{"under_score", front("name: under_score\n" + d), false, false, ""},
		{strings.Repeat("a", 65), front("name: " + strings.Repeat("a", 65) + "\n" + d), false, false, ""},
		{strings.Repeat("a", 64), front("name: " + strings.Repeat("a", 64) + "\n" + d), true, true, ""},
		{"no-name", front(d), false, false, ""},
		{"no-description", front("name: no-description\n"), false, false, ""},
		{"blank-description", front("name: blank-description\ndescription: '  '\n"), false, false, ""},
		{"long-description", front("name: long-description\ndescription: " + strings.Repeat("x", 1025) + "\n"), false, false, ""},
		{"max-description", front("name: max-description\ndescription: " + strings.Repeat("x", 1024) + "\n"), true, true, ""},
		{"unknown-key", front("name: unknown-key\n" + d + "version: 1\n"), false, false, ""},
		{"long-compatibility", front("name: long-compatibility\n" + d + "compatibility: " + strings.Repeat("c", 501) + "\n"), false, false, ""},
		{"max-compatibility", front("name: max-compatibility\n" + d + "compatibility: " + strings.Repeat("c", 500) + "\n"), true, true, ""},
		{"bad-yaml", front("name: bad-yaml\ndescription: a: b\n"), false, false, ""},
		{"a-list", front("- name: a-list\n"), false, false, ""},
		{"no-frontmatter", "# Just a body\n", false, false, ""},
		{"unterminated", "---\nname: unterminated\n" + d, false, false, ""},
		{"folded-description", front("name: folded-description\ndescription: >-\n  Reserves a plot.\n  Use when asked.\n"), true, true, ""},

		{"book-plot", front("name: reserve-plot\n" + d), false, false, ""},
		{"numeric-metadata", front("name: numeric-metadata\n" + d + "metadata:\n  version: 1.0\n"), true, false,
			"metadata values must be strings (the specification); skills-ref converts them"},
		{"123", front("name: 123\n" + d), true, false,
			"a name must be a YAML string; skills-ref turns the number 123 into \"123\""},
		{"réserve", front("name: réserve\n" + d), true, false,
			"names are a-z, 0-9 and hyphens here; skills-ref also accepts other lowercase letters"},
		{"outside-link", front("name: outside-link\n"+d) + "[x](../other/README.md)\n", true, false,
			"skills-ref does not look at the body; an installed skill cannot reach ../"},
		{"spaced-dashes", "--- \nname: spaced-dashes\n" + d + "---\n", true, false,
			"the skills CLI only sees a frontmatter opened by exactly ---"},
	}

	root := t.TempDir()
	var dirs []string
	for _, tc := range cases {
		dir := filepath.Join(root, tc.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	verdicts := testnode.SkillsRef(t, root, dirs...)

	for i, tc := range cases {
		refErrors, ok := verdicts[dirs[i]]
		if !ok {
			t.Errorf("%s: skills-ref gave no verdict", tc.dir)
			continue
		}
		src := []byte(tc.src)
		ours := errorsOf("skills/"+tc.dir+"/SKILL.md", src)
		if (len(refErrors) == 0) != tc.refValid {
			t.Errorf("%s: skills-ref says %q, want valid=%v", tc.dir, refErrors, tc.refValid)
		}
		if (len(ours) == 0) != tc.ours {
			t.Errorf("%s: Parse and Check say %v, want valid=%v", tc.dir, ours, tc.ours)
		}
		if (tc.refValid != tc.ours) != (tc.why != "") {
			t.Errorf("%s: a disagreement needs a reason, an agreement none", tc.dir)
		}
	}
}
