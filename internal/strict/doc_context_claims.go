package strict

import (
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// What the feature context may assume (spec 000, references/
// feature-context.md): it "does not assume a page or route", unless the
// feature surface is one, and "for writes, mention confirmation and Guard
// only when required by the Canonical policy and a declared hard
// Workflow". Each is judged line by line, outside code; a statement that
// denies what it names ("不假设存在某个页面或路由", "写入无需用户确认")
// holds whatever the package is.

var (
	// A page of a user interface, or the route of one. A backend's routes
	// (接口路由, an HTTP route) and pagination (分页, 每页, a page size)
	// are neither.
	pageWord = regexp.MustCompile(`页面|网页|前端路由|页面路由|客户端路由|浏览器路由|路由页|(?i:\bweb ?pages?\b|\bpage routes?\b|\bfront-?end routes?\b|\bclient(?:-side)? routes?\b|\bUI pages?\b)`)
	// The user's confirmation of a call, as a host asks for it.
	confirmationWord = regexp.MustCompile(`可信确认|用户确认|宿主确认|人工确认|二次确认|显式确认|确认表单|确认弹窗|确认授权|需要?确认|须确认|待确认|经确认|确认之?后|(?i:\b(?:user|trusted|host|explicit) confirmation\b|\bconfirmation (?:form|prompt|grant)s?\b)`)
	// The workflow Guard that runs before a guarded write dispatches.
	guardWord = regexp.MustCompile(`守卫|(?i:\bguard\b|dispatchWithPolicy)`)
	// Words before a mention that deny it.
	denialCJ = regexp.MustCompile(`不|无|没有|并非|未|免`)
	denialEN = regexp.MustCompile(`(?i:\b(?:no|not|without|never)\b[^.;,]{0,20}$|n't\b[^.;,]{0,20}$)`)
)

// denied reports whether the words before span c of masked, in its
// clause, deny what c names: a few characters of Chinese ("不假设存在任何
// 页面或前端路由" denies both), a few words of English.
func denied(masked []rune, c span) bool {
	start := c.start
	for start > 0 && c.start-start < 16 && !strings.ContainsRune("，。；：,;:.!?！？", masked[start-1]) {
		start--
	}
	return denialCJ.MatchString(string(masked[start:c.start])) ||
		denialEN.MatchString(string(masked[max(0, c.start-28):c.start]))
}

// contextClaims checks what the feature context assumes: a page or route,
// a confirmation, the Guard.
func contextClaims(d *document, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	sections := sectionTools(d, f)
	for i, text := range d.Lines {
		if d.Fenced[i] || strings.TrimSpace(text) == "" {
			continue
		}
		line := []rune(text)
		masked := maskCode(line)
		scope := lineScope{line: line, spans: codeSpans(line), section: sections[i], all: f.tools}
		if !f.routeSurface {
			for _, c := range runeMatches(pageWord, masked) {
				if !denied(masked, c) {
					out = append(out, RuleContextPage.New(d.file,
						"speaks of %q, but the feature surface is not a route: describe the feature by its operations, not a page or route it does not have (or say it assumes none)",
						string(masked[c.start:c.end])).At(lineOf(i), 0))
					break
				}
			}
		}
		if c := contextMention(d, i, masked, scope, confirmationWord, func(t *toolFacts) bool { return t.confirmation },
			"the user's confirmation", "its operation policy requires no confirmation (confirmation: not-required)"); c != nil {
			out = append(out, *c)
		}
		if g := contextMention(d, i, masked, scope, guardWord, func(t *toolFacts) bool { return t.guarded },
			"the workflow Guard", "no declared hard workflow guards it"); g != nil {
			out = append(out, *g)
		}
	}
	return out
}

// contextMention reports the first mention on line i (masked) of what re
// names that the Tool it is about does not have (has says whether a Tool
// has it); a mention about no Tool in particular holds when some Tool has
// it. what names the thing, why why a Tool does not have it.
func contextMention(d *document, i int, masked []rune, scope lineScope, re *regexp.Regexp, has func(*toolFacts) bool, what, why string) *diag.Diagnostic {
	for _, c := range runeMatches(re, masked) {
		if denied(masked, c) {
			continue
		}
		// The Tool a mention is about is the last one its sentence names
		// before it: a sentence that names none ("The first creates a
		// loan. A workflow guard protects it") speaks of its section's.
		tools := scope.toolsBefore(c.start)
		if start := sentenceStart(masked, c.start); len(tools) > 0 {
			tools = slices.DeleteFunc(slices.Clone(tools), func(t *toolFacts) bool { return !scope.namesAfter(t, start, c.start) })
		}
		if len(tools) > 0 {
			tools = tools[len(tools)-1:]
		} else {
			tools = scope.section
		}
		word := string(masked[c.start:c.end])
		if len(tools) == 0 {
			if slices.ContainsFunc(scope.all, has) {
				continue
			}
			d := RuleContextConfirmation.New(d.file, "mentions %s (%q), but no Tool of the contract has it: mention it only where the operation policy and a declared hard workflow require it",
				what, word).At(lineOf(i), 0)
			return &d
		}
		for _, t := range tools {
			if !has(t) {
				d := RuleContextConfirmation.New(d.file, "mentions %s (%q) for %s, but %s", what, word, code(t.name), why).At(lineOf(i), 0)
				return &d
			}
		}
	}
	return nil
}

// sentenceStart is the rune offset in masked where the sentence holding
// at begins: after the last full stop, question or exclamation mark before
// it (Chinese, or English followed by a space), else 0.
func sentenceStart(masked []rune, at int) int {
	for i := at - 1; i >= 0; i-- {
		switch masked[i] {
		case '。', '！', '？':
			return i + 1
		case '.', '!', '?':
			if i+1 < len(masked) && masked[i+1] == ' ' {
				return i + 1
			}
		}
	}
	return 0
}

// namesAfter reports whether the line names t in a code span between the
// rune offsets from and to.
func (s lineScope) namesAfter(t *toolFacts, from, to int) bool {
	for _, cs := range s.spans {
		if cs.start >= from && cs.end <= to && string(s.line[cs.start+1:cs.end-1]) == t.name {
			return true
		}
	}
	return false
}
