package code2skill

import (
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The review Skills state their output format and vocabulary once and
// illustrate them with examples. These tests keep the examples in that
// format, so that an edit to one side (a renamed class, a new field) cannot
// leave the other behind, and keep the worked example's citations pointing
// at lines its excerpts really show.

// readSkill returns one file of a Producer Skill.
func readSkill(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(Skills(), name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// section returns the text from the line that starts with heading up to the
// next heading of the same or a higher level, skipping fenced code blocks
// (whose lines may start with #).
func section(t *testing.T, md, heading string) string {
	t.Helper()
	level := headingLevel(heading)
	var b strings.Builder
	in, fenced := false, false
	for line := range strings.Lines(md) {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced {
			if strings.HasPrefix(line, heading) {
				in = true
			} else if n := headingLevel(line); in && n > 0 && n <= level {
				break
			}
		}
		if in {
			b.WriteString(line)
		}
	}
	if !in {
		t.Fatalf("no section %q", heading)
	}
	return b.String()
}

// headingLevel returns the level of a Markdown heading line, or 0.
func headingLevel(line string) int {
	n := len(line) - len(strings.TrimLeft(line, "#"))
	if n == 0 || n >= len(line) || line[n] != ' ' {
		return 0
	}
	return n
}

// tableColumn returns the cells of column col (0-based) of the first
// Markdown table in md, header and separator rows left out.
func tableColumn(md string, col int) []string {
	var cells []string
	row := 0
	for line := range strings.Lines(md) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			if row > 0 {
				break
			}
			continue
		}
		row++
		if row <= 2 {
			continue
		}
		parts := strings.Split(strings.Trim(line, "|"), "|")
		if col < len(parts) {
			cells = append(cells, strings.TrimSpace(parts[col]))
		}
	}
	return cells
}

var boldRE = regexp.MustCompile(`\*\*([^*]+)\*\*`)

// ratings returns the impact ratings a review Skill defines: the bold terms
// from "Rate each finding" to the end of that paragraph or list.
func ratings(t *testing.T, md string) []string {
	t.Helper()
	i := strings.Index(md, "Rate each finding")
	if i < 0 {
		t.Fatal(`no "Rate each finding" paragraph`)
	}
	rest := md[i:]
	if end := strings.Index(rest, "\n\n## "); end >= 0 {
		rest = rest[:end]
	}
	var terms []string
	for _, m := range boldRE.FindAllStringSubmatch(rest, -1) {
		terms = append(terms, m[1])
	}
	if len(terms) < 3 {
		t.Fatalf("found ratings %q, want at least three", terms)
	}
	return terms
}

// codeBlockAfter returns the body of the first fenced code block after the
// first occurrence of marker in md.
func codeBlockAfter(t *testing.T, md, marker string) string {
	t.Helper()
	i := strings.Index(md, marker)
	if i < 0 {
		t.Fatalf("no %q", marker)
	}
	rest := md[i:]
	open := strings.Index(rest, "```")
	if open < 0 {
		t.Fatalf("no code block after %q", marker)
	}
	rest = rest[open:]
	rest = rest[strings.IndexByte(rest, '\n')+1:]
	end := strings.Index(rest, "```")
	if end < 0 {
		t.Fatalf("unterminated code block after %q", marker)
	}
	return rest[:end]
}

// excerpts maps each file a worked example quotes to the lines of its
// excerpt: a line starting with `file` names the file of the next code
// block.
func excerpts(md string) map[string][]string {
	out := map[string][]string{}
	var current string
	inBlock := false
	for line := range strings.Lines(md) {
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "```"):
			inBlock = !inBlock
			if !inBlock {
				current = ""
			}
		case inBlock && current != "":
			out[current] = append(out[current], line)
		case !inBlock && strings.HasPrefix(line, "`"):
			if end := strings.IndexByte(line[1:], '`'); end > 0 {
				current = line[1 : end+1]
			}
		}
	}
	return out
}

var sourceFindingRE = regexp.MustCompile(`^F(\d+) ([a-z_]+): ([a-z ]+), ([a-z ]+)$`)

