package strict

import (
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// The rules every Agent document follows (SKILL.md, MCP.<language>.md and
// references/feature-context.md): each is bound to the fact view by its
// marker, and none restates a contract fact the other way round.

// checkAgentDoc checks the binding of one Agent document to the fact view.
// The restatement guards apply to every document (checkEveryDocument).
func checkAgentDoc(d *document, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	if f.marker != "" && !strings.Contains(d.Text, f.marker) {
		if strings.Contains(d.Text, derive.MarkerPrefix) {
			out = append(out, RuleDocMarker.New(d.file,
				"carries a stale marker: the fact view has changed; replace it with %s, the marker code2skill derive prints, once the document agrees with it", f.marker))
		} else {
			out = append(out, RuleDocMarker.New(d.file,
				"does not carry the marker of the fact view it describes: add %s, the marker code2skill derive prints", f.marker))
		}
	}
	if !strings.Contains(d.Text, derive.CapabilityContractFile) {
		out = append(out, RuleDocFactView.New(d.file,
			"does not name %s, the fact view its statements about Tools, inputs and policies must agree with",
			derive.CapabilityContractFile))
	}
	return out
}

// isCodeSpan reports whether the span is the inside of an inline code
// span: backticks just around it.
func isCodeSpan(line []rune, s span) bool {
	return s.start > 0 && s.end < len(line) && line[s.start-1] == '`' && line[s.end] == '`'
}

// containsAny reports whether s contains one of the words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// Windows of the Tool-policy guards, in code points: how far before a claim
// the Tool it is about may be named.
const (
	readOnlyWindow = 100
	retryWindow    = 120
)

// restatements checks the document line by line: a required input is not
// called optional, an optional one not required, a conditional one not
// always required; a write Tool is not called read-only and a Tool that
// must never be retried is not said to be retried automatically.
//
// Which Tools a line is about: those it names in backticks; otherwise the
// Tool its section heading names; otherwise every Tool. An input name that
// means different things in the Tools a line is about (required in one,
// optional in another) is ambiguous on that line and not judged.
func restatements(d *document, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	sections := sectionTools(d, f)
	for i, text := range d.Lines {
		if d.Fenced[i] || strings.TrimSpace(text) == "" {
			continue
		}
		// Most lines make no claim: look for the claims' words first.
		lower := strings.ToLower(text)
		aboutInputs := containsAny(lower, f.lang.restate.requirednessWords)
		aboutTools := containsAny(lower, f.lang.restate.toolWords)
		if !aboutInputs && !aboutTools {
			continue
		}
		line := []rune(text)
		masked := maskCode(line)
		if aboutInputs {
			tools := toolsNamed(text, f)
			if len(tools) == 0 {
				tools = sections[i]
			}
			if len(tools) == 0 {
				tools = f.tools
			}
			out = append(out, inputClaims(d, i, line, masked, tools, f)...)
		}
		if aboutTools {
			out = append(out, toolClaims(d, i, line, masked, f)...)
		}
	}
	return out
}

// sectionTools returns, for each line, the Tool named in backticks by the
// innermost heading above it that names exactly one Tool.
func sectionTools(d *document, f *facts) [][]*toolFacts {
	out := make([][]*toolFacts, len(d.Lines))
	for i, h := range d.Headings {
		named := toolsNamed(h.Title, f)
		if len(named) != 1 {
			continue
		}
		b := d.Section(i)
		for l := b.Start; l < b.End; l++ {
			out[l] = named
		}
	}
	return out
}

// toolsNamed returns the Tools a text names in backticks.
func toolsNamed(text string, f *facts) []*toolFacts {
	var out []*toolFacts
	for _, t := range f.tools {
		if strings.Contains(text, code(t.name)) {
			out = append(out, t)
		}
	}
	return out
}

// inputClaims checks the requiredness claims of one line.
func inputClaims(d *document, i int, line, masked []rune, tools []*toolFacts, f *facts) []diag.Diagnostic {
	w := &f.lang.restate
	// The class of each input name over the line's Tools; a name with
	// two classes is ambiguous here.
	classes := map[string]inputClass{}
	var names []string
	for _, t := range tools {
		for _, in := range t.inputs {
			c, seen := classes[in.name]
			switch {
			case !seen:
				classes[in.name] = in.class
				names = append(names, in.name)
			case c != in.class:
				classes[in.name] = 0
			}
		}
	}
	var spans []span
	var owners []string
	for _, n := range names {
		if classes[n] == 0 {
			continue
		}
		for _, s := range mentions(line, n) {
			// In English an input's name is also a word of the prose
			// ("a quote"): only the name written as code is the input.
			if w.namesInCode && !isCodeSpan(line, s) {
				continue
			}
			spans = append(spans, s)
			owners = append(owners, n)
		}
	}
	if len(spans) == 0 {
		return nil
	}
	// Other names written as code (a nested field such as `note`) are the
	// subjects of the claims next to them: "`requestData` 必填，其中 `note`
	// 可选" calls note optional, not requestData. Tool names are not: a
	// table row "| `x` | `tool` | 必填 |" speaks of x.
	isTool := make(map[string]bool, len(f.tools))
	for _, t := range f.tools {
		isTool[t.name] = true
	}
	for _, cs := range codeSpans(line) {
		inner := string(line[cs.start+1 : cs.end-1])
		if !isTool[inner] && !slices.ContainsFunc(spans, func(s span) bool { return s.start >= cs.start && s.end <= cs.end }) {
			spans = append(spans, cs)
			owners = append(owners, "")
		}
	}
	var out []diag.Diagnostic
	reported := map[string]bool{}
	judge := func(re *regexp.Regexp, negated []string, rule *diag.Rule, applies inputClass, format string) {
		for _, c := range runeMatches(re, masked) {
			if precededBy(masked, c.start, negated...) || (re == w.optionalClaim && w.optionalNot != "" && followedBy(masked, c.end, w.optionalNot)) {
				continue
			}
			name := subjectOf(c, masked, spans, owners, w.adjectiveGap)
			key := rule.ID + "\x00" + name
			if name != "" && classes[name] == applies && !reported[key] {
				reported[key] = true
				out = append(out, rule.New(d.file, format, code(name), strings.TrimSpace(string(line[c.start:c.end]))).At(lineOf(i), 0))
			}
		}
	}
	judge(w.optionalClaim, w.optionalNeg, RuleDocRequiredAsOptional, classRequired,
		"%s is required by the contract but this line calls it %q")
	judge(w.requiredClaim, w.requiredNeg, RuleDocOptionalAsRequired, classOptional,
		"%s is optional in the contract but this line calls it %q")
	judge(w.alwaysClaim, w.always, RuleDocConditionalAlways, classConditional,
		"%s is required only when its condition holds, but this line says %q")
	return out
}

// subjectOf returns the name a claim is about: the name it qualifies
// ("可选的 `x`"), else the nearest name before it ("`x`（必填）"), else the
// nearest name after it ("必填：`x`"). It returns "" for a name that is not
// an input (a nested field written as code).
func subjectOf(claim span, line []rune, spans []span, owners []string, adjectiveGap *regexp.Regexp) string {
	after, before := -1, -1
	for k, s := range spans {
		switch {
		case s.start >= claim.end:
			if after < 0 || s.start < spans[after].start {
				after = k
			}
		case s.end <= claim.start:
			if before < 0 || s.end > spans[before].end {
				before = k
			}
		}
	}
	switch {
	case after >= 0 && adjectiveGap.MatchString(string(line[claim.end:spans[after].start])):
		return owners[after]
	case before >= 0:
		return owners[before]
	case after >= 0:
		return owners[after]
	}
	return ""
}

// followedBy reports whether the runes at offset i spell word.
func followedBy(line []rune, i int, word string) bool {
	return hasRunes(line[i:], []rune(word))
}

// toolClaims checks the read-only and automatic-retry claims of one line.
func toolClaims(d *document, i int, line, masked []rune, f *facts) []diag.Diagnostic {
	type mention struct {
		at   span
		tool *toolFacts
	}
	var ms []mention
	for _, t := range f.tools {
		for _, s := range mentions(line, t.name) {
			ms = append(ms, mention{s, t})
		}
	}
	if len(ms) == 0 {
		return nil
	}
	slices.SortFunc(ms, func(a, b mention) int { return a.at.start - b.at.start })
	// before returns the Tool named last before offset at, within window.
	before := func(at, window int) *toolFacts {
		var t *toolFacts
		for _, m := range ms {
			if m.at.end <= at && at-m.at.end <= window {
				t = m.tool
			}
		}
		return t
	}
	var out []diag.Diagnostic
	reported := map[string]bool{}
	report := func(rule *diag.Rule, t *toolFacts, format string) {
		if key := rule.ID + "\x00" + t.name; !reported[key] {
			reported[key] = true
			out = append(out, rule.New(d.file, format, code(t.name)).At(lineOf(i), 0))
		}
	}
	const readOnlyMsg = "describes the write Tool %s as read-only"
	w := &f.lang.restate
	claimed := map[int]bool{} // offsets of the read-only word inside an "is read-only" claim
	for _, c := range runeMatches(w.isReadOnlyClaim, masked) {
		if r := runeMatches(w.readOnlyWord, masked[c.start:c.end]); len(r) > 0 {
			claimed[c.start+r[len(r)-1].start] = true
		}
		if precededBy(masked, c.start, w.negations...) {
			continue
		}
		if t := before(c.start, readOnlyWindow); t != nil && !t.read {
			report(RuleDocWriteAsReadOnly, t, readOnlyMsg)
		}
	}
	// "只读 … T", "read-only … T": every Tool named after the word in the
	// same clause (in English, a list of them).
	for _, c := range runeMatches(w.readOnlyWord, masked) {
		if claimed[c.start] || precededBy(masked, c.start, w.negations...) {
			continue
		}
		end := listEnd(masked, c.end, f.lang.listBreaks)
		for _, m := range ms {
			if m.at.start >= c.end && m.at.end <= end && !m.tool.read {
				report(RuleDocWriteAsReadOnly, m.tool, readOnlyMsg)
			}
		}
	}
	for _, c := range runeMatches(w.retryClaim, masked) {
		if precededBy(masked, c.start, w.negations...) {
			continue
		}
		if t := before(c.start, retryWindow); t != nil && t.neverRetry {
			report(RuleDocRetryClaimed, t, "says %s may be retried automatically; its operation policy is never to retry")
		}
	}
	return out
}
