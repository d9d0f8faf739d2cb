package strict

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// maxDocumentSize bounds how much of one document is read: the largest
// documents of a package are a few tens of kilobytes.
const maxDocumentSize = 4 << 20

// checkDocuments checks the four documents of a package against the facts.
// read returns a document's bytes, or ok false when it could not be read
// (the reader reports why).
func checkDocuments(f *facts, read func(file string) ([]byte, bool)) []diag.Diagnostic {
	var out []diag.Diagnostic
	if data, ok := read(SkillFile); ok {
		out = append(out, checkSkill(parseDocument(SkillFile, data), data, f)...)
	}
	if data, ok := read(MCPDocFile); ok {
		out = append(out, checkMCPDoc(parseDocument(MCPDocFile, data), f)...)
	}
	if data, ok := read(SetupFile); ok {
		out = append(out, checkSetup(parseDocument(SetupFile, data), f)...)
	}
	if data, ok := read(ContextFile); ok {
		out = append(out, checkContext(parseDocument(ContextFile, data), f)...)
	}
	return out
}

// A toolSectionRule says how a document gives each Tool its own section:
// the heading level, how many Chinese characters and which topics the
// section needs, and the rules that report a missing or thin section.
type toolSectionRule struct {
	level            int
	minCJK           int
	topics           []topic
	missing, lacking *diag.Rule
}

// toolSection finds the section of Tool t and checks its size and topics. It
// returns the section, its text and its first line, and found false, with
// the finding, when there is none.
func (r toolSectionRule) toolSection(d *document, t *toolFacts) (b block, text string, line int, found bool, out []diag.Diagnostic) {
	i := d.FindHeading(r.level, func(title string) bool { return strings.Contains(title, code(t.name)) })
	if i < 0 {
		return block{}, "", 0, false, []diag.Diagnostic{r.missing.New(d.file, "has no \"%s …%s…\" section for the Tool", strings.Repeat("#", r.level), code(t.name))}
	}
	b = d.Section(i)
	text = d.TextOf(b)
	line = lineOf(b.Start)
	var gaps []string
	if n := countCJK(text); n < r.minCJK {
		gaps = append(gaps, fmt.Sprintf("%s (at least %d)", plural(n, "Chinese character"), r.minCJK))
	}
	gaps = append(gaps, missing(text, r.topics)...)
	if len(gaps) > 0 {
		out = append(out, r.lacking.New(d.file, "the section of %s lacks %s", code(t.name), strings.Join(gaps, "; ")).At(line, 0))
	}
	return b, text, line, true, out
}
