package strict

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// maxDocumentSize bounds how much of one document is read: the largest
// documents of a package are a few tens of kilobytes.
const maxDocumentSize = 4 << 20

// readLimit is how much of a file the documents' checks read: a document
// up to maxDocumentSize, the contract (whose words they know) up to what
// every command reads of it.
func readLimit(file string) int64 {
	if file == contract.ContractFile {
		return pkgdir.MaxInputSize
	}
	return maxDocumentSize
}

// checkDocuments checks the four documents of a package against the facts.
// read returns a document's bytes, or ok false when it could not be read
// (the reader reports why).
func checkDocuments(f *facts, read func(file string) ([]byte, bool)) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, file := range Documents(f.lang.tag) {
		data, ok := read(file)
		if !ok {
			continue
		}
		d := parseDocument(file, data)
		switch file {
		case SkillFile:
			out = append(out, checkSkill(d, data, f)...)
		case f.lang.mcpDoc:
			out = append(out, checkMCPDoc(d, f)...)
		case SetupFile:
			out = append(out, checkSetup(d, f)...)
		case ContextFile:
			out = append(out, checkContext(d, f)...)
		}
		out = append(out, checkEveryDocument(d, f)...)
	}
	return out
}

// checkEveryDocument applies the rules every document follows, whichever
// it is: no template placeholder, no restatement of a contract fact the
// other way round, no stale statement of a value.
func checkEveryDocument(d *document, f *facts) []diag.Diagnostic {
	out := placeholders(d, f.lang)
	out = append(out, restatements(d, f)...)
	return append(out, staleStatements(d, f)...)
}

// A toolSectionRule says how a document gives each Tool its own section:
// the heading level, how many of the language's text units and which
// topics the section needs, and the rules that report a missing or thin
// section.
type toolSectionRule struct {
	level            int
	minUnits         int
	topics           []topic
	missing, lacking *diag.Rule
}

// toolSection finds the section of Tool t and checks its size and topics. It
// returns the section, its text and its first line, and found false, with
// the finding, when there is none.
func (r toolSectionRule) toolSection(d *document, l *docLang, t *toolFacts) (b block, text string, line int, found bool, out []diag.Diagnostic) {
	i := d.FindHeading(r.level, func(title string) bool { return strings.Contains(title, code(t.name)) })
	if i < 0 {
		return block{}, "", 0, false, []diag.Diagnostic{r.missing.New(d.file, "has no \"%s …%s…\" section for the Tool", strings.Repeat("#", r.level), code(t.name))}
	}
	b = d.Section(i)
	text = d.TextOf(b)
	line = lineOf(b.Start)
	var gaps []string
	if n := l.units(text); n < r.minUnits {
		gaps = append(gaps, fmt.Sprintf("%s (at least %d)", plural(n, l.unit()), r.minUnits))
	}
	gaps = append(gaps, missing(text, r.topics)...)
	if len(gaps) > 0 {
		out = append(out, r.lacking.New(d.file, "the section of %s lacks %s", code(t.name), strings.Join(gaps, "; ")).At(line, 0))
	}
	return b, text, line, true, out
}
