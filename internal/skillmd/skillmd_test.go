package skillmd

import (
	"fmt"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/google/go-cmp/cmp"
)

// findings returns "RULE@line:col" for each diagnostic, after checking
// that it is about file and has the severity of its rule.
func findings(t *testing.T, file string, diags []diag.Diagnostic) []string {
	t.Helper()
	out := []string{}
	for _, d := range diags {
		r, ok := diag.Lookup(d.Rule)
		if !ok || r.Severity != d.Severity || d.File != file || d.Message == "" {
			t.Errorf("malformed finding %+v", d)
		}
		out = append(out, fmt.Sprintf("%s@%d:%d", d.Rule, d.Line, d.Column))
	}
	return out
}

// lint parses and checks one SKILL.md.
func lint(t *testing.T, file, src string) []string {
	t.Helper()
	s, diags := Parse(file, []byte(src))
	if s != nil {
		diags = append(diags, s.Check()...)
	}
	return findings(t, file, diags)
}

const validSkill = `---
name: reserve-plot
description: Reserves a free plot of the community garden for a member. Use when a member asks for a plot.
license: MIT
compatibility: Needs node 20 and the garden-plots MCP server
allowed-tools: Read Bash(node:*)
metadata:
  author: garden-team
  version: "1.0"
---
# Reserve a plot

Read [the plot rules](references/rules.md) first, and see
![the map](assets/map.png "Map"), [the service](https://garden.example/plots#free)
or [this section](#steps).

[rules]: references/rules.md
`

func TestParseFrontmatter(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"valid", validSkill, []string{}},
		{"crlf", strings.ReplaceAll(validSkill, "\n", "\r\n"), []string{}},
		{"empty file", "", []string{"SKILL_FRONTMATTER_MISSING@1:1"}},
		{"no frontmatter", "# Reserve a plot\n", []string{"SKILL_FRONTMATTER_MISSING@1:1"}},
		{"byte order mark", "\ufeff---\nname: a\ndescription: b\n---\n", []string{"SKILL_FRONTMATTER_MISSING@1:1"}},
		{"text after the opening dashes", "--- \nname: a\ndescription: b\n---\n", []string{"SKILL_FRONTMATTER_MISSING@1:1"}},
		{"leading blank line", "\n---\nname: a\ndescription: b\n---\n", []string{"SKILL_FRONTMATTER_MISSING@1:1"}},
		{"unterminated", "---\nname: a\ndescription: b\n# Body\n", []string{"SKILL_FRONTMATTER_UNTERMINATED@1:1"}},
		{"invalid YAML", "---\nname: a\ndescription: b: c\n---\n", []string{"SKILL_FRONTMATTER_YAML@3:0"}},
		{"unclosed bracket", "---\nname: a\nallowed-tools: [Read\ndescription: b\n---\n", []string{"SKILL_FRONTMATTER_YAML@3:0"}}, // where the bracket opens
		{"tab indentation", "---\nname: a\n\tdescription: b\n---\n", []string{"SKILL_FRONTMATTER_YAML@3:0"}},
		{"unknown anchor", "---\nname: a\ndescription: *nope\n---\n", []string{"SKILL_FRONTMATTER_YAML@3:0"}},
		{"a list", "---\n- name: a\n---\n", []string{"SKILL_FRONTMATTER_NOT_MAPPING@2:1"}},
		{"a scalar", "---\njust text\n---\n", []string{"SKILL_FRONTMATTER_NOT_MAPPING@2:1"}},
		{"duplicate key", "---\nname: a\ndescription: b\nname: c\n---\n", []string{"SKILL_FRONTMATTER_YAML@4:1"}},
		{"closing dashes with trailing space", "---\nname: a\ndescription: b\n--- \nbody\n", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, diags := Parse("SKILL.md", []byte(tc.src))
			if got := findings(t, "SKILL.md", diags); !cmp.Equal(got, tc.want) {
				t.Errorf("Parse findings = %v, want %v", got, tc.want)
			}
			if (s == nil) != (len(tc.want) > 0 && !strings.Contains(tc.name, "duplicate")) {
				t.Errorf("Parse returned skill %v with findings %v", s, diags)
			}
		})
	}
}

