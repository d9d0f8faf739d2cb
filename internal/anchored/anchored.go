// Package anchored finds the matches of regular expressions in large text
// cheaply. Each expression comes with literal anchors, substrings that
// every match contains; the expression runs only in a window around each
// occurrence of an anchor, because the regular expression engine is far
// slower than a substring search and most text holds no anchor at all.
//
// The credential judge (internal/credential) and the contamination gate
// (internal/contamination) search a whole package's files this way:
//
//	p := &anchored.Pattern{Re: regexp.MustCompile(`\bAKIA[0-9A-Z]{16}\b`), Anchors: []string{"AKIA"}}
//	for _, loc := range anchored.NewText(data).FindAll(p) {
//		fmt.Println(loc[0], loc[1]) // the match's bounds in data
//	}
package anchored

import (
	"bytes"
	"regexp"
	"strings"
)

// A Pattern is a regular expression and the anchors its matches contain.
type Pattern struct {
	Re *regexp.Regexp
	// Anchors are literal substrings: a match holds one of them, no
	// further than the window bounds from the match's start and end.
	// With Fold they are lower case and sought in the text's ASCII
	// lower-case form; Re then folds case itself ((?i)).
	Anchors []string
	Fold    bool
	// Near, when set, must accept the text right after an anchor
	// occurrence (up to NearBytes of it) for Re to run around it: a cheap
	// filter for anchors that are common words. It must not reject an
	// occurrence that Re would match around.
	Near func(after []byte) bool
	// Reach is how far past an anchor a match may end, in bytes; 0 means
	// DefaultReach.
	Reach int
}

// Window bounds: how far before an anchor a match may start, and by
// default how far after it a match may end, in bytes. A match reaching
// further is cut at the window's end.
const (
	WindowBefore = 64
	DefaultReach = 512
)

// NearBytes is how much of the text after an anchor Near sees at most.
const NearBytes = 40

// Text is a text prepared for searching.
type Text struct {
	b     []byte
	lower []byte // b with ASCII letters in lower case; made when first needed
}

// NewText prepares b for searching. b must not change while the Text is
// in use.
func NewText(b []byte) *Text { return &Text{b: b} }

// Bytes returns the text.
func (t *Text) Bytes() []byte { return t.b }

// Lower returns the text with ASCII letters in lower case. Other bytes are
// kept, so that offsets into it are offsets into the text (anchors are
// ASCII).
func (t *Text) Lower() []byte {
	if t.lower == nil {
		t.lower = make([]byte, len(t.b))
		for i, c := range t.b {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			t.lower[i] = c
		}
	}
	return t.lower
}

// FindAll returns the submatch indexes (as regexp's FindAllSubmatchIndex
// gives them, but offsets into the whole text) of p's matches around p's
// anchors: in the order of the anchors, then of the occurrences, each match
// once.
func (t *Text) FindAll(p *Pattern) [][]int {
	text, hay := t.b, t.b
	if p.Fold {
		hay = t.Lower()
	}
	reach := p.Reach
	if reach <= 0 {
		reach = DefaultReach
	}
	var out [][]int
	var seen map[int]bool // match starts already reported; made on the first match
	for _, a := range p.Anchors {
		r := rarest(a)
		for off := 0; off < len(hay); {
			j := bytes.IndexByte(hay[off:], a[r])
			if j < 0 {
				break
			}
			at := off + j - r
			off += j + 1
			if at < 0 || !bytes.HasPrefix(hay[at:], []byte(a)) {
				continue
			}
			if p.Near != nil && !p.Near(hay[at+len(a):min(len(hay), at+len(a)+NearBytes)]) {
				continue
			}
			lo, hi := max(0, at-WindowBefore), min(len(text), at+len(a)+reach)
			for _, loc := range p.Re.FindAllSubmatchIndex(text[lo:hi], -1) {
				if loc[0] == 0 && lo > 0 {
					// The match may depend on what precedes the window
					// (a boundary); its own anchor's window decides it.
					continue
				}
				if seen[lo+loc[0]] {
					continue
				}
				if seen == nil {
					seen = map[int]bool{}
				}
				seen[lo+loc[0]] = true
				abs := make([]int, len(loc))
				for k, x := range loc {
					abs[k] = x
					if x >= 0 {
						abs[k] = x + lo
					}
				}
				out = append(out, abs)
			}
		}
	}
	return out
}

// byteRarity orders bytes from rare to common in source code and prose, as
// a rough guide: FindAll looks for an anchor's rarest byte, which the
// vectorised byte search skips through fastest.
const byteRarity = "JQZXKVjqzxBGYWPFMUHCDLNORSTAEI_kvbgywpfm-umhdlcrsnioat"

// rarest returns the offset of the rarest byte of an anchor.
func rarest(a string) int {
	best, bestRank := 0, len(byteRarity)+1
	for i := 0; i < len(a); i++ {
		r := strings.IndexByte(byteRarity, a[i])
		if r < 0 {
			r = len(byteRarity) // punctuation, digits, spaces: common
		}
		if r < bestRank {
			best, bestRank = i, r
		}
	}
	return best
}
