package sample

import (
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Base strings of the plain and uri samples.
const (
	plainBase = "synthetic-value"
	uriBase   = "https://synthetic.example/resource"
)

// lengths returns minLength and maxLength (-1 when absent).
func lengths(s *canonjson.Object) (minLen, maxLen int) {
	minLen, _ = intKeyword(s, "minLength")
	maxLen = -1
	if m, ok := intKeyword(s, "maxLength"); ok {
		maxLen = m
	}
	return minLen, maxLen
}

func str(s *canonjson.Object, n int) (canonjson.Value, error) {
	minLen, maxLen := lengths(s)
	if maxLen >= 0 && minLen > maxLen {
		return nil, noSample("minLength %d exceeds maxLength %d", minLen, maxLen)
	}
	pattern, hasPattern := s.At("pattern").(canonjson.String)
	uri := s.At("format") == canonjson.String("uri")
	var v string
	var err error
	switch {
	case hasPattern:
		v, err = fromPattern(string(pattern), n, minLen, maxLen)
		if err == nil && uri && !isURI(v) {
			err = noSample("no simple string matches the pattern and is a URI")
		}
	case uri:
		v, err = fitted(uriBase, n, minLen, maxLen, true)
	default:
		v, err = fitted(plainBase, n, minLen, maxLen, false)
	}
	if err != nil {
		return nil, err
	}
	return canonjson.String(v), nil
}

// fitted returns the n-th variant of base ("base", "base-2", "base-3", …)
// fitted to the length bounds: padded with "x", or cut short with the
// variant number kept at the end. A URI is never cut.
func fitted(base string, n, minLen, maxLen int, uri bool) (string, error) {
	suffix := ""
	if n > 0 {
		suffix = "-" + strconv.Itoa(n+1)
	}
	v := base + suffix
	if l := len(v); l < minLen {
		v = base + strings.Repeat("x", minLen-l) + suffix
	}
	if maxLen >= 0 && len(v) > maxLen {
		if uri {
			return "", noSample("maxLength %d is shorter than the shortest URI sample", maxLen)
		}
		suffix = ""
		if n > 0 {
			suffix = strconv.Itoa(n + 1)
		}
		if len(suffix) > maxLen {
			return "", noSample("maxLength %d admits too few strings", maxLen)
		}
		v = base[:maxLen-len(suffix)] + suffix
		if len(v) < minLen {
			return "", noSample("the length bounds admit too few strings")
		}
	}
	return v, nil
}

// isURI reports whether s is an absolute URI with a scheme, the check of the
// "uri" format.
func isURI(s string) bool {
	scheme, rest, ok := strings.Cut(s, ":")
	if !ok || scheme == "" || rest == "" || strings.ContainsAny(s, " \t\n\"<>\\^`{|}") {
		return false
	}
	for i, r := range scheme {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || i > 0 && (unicode.IsDigit(r) || strings.ContainsRune("+-.", r)))) {
			return false
		}
	}
	return true
}

// fromPattern builds the n-th string from a pattern that matches it and has
// a length within the bounds. The pattern is read with Go's regexp/syntax;
// ECMAScript patterns of the portable subset (classes, quantifiers,
// alternatives, anchors) read the same. The result is checked by matching:
// JSON Schema patterns are unanchored, like Go's MatchString.
func fromPattern(pattern string, n, minLen, maxLen int) (string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", noSample("the pattern %q cannot be read: %v", pattern, err)
	}
	re = re.Simplify()
	matcher, err := regexp.Compile(pattern)
	if err != nil {
		return "", noSample("the pattern %q cannot be read: %v", pattern, err)
	}
	fits := func(v string) bool {
		l := utf8.RuneCountInString(v)
		return l >= minLen && (maxLen < 0 || l <= maxLen) && matcher.MatchString(v)
	}
	g := &generator{choice: n}
	v, ok := g.gen(re)
	if ok && utf8.RuneCountInString(v) < minLen {
		// Grow the repetitions, then try padding an unanchored end.
		g = &generator{choice: n, grow: minLen - utf8.RuneCountInString(v)}
		if grown, ok2 := g.gen(re); ok2 && fits(grown) {
			v = grown
		} else if padded := v + strings.Repeat("x", minLen-utf8.RuneCountInString(v)); fits(padded) {
			v = padded
		}
	}
	if !ok || !fits(v) {
		return "", noSample("no simple string matches the pattern %q within the length bounds", pattern)
	}
	if n > 0 && g.choice > 0 {
		// The pattern has fewer choice points than n asks to vary.
		return "", noSample("the pattern %q admits too few simple strings", pattern)
	}
	return v, nil
}

// generator builds a string from a parsed pattern. choice selects among the
// options of each choice point (a character class, an alternation) in mixed
// radix, first choice point first; grow is a number of characters to add by
// repeating quantified parts beyond their minimum.
type generator struct {
	choice int
	grow   int
}

func (g *generator) pick(options int) int {
	if options <= 1 {
		return 0
	}
	i := g.choice % options
	g.choice /= options
	return i
}

func (g *generator) gen(re *syntax.Regexp) (string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return "", true
	case syntax.OpLiteral:
		return string(re.Rune), true
	case syntax.OpCharClass:
		options := classRunes(re.Rune)
		if len(options) == 0 {
			return "", false
		}
		return string(options[g.pick(len(options))]), true
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return string(preferred[g.pick(len(preferred))]), true
	case syntax.OpCapture:
		return g.gen(re.Sub[0])
	case syntax.OpConcat:
		var b strings.Builder
		for _, sub := range re.Sub {
			s, ok := g.gen(sub)
			if !ok {
				return "", false
			}
			b.WriteString(s)
		}
		return b.String(), true
	case syntax.OpAlternate:
		return g.gen(re.Sub[g.pick(len(re.Sub))])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, -1
		case syntax.OpPlus:
			lo, hi = 1, -1
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		one, ok := g.gen(re.Sub[0])
		if !ok {
			return "", false
		}
		reps := lo
		if l := utf8.RuneCountInString(one); g.grow > 0 && l > 0 {
			extra := (g.grow + l - 1) / l
			if hi >= 0 && lo+extra > hi {
				extra = hi - lo
			}
			reps += extra
			g.grow -= extra * l
		}
		return strings.Repeat(one, reps), true
	}
	return "", false // OpNoMatch
}

// preferred are the characters a sample uses where a class allows them, in
// order: ASCII letters and digits read well and survive any encoding.
var preferred = []rune("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_")

// maxClassOptions bounds the options taken from one character class.
const maxClassOptions = 64

// classRunes returns the characters of a class to choose from: the
// preferred ones it contains, else its first printable characters.
func classRunes(ranges []rune) []rune {
	in := func(r rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= r && r <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	var out []rune
	for _, r := range preferred {
		if in(r) {
			out = append(out, r)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i := 0; i+1 < len(ranges) && len(out) < maxClassOptions; i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && len(out) < maxClassOptions; r++ {
			if unicode.IsPrint(r) && r != utf8.RuneError {
				out = append(out, r)
			}
		}
	}
	return out
}