func TestParseFields(t *testing.T) {
	s, diags := Parse("skills/reserve-plot/SKILL.md", []byte(validSkill))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if s.Name != "reserve-plot" || !strings.HasPrefix(s.Description, "Reserves a free plot") {
		t.Errorf("Name, Description = %q, %q", s.Name, s.Description)
	}
	if s.BodyLine != 11 || !strings.HasPrefix(string(s.Body), "# Reserve a plot\n") {
		t.Errorf("BodyLine = %d, Body = %q", s.BodyLine, s.Body)
	}
	if s.Folder() != "reserve-plot" {
		t.Errorf("Folder() = %q", s.Folder())
	}
	for file, want := range map[string]string{"SKILL.md": "", "skills/a/SKILL.md": "a", "skills/a/b/SKILL.md": "", "other/a/SKILL.md": "", "skills/a/README.md": ""} {
		if got := (&Skill{File: file}).Folder(); got != want {
			t.Errorf("Folder of %s = %q, want %q", file, got, want)
		}
	}
}

// skill builds a SKILL.md from frontmatter lines and a body.
func skill(frontmatter, body string) string {
	return "---\n" + frontmatter + "---\n" + body
}

func TestCheck(t *testing.T) {
	const nd = "name: reserve-plot\ndescription: Reserves a plot.\n"
	long := func(n int, s string) string { return strings.Repeat(s, n) }
	for _, tc := range []struct {
		name, file, src string
		want            []string
	}{
		{"valid", "SKILL.md", validSkill, []string{}},
		{"valid nested", "skills/reserve-plot/SKILL.md", validSkill, []string{}},
		{"minimal", "SKILL.md", skill(nd, ""), []string{}},
		{"empty frontmatter", "SKILL.md", skill("", "# Body\n"), []string{"SKILL_NAME_MISSING@1:1", "SKILL_DESCRIPTION_MISSING@1:1"}},
		{"comment-only frontmatter", "SKILL.md", skill("# nothing\n", ""), []string{"SKILL_NAME_MISSING@1:1", "SKILL_DESCRIPTION_MISSING@1:1"}},

		{"name number", "SKILL.md", skill("name: 123\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name null", "SKILL.md", skill("name:\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:6"}},
		{"name empty string", "SKILL.md", skill("name: ''\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name uppercase", "SKILL.md", skill("name: Reserve-Plot\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name underscore", "SKILL.md", skill("name: reserve_plot\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name non-ASCII letter", "SKILL.md", skill("name: réserve\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name leading hyphen", "SKILL.md", skill("name: -plot\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name trailing hyphen", "SKILL.md", skill("name: plot-\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name double hyphen", "SKILL.md", skill("name: reserve--plot\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name 65 characters", "SKILL.md", skill("name: "+long(65, "a")+"\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},
		{"name 64 characters", "SKILL.md", skill("name: "+long(64, "a")+"\ndescription: d\n", ""), []string{}},
		{"name through an alias", "SKILL.md", skill("metadata:\n  id: &n reserve-plot\nname: *n\ndescription: d\n", ""), []string{}},

		{"description number", "SKILL.md", skill("name: a\ndescription: 42\n", ""), []string{"SKILL_DESCRIPTION_INVALID@3:14"}},
		{"description blank", "SKILL.md", skill("name: a\ndescription: '  '\n", ""), []string{"SKILL_DESCRIPTION_INVALID@3:14"}},
		{"description list", "SKILL.md", skill("name: a\ndescription:\n  - x\n", ""), []string{"SKILL_DESCRIPTION_INVALID@4:3"}},
		{"description 1025 characters", "SKILL.md", skill("name: a\ndescription: "+long(1025, "x")+"\n", ""), []string{"SKILL_DESCRIPTION_INVALID@3:14"}},
		{"description 1024 characters", "SKILL.md", skill("name: a\ndescription: "+long(1024, "x")+"\n", ""), []string{}},
		{"description counts characters, not bytes", "SKILL.md", skill("name: a\ndescription: "+long(1024, "预")+"\n", ""), []string{}},
		{"folded description", "SKILL.md", skill("name: a\ndescription: >-\n  Reserves a plot.\n  Use when asked.\n", ""), []string{}},

		{"unknown key", "SKILL.md", skill(nd+"version: 1.0\nauthor: x\n", ""), []string{"SKILL_FIELD_UNKNOWN@4:1", "SKILL_FIELD_UNKNOWN@5:1"}},
		{"non-string key", "SKILL.md", skill(nd+"? [a, b]\n: c\n", ""), []string{"SKILL_FIELD_UNKNOWN@4:3"}},
		{"merge key", "SKILL.md", skill(nd+"<<: {license: MIT}\n", ""), []string{"SKILL_FIELD_UNKNOWN@4:1"}},

		{"license number", "SKILL.md", skill(nd+"license: 2\n", ""), []string{"SKILL_FIELD_INVALID@4:10"}},
		{"compatibility empty", "SKILL.md", skill(nd+"compatibility: ''\n", ""), []string{"SKILL_FIELD_INVALID@4:16"}},
		{"compatibility 501 characters", "SKILL.md", skill(nd+"compatibility: "+long(501, "c")+"\n", ""), []string{"SKILL_FIELD_INVALID@4:16"}},
		{"compatibility 500 characters", "SKILL.md", skill(nd+"compatibility: "+long(500, "c")+"\n", ""), []string{}},
		{"metadata string", "SKILL.md", skill(nd+"metadata: v1\n", ""), []string{"SKILL_FIELD_INVALID@4:11"}},
		{"metadata number value", "SKILL.md", skill(nd+"metadata:\n  version: 1.0\n", ""), []string{"SKILL_FIELD_INVALID@5:12"}},
		{"metadata nested value", "SKILL.md", skill(nd+"metadata:\n  owner:\n    team: x\n", ""), []string{"SKILL_FIELD_INVALID@6:5"}},
		{"allowed-tools list", "SKILL.md", skill(nd+"allowed-tools:\n  - Read\n  - Bash(git:*)\n", ""), []string{}},
		{"allowed-tools mapping", "SKILL.md", skill(nd+"allowed-tools: {Read: true}\n", ""), []string{"SKILL_FIELD_INVALID@4:16"}},
		{"allowed-tools list of numbers", "SKILL.md", skill(nd+"allowed-tools: [Read, 7]\n", ""), []string{"SKILL_FIELD_INVALID@4:23"}},

		{"folder mismatch", "skills/book-plot/SKILL.md", skill(nd, ""), []string{"SKILL_NAME_FOLDER_MISMATCH@2:7"}},
		{"root skill has no folder to match", "SKILL.md", skill("name: anything\ndescription: d\n", ""), []string{}},
		{"invalid name is not compared", "skills/book-plot/SKILL.md", skill("name: Book\ndescription: d\n", ""), []string{"SKILL_NAME_INVALID@2:7"}},

		{"body of 501 lines", "SKILL.md", skill(nd, long(501, "line\n")), []string{"SKILL_BODY_TOO_LONG@505:1"}},
		{"body of 500 lines", "SKILL.md", skill(nd, long(500, "line\n")), []string{}},
		{"body of 501 lines without final newline", "SKILL.md", skill(nd, long(500, "line\n")+"last"), []string{"SKILL_BODY_TOO_LONG@505:1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, lint(t, tc.file, tc.src)); diff != "" {
				t.Errorf("findings (-want +got)\n%s", diff)
			}
		})
	}
}

func TestRootSkillFolderMismatch(t *testing.T) {
	src := []byte(skill("name: reserve-plot\ndescription: d\n", ""))
	s, _ := Parse("SKILL.md", src)
	if diags := s.Check(); len(diags) != 0 {
		t.Errorf("without a known package folder: %v", diags)
	}
	s.PackageFolder = "reserve-plot"
	if diags := s.Check(); len(diags) != 0 {
		t.Errorf("in its own folder: %v", diags)
	}
	s.PackageFolder = "plots"
	diags := s.Check()
	if len(diags) != 1 || diags[0].Rule != RuleNamePackageFolder.ID || diags[0].Severity != diag.Warning || diags[0].Line != 2 || !strings.Contains(diags[0].Message, `"plots"`) {
		t.Errorf("in the folder plots: %v", diags)
	}
}

func TestFolderMismatchNamesTheInstalledName(t *testing.T) {
	s, _ := Parse("skills/book-plot/SKILL.md", []byte(skill("name: reserve-plot\ndescription: d\n", "")))
	diags := s.Check()
	if len(diags) != 1 || diags[0].Severity != diag.Error ||
		!strings.Contains(diags[0].Message, `installs it as "reserve-plot"`) || !strings.Contains(diags[0].Message, `"book-plot"`) {
		t.Errorf("Check() = %v", diags)
	}
}

func TestCheckReferences(t *testing.T) {
	const file = "skills/reserve-plot/SKILL.md"
	head := skill("name: reserve-plot\ndescription: d\n", "") // the body starts on line 5
	for _, tc := range []struct {
		name, body string
		want       []string
	}{
		{"in-folder links", "See [rules](references/rules.md), ![map](./assets/map.png) and [up and back](references/../assets/x.md).\n", []string{}},
		{"absolute URLs and fragments", "[site](https://garden.example/a/../b) [mail](mailto:a@garden.example) [top](#top) <https://garden.example/../x> [proto](//cdn.example/x.js)\n", []string{}},
		{"parent link", "See [the contracts](../references/contracts.md).\n", []string{"SKILL_REFERENCE_OUTSIDE@5:21"}},
		{"image", "![map](../../assets/map.png)\n", []string{"SKILL_REFERENCE_OUTSIDE@5:8"}},
		{"link climbing out through a subfolder", "[x](references/../../other/SKILL.md)\n", []string{"SKILL_REFERENCE_OUTSIDE@5:5"}},
		{"angle-bracket destination", "[x](<../a b.md>)\n", []string{"SKILL_REFERENCE_OUTSIDE@5:6"}},
		{"percent-encoded", "[x](%2e%2e/a.md)\n", []string{"SKILL_REFERENCE_OUTSIDE@5:5"}},
		{"absolute path", "[x](/home/author/notes.md)\n", []string{"SKILL_REFERENCE_OUTSIDE@5:5"}},
		{"link definition", "[contracts]: ../references/contracts.md\n", []string{"SKILL_REFERENCE_OUTSIDE@5:14"}},
		{"HTML", "<img src=\"../assets/map.png\"> <a href='../x.md'>x</a>\n", []string{"SKILL_REFERENCE_OUTSIDE@5:11", "SKILL_REFERENCE_OUTSIDE@5:40"}},
		{"textual path", "Read ../references/feature-context.md before calling.\n", []string{"SKILL_REFERENCE_OUTSIDE@5:6"}},
		{"path in code", "```sh\nnode ../../mcp-tool/index.mjs\n```\nor `../../function-core/index.mjs`.\n", []string{"SKILL_REFERENCE_OUTSIDE@6:6", "SKILL_REFERENCE_OUTSIDE@8:5"}},
		{"dot-slash prefix", "Run ./../scripts/x.sh\n", []string{"SKILL_REFERENCE_OUTSIDE@5:5"}},
		{"link and text on one line", "[a](../a.md) and ../b.md\n", []string{"SKILL_REFERENCE_OUTSIDE@5:5", "SKILL_REFERENCE_OUTSIDE@5:18"}},
		{"frontmatter is not body", "", []string{}},
		{"ellipsis and two dots", "Wait... then go on. Versions 1..3 and a/../b are fine.\n", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, lint(t, file, head+tc.body)); diff != "" {
				t.Errorf("findings (-want +got)\n%s", diff)
			}
		})
	}
	// A root SKILL.md is its package's folder: ../ leaves the package.
	if got := lint(t, "SKILL.md", head+"[x](../sibling/README.md)\n"); !cmp.Equal(got, []string{"SKILL_REFERENCE_OUTSIDE@5:5"}) {
		t.Errorf("root skill findings = %v", got)
	}
}

func TestCheckUnique(t *testing.T) {
	parse := func(file, name string) *Skill {
		s, diags := Parse(file, []byte(skill("description: d\nname: "+name+"\n", "")))
		if s == nil {
			t.Fatal(diags)
		}
		return s
	}
	skills := []*Skill{
		parse("skills/a/SKILL.md", "reserve-plot"),
		parse("skills/b/SKILL.md", "list-plots"),
		parse("skills/c/SKILL.md", "reserve-plot"),
		parse("skills/d/SKILL.md", "Reserve Plot"), // invalid (Check says so), and installs as reserve-plot
		parse("skills/e/SKILL.md", "Bad Name"),
		parse("skills/f/SKILL.md", "bad_name"), // a different directory: _ is kept
		nil,
	}
	diags := CheckUnique(skills)
	var got []string
	for _, d := range diags {
		got = append(got, fmt.Sprintf("%s@%s:%d:%d %s", d.Rule, d.File, d.Line, d.Column, d.Message))
	}
	want := []string{
		`SKILL_NAME_DUPLICATE@skills/a/SKILL.md:3:7 skill name "reserve-plot" is also used by skills/c/SKILL.md, skills/d/SKILL.md: both install into the directory "reserve-plot"`,
		`SKILL_NAME_DUPLICATE@skills/c/SKILL.md:3:7 skill name "reserve-plot" is also used by skills/a/SKILL.md, skills/d/SKILL.md: both install into the directory "reserve-plot"`,
		`SKILL_NAME_DUPLICATE@skills/d/SKILL.md:3:7 skill name "Reserve Plot" is also used by skills/a/SKILL.md, skills/c/SKILL.md: both install into the directory "reserve-plot"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if diags := CheckUnique(skills[:2]); len(diags) != 0 {
		t.Errorf("distinct names: %v", diags)
	}
}
