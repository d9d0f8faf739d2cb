package strict

import (
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/skillmd"
)

// SkillFile is the package's Skill, at the package root.
const SkillFile = "SKILL.md"

// skillToolSection is how SKILL.md gives each Tool its H3 section, with
// the language's five topics: when to use it, its input, its output, what
// follows, and when not to.
func (l *docLang) skillToolSection() toolSectionRule {
	return toolSectionRule{level: 3, minUnits: l.skillToolUnits, topics: l.skillToolTopics, missing: RuleSkillToolSection, lacking: RuleSkillToolCoverage}
}

// skillMinExamples is how many worked examples a strict Skill shows.
const skillMinExamples = 3

// checkSkill checks SKILL.md: the Agent Skills format, the name, the size,
// the twelve headings and one section per Tool.
func checkSkill(d *document, data []byte, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	s, ds := skillmd.Parse(d.file, data)
	out = append(out, ds...)
	if s != nil {
		out = append(out, s.Check()...)
		if s.Name != "" && s.Name != f.dir {
			out = append(out, RuleSkillName.New(d.file,
				"the Skill is named %q but the package directory is %q: the Skill installs under its name, so the two must agree",
				s.Name, f.dir).At(frontmatterLine(d, "name"), 0))
		}
	}
	l := f.lang
	out = append(out, checkAgentDoc(d, f)...)
	out = append(out, tooShort(d, l, l.skillMin, l.skillUnits)...)
	if !strings.Contains(d.Text, "references/feature-context.md") {
		out = append(out, RuleSkillContextLink.New(d.file, "does not point to references/feature-context.md, the business background of the Tools"))
	}
	for _, want := range l.skillHeadings {
		if d.FindHeading(2, func(t string) bool { return t == want }) < 0 {
			out = append(out, RuleSkillHeading.New(d.file, "has no heading \"## %s\" (the twelve headings of a strict Skill are matched exactly)", want))
		}
	}
	if !l.dryRunWords.MatchString(d.Text) {
		out = append(out, RuleSkillDryRun.New(d.file,
			"does not explain dry-run: with %s=1 a Tool validates its input and answers without calling the business API", f.dryRunVariable))
	}
	for _, t := range f.tools {
		out = append(out, checkSkillTool(d, l, t)...)
	}
	reported := map[string]bool{}
	for _, t := range f.tools {
		for _, in := range t.inputs {
			if !reported[in.name] && !strings.Contains(d.Text, code(in.name)) {
				reported[in.name] = true
				out = append(out, RuleSkillInput.New(d.file, "never names the input %s of %s in backticks", code(in.name), code(t.name)))
			}
		}
	}
	examples := 0
	for _, h := range d.Headings {
		if h.Level == 3 && strings.HasPrefix(h.Title, l.exampleHeading) {
			examples++
		}
	}
	if examples < skillMinExamples {
		out = append(out, RuleSkillExamples.New(d.file, "has %d %s section(s); a strict Skill shows at least %d worked examples", examples, l.exampleSections, skillMinExamples))
	}
	for _, t := range f.tools {
		for _, in := range t.inputs {
			if in.provider != "" {
				out = append(out, checkUnproven(d, l, t, in)...)
			}
		}
	}
	return out
}

// checkSkillTool checks the H3 section of one Tool.
func checkSkillTool(d *document, l *docLang, t *toolFacts) []diag.Diagnostic {
	b, text, at, found, out := l.skillToolSection().toolSection(d, l, t)
	if !found {
		return out
	}
	if t.read && !strings.Contains(strings.ToLower(text), l.readOnlyWord) {
		out = append(out, RuleSkillToolReadOnly.New(d.file, "the section of the read Tool %s does not say it is read-only (%s)", code(t.name), l.readOnlyWord).At(at, 0))
	}
	for _, o := range t.outputs {
		if !strings.Contains(text, code(o)) {
			out = append(out, RuleSkillToolOutput.New(d.file, "the section of %s does not name the required output %s", code(t.name), code(o)).At(at, 0))
		}
	}
	for _, in := range t.inputs {
		if !hasRequirednessLine(d, l, b, in.name) {
			out = append(out, RuleSkillToolInput.New(d.file,
				"the section of %s has no line naming the input %s together with its requiredness (%s)",
				code(t.name), code(in.name), l.requirednessHint).At(at, 0))
		}
	}
	return out
}

// hasRequirednessLine reports whether a line of the block names the input
// in backticks and says whether it is required.
func hasRequirednessLine(d *document, l *docLang, b block, name string) bool {
	for _, line := range d.Lines[b.Start:b.End] {
		if strings.Contains(line, code(name)) && l.requirednessWords.MatchString(line) {
			return true
		}
	}
	return false
}

// checkUnproven checks that some paragraph explains an input whose
// requiredness at the target API is unproven: it names the input and its
// normal provider, recommends the provider without making it a hard
// precondition, and leaves the decision about an omitted value to the
// backend.
func checkUnproven(d *document, l *docLang, t *toolFacts, in inputFacts) []diag.Diagnostic {
	first := -1
	var gaps []string
	for _, p := range d.Paragraphs() {
		text := d.TextOf(p)
		line := []rune(text)
		if len(mentions(line, in.name)) == 0 || len(mentions(line, in.provider)) == 0 {
			continue
		}
		g := missing(text, l.unprovenParts)
		if m := l.mandatoryWords.FindString(text); m != "" {
			g = append(g, "no mandatory wording (found "+strings.TrimSpace(m)+")")
		}
		if len(g) == 0 {
			return nil
		}
		if first < 0 {
			first, gaps = p.Start, g
		}
	}
	if first < 0 {
		return []diag.Diagnostic{RuleSkillUnproven.New(d.file,
			"no paragraph explains the input %s of %s together with its normal provider %s: its requiredness at the target API is unproven",
			code(in.name), code(t.name), code(in.provider))}
	}
	return []diag.Diagnostic{RuleSkillUnproven.New(d.file,
		"the paragraph about %s and its normal provider %s lacks %s",
		code(in.name), code(in.provider), strings.Join(gaps, "; ")).At(lineOf(first), 0)}
}

// tooShort reports a document below its minimum length or count of the
// language's text units.
func tooShort(d *document, l *docLang, minLength, minUnits int) []diag.Diagnostic {
	n, c := length(d.Text), l.units(d.Text)
	if n >= minLength && c >= minUnits {
		return nil
	}
	return []diag.Diagnostic{RuleDocTooShort.New(d.file,
		"has %s and %s; it needs at least %d characters and %d %ss",
		plural(n, "character"), plural(c, l.unit()), minLength, minUnits, l.unit())}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// frontmatterLine returns the 1-based line of a top-level frontmatter key,
// or 0 when it cannot be found.
func frontmatterLine(d *document, key string) int {
	for i, line := range d.Lines {
		if i > 0 && strings.TrimSpace(line) == "---" {
			break
		}
		if strings.HasPrefix(line, key+":") {
			return lineOf(i)
		}
	}
	return 0
}
