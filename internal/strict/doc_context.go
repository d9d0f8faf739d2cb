package strict

import (
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// ContextFile is the business background of the package's Tools.
const ContextFile = "references/feature-context.md"

// contextSection is a section of the feature context: its topic, and its
// keywords as a finding lists them.
type contextSection struct {
	topic
	keywords string
}

// checkContext checks references/feature-context.md.
func checkContext(d *document, f *facts) []diag.Diagnostic {
	l := f.lang
	out := checkAgentDoc(d, f)
	out = append(out, tooShort(d, l, l.contextMin, l.contextUnits)...)
	out = append(out, contextClaims(d, f)...)
	if d.FindHeading(1, func(string) bool { return true }) < 0 {
		out = append(out, RuleContextTitle.New(d.file, "has no H1 title naming the feature"))
	}
	for _, s := range l.contextSections {
		i := d.FindHeading(2, s.in)
		if i < 0 {
			out = append(out, RuleContextSection.New(d.file,
				"has no \"## %s…\" section: no H2 heading names %s", s.name, s.keywords))
			continue
		}
		b := d.Section(i)
		if n := length(strings.TrimSpace(d.Body(b))); n < l.contextSectionMin {
			out = append(out, RuleContextSection.New(d.file,
				"the section \"%s\" holds %s; write at least %d", d.Headings[i].Title, plural(n, "character"), l.contextSectionMin).At(lineOf(b.Start), 0))
		}
	}
	for _, t := range f.tools {
		if !strings.Contains(d.Text, code(t.name)) {
			out = append(out, RuleContextTool.New(d.file, "never names the Tool %s in backticks", code(t.name)))
		}
	}
	for _, id := range f.evidence {
		if !strings.Contains(d.Text, code(id)) {
			out = append(out, RuleContextEvidence.New(d.file,
				"does not cite %s, primary evidence of how the feature exposes a capability", code(id)))
		}
	}
	if !f.hasWrite {
		if !strings.Contains(strings.ToLower(d.Text), l.readOnlyWord) || !l.noWrite.MatchString(d.Text) {
			out = append(out, RuleContextReadOnly.New(d.file, "every Tool is a read: %s", l.readOnlyStatement))
		}
		return out
	}
	i := d.FindHeading(2, l.sideEffectHeading.MatchString)
	if i < 0 {
		out = append(out, RuleContextSideEffects.New(d.file, "the package writes, but no %s section says what and how", l.sideEffectSection))
	} else if n := l.units(d.TextOf(d.Section(i))); n < l.contextSideEffectUnits {
		out = append(out, RuleContextSideEffects.New(d.file,
			"the side-effect section holds %s; write at least %d", plural(n, l.unit()), l.contextSideEffectUnits).At(lineOf(d.Headings[i].Line), 0))
	}
	return out
}
