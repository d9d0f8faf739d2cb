package strict

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Lengths in the document rules are counted in Unicode code points, and in
// the text units of the documentation language (docLang.units).

// length returns the number of code points in s.
func length(s string) int { return utf8.RuneCountInString(s) }

// code returns name as a Markdown code span: `name`.
func code(name string) string { return "`" + name + "`" }

// isIdentRune reports whether r can continue a JavaScript-style identifier,
// the form of Tool, input and output names.
func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// span is a half-open range of rune offsets in a line.
type span struct{ start, end int }

// mentions returns the spans where name occurs in line as a whole name: not
// preceded or followed by a character that could continue it, so that
// "requestData" does not match inside "requestDataDraft".
func mentions(line []rune, name string) []span {
	nr := []rune(name)
	var out []span
	for i := 0; i+len(nr) <= len(line); i++ {
		if line[i] != nr[0] || !hasRunes(line[i:], nr) {
			continue
		}
		if i > 0 && isIdentRune(line[i-1]) {
			continue
		}
		if j := i + len(nr); j < len(line) && isIdentRune(line[j]) {
			continue
		}
		out = append(out, span{i, i + len(nr)})
	}
	return out
}

func hasRunes(s, prefix []rune) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i, r := range prefix {
		if s[i] != r {
			return false
		}
	}
	return true
}

// maskCode replaces the content of inline code spans (`…`) with spaces,
// keeping every rune offset: a claim written as code (`required` the JSON
// Schema keyword) is a name, not prose.
func maskCode(line []rune) []rune {
	out := make([]rune, len(line))
	copy(out, line)
	for _, cs := range codeSpans(line) {
		for j := cs.start + 1; j < cs.end-1; j++ {
			out[j] = ' '
		}
	}
	return out
}

// codeSpans returns the spans of the inline code spans of a line, backticks
// included.
func codeSpans(line []rune) []span {
	var out []span
	open := -1
	for i, r := range line {
		if r != '`' {
			continue
		}
		if open < 0 {
			open = i
			continue
		}
		out = append(out, span{open, i + 1})
		open = -1
	}
	return out
}

// runeMatches returns the spans, in rune offsets, of every match of re in
// line.
func runeMatches(re *regexp.Regexp, line []rune) []span {
	s := string(line)
	locs := re.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return nil
	}
	// Matches come in order: count runes incrementally, so that a long line
	// with many matches stays linear.
	out := make([]span, len(locs))
	pos, runes := 0, 0
	for i, l := range locs {
		runes += utf8.RuneCountInString(s[pos:l[0]])
		start := runes
		runes += utf8.RuneCountInString(s[l[0]:l[1]])
		pos = l[1]
		out[i] = span{start, runes}
	}
	return out
}

// precededBy reports whether the runes just before offset i spell one of
// the words.
func precededBy(line []rune, i int, words ...string) bool {
	for _, w := range words {
		wr := []rune(w)
		if i >= len(wr) && hasRunes(line[i-len(wr):], wr) {
			return true
		}
	}
	return false
}

// clauseBreaks are the punctuation marks that end a clause of Chinese or
// English prose.
const clauseBreaks = "，,；;。！？!?"

// missing returns the names of the topics text does not talk about, in
// order.
func missing(text string, topics []topic) []string {
	var out []string
	for _, t := range topics {
		if !t.in(text) {
			out = append(out, t.name)
		}
	}
	return out
}

// topic is something a document section must talk about, recognised by the
// words that say it: literal alternatives ("输出|返回") are looked up as
// strings, anything else is a regular expression.
type topic struct {
	name  string
	words []string       // literal alternatives, or nil
	re    *regexp.Regexp // when the pattern is not a list of words
}

func newTopic(name, pattern string) topic {
	words := strings.Split(pattern, "|")
	for _, w := range words {
		if w == "" || regexp.QuoteMeta(w) != w {
			return topic{name: name, re: regexp.MustCompile(pattern)}
		}
	}
	return topic{name: name, words: words}
}

// in reports whether text talks about the topic.
func (t topic) in(text string) bool {
	if t.re != nil {
		return t.re.MatchString(text)
	}
	for _, w := range t.words {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

// listEnd returns the offset of the first of the breaks at or after i, or
// len(line): where a list of values ends. English separates the values of
// a list with commas, so a comma does not end it there.
func listEnd(line []rune, i int, breaks string) int {
	for ; i < len(line); i++ {
		if strings.ContainsRune(breaks, line[i]) {
			return i
		}
	}
	return len(line)
}