// TestReviewSourceWorkedExample checks the worked review against the
// format and vocabulary code2skill-review-source states, and every location
// it cites against the excerpts it shows.
func TestReviewSourceWorkedExample(t *testing.T) {
	skill := readSkill(t, "code2skill-review-source/SKILL.md")
	example := readSkill(t, "code2skill-review-source/references/worked-example.md")
	classes := tableColumn(section(t, skill, "## 5. Classify"), 0)
	if !slices.Contains(classes, "unsafe source") || !slices.Contains(classes, "differs") {
		t.Fatalf("classes %q: want unsafe source distinct from differs", classes)
	}
	impacts := ratings(t, section(t, skill, "## 5. Classify"))
	review := codeBlockAfter(t, example, "## The review")
	files := excerpts(example)

	tools := map[string]string{} // summary table: tool → class
	for line := range strings.Lines(review) {
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if !strings.HasPrefix(line, "| ") || len(cells) != 4 || strings.TrimSpace(cells[0]) == "Tool" {
			continue
		}
		tool, class := strings.TrimSpace(cells[0]), strings.TrimSpace(cells[2])
		if !slices.Contains(classes, class) {
			t.Errorf("summary row %s: class %q is none of %q", tool, class, classes)
		}
		tools[tool] = class
	}
	if len(tools) == 0 {
		t.Fatal("the worked review has no summary table")
	}

	lines := strings.Split(review, "\n")
	fields := []string{"  package: ", "  source:  ", "  found:   ", "  fix:     "}
	findings := 0
	for i, line := range lines {
		m := sourceFindingRE.FindStringSubmatch(line)
		if m == nil {
			if strings.HasPrefix(line, "F") {
				t.Errorf("finding header %q does not read F<n> <tool>: <class>, <impact>", line)
			}
			continue
		}
		findings++
		if m[1] != strconv.Itoa(findings) {
			t.Errorf("%q: findings are numbered F1, F2, … in order", line)
		}
		if _, ok := tools[m[2]]; !ok {
			t.Errorf("%q: tool %s is not in the summary table", line, m[2])
		}
		if !slices.Contains(classes, m[3]) {
			t.Errorf("%q: class %q is none of %q", line, m[3], classes)
		}
		if !slices.Contains(impacts, m[4]) {
			t.Errorf("%q: impact %q is none of %q", line, m[4], impacts)
		}
		for j, field := range fields {
			if i+1+j >= len(lines) || !strings.HasPrefix(lines[i+1+j], field) {
				t.Errorf("%q: line %d must start %q", line, j+1, field)
				continue
			}
			if j > 1 {
				continue
			}
			for loc := range strings.SplitSeq(strings.TrimPrefix(lines[i+1+j], field), "; ") {
				checkCitation(t, files, m[0], loc)
			}
		}
	}
	if findings < 3 {
		t.Errorf("the worked review has %d findings, want one per planted problem at least", findings)
	}

	// The example in the Skill is a finding of the worked review, verbatim.
	shown := codeBlockAfter(t, section(t, skill, "## 6. Report"), "For example:")
	if !strings.Contains(review, shown) {
		t.Errorf("the example in SKILL.md is not a finding of the worked review:\n%s", shown)
	}
}

// checkCitation checks that loc, "file:line", names a line the excerpt of
// file shows.
func checkCitation(t *testing.T, files map[string][]string, finding, loc string) {
	t.Helper()
	i := strings.LastIndexByte(loc, ':')
	if i < 0 {
		t.Errorf("%s: location %q has no line", finding, loc)
		return
	}
	file, line := loc[:i], loc[i+1:]
	excerpt, ok := files[file]
	if !ok {
		t.Errorf("%s: cites %s, which the worked example does not show", finding, file)
		return
	}
	for _, l := range excerpt {
		if f := strings.Fields(l); len(f) > 0 && f[0] == line {
			return
		}
	}
	t.Errorf("%s: cites %s, but its excerpt has no line %s", finding, file, line)
}

var flowGoalRE = regexp.MustCompile(`^([a-z0-9-]+) \(([^)]+)\): (.+)$`)
var flowFindingRE = regexp.MustCompile(`^  F\d+ step \d+: (.+)$`)

// TestReviewFlowExample checks the example review of code2skill-review-flow
// against the verdicts, ratings and fields the Skill defines.
func TestReviewFlowExample(t *testing.T) {
	skill := readSkill(t, "code2skill-review-flow/SKILL.md")
	verdicts := tableColumn(section(t, skill, "## 5. Verdicts"), 0)
	if len(verdicts) != 4 {
		t.Fatalf("verdicts %q, want four", verdicts)
	}
	impacts := ratings(t, section(t, skill, "## 5. Verdicts"))
	example := codeBlockAfter(t, section(t, skill, "## 6. Report"), "For example:")

	rows := tableColumn(example, 2)
	if len(rows) < 2 {
		t.Errorf("the example table has %d rows, want one per setup of a goal whose verdict differs", len(rows))
	}
	for _, v := range rows {
		if !slices.Contains(verdicts, v) {
			t.Errorf("example row verdict %q is none of %q", v, verdicts)
		}
	}
	lines := strings.Split(example, "\n")
	var goals, findings int
	for i, line := range lines {
		if m := flowGoalRE.FindStringSubmatch(line); m != nil {
			goals++
			if !slices.Contains(verdicts, m[3]) {
				t.Errorf("%q: verdict %q is none of %q", line, m[3], verdicts)
			}
		}
		if m := flowFindingRE.FindStringSubmatch(line); m != nil {
			findings++
			if !slices.Contains(impacts, m[1]) {
				t.Errorf("%q: rating %q is none of %q", line, m[1], impacts)
			}
			for j, field := range []string{"    at:    ", "    found: ", "    fix:   "} {
				if i+1+j >= len(lines) || !strings.HasPrefix(lines[i+1+j], field) {
					t.Errorf("%q: line %d must start %q", line, j+1, field)
				}
			}
		}
	}
	if goals == 0 || findings == 0 {
		t.Errorf("the example has %d goal blocks and %d findings, want both", goals, findings)
	}
}

var linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestSkillLinksResolve: every relative link in a Producer Skill's Markdown
// leads to a file the Skill carries, so a reference it tells the agent to
// read is there once installed.
func TestSkillLinksResolve(t *testing.T) {
	links := 0
	err := fs.WalkDir(Skills(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		b, err := fs.ReadFile(Skills(), p)
		if err != nil {
			return err
		}
		for _, m := range linkRE.FindAllStringSubmatch(string(b), -1) {
			dest := m[1]
			if strings.Contains(dest, "://") || strings.HasPrefix(dest, "#") {
				continue
			}
			dest, _, _ = strings.Cut(dest, "#")
			links++
			if _, err := fs.Stat(Skills(), path.Join(path.Dir(p), dest)); err != nil {
				t.Errorf("%s links to %s, which the Skill does not carry", p, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if links == 0 {
		t.Error("no relative link found; the walk found nothing to check")
	}
}
