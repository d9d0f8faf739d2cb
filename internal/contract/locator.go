package contract

import (
	"strconv"
	"strings"
)

// Locator is an evidence locator taken apart: "path[:line][#symbol]".
//
// An evidence entry is identified by its source ID, the path relative to
// that source's root and the symbol: those are what relocate it in another
// checkout. The line is a hint of where the symbol was when the contract was
// written; it drifts with every edit above the symbol, so it never enters
// the contract's identity, the documentation view or its marker.
type Locator struct {
	Path   string // "" when the locator has no portable path (a URI, a drive)
	Line   int    // the first line of the hint; 0 when there is none
	Symbol string // "" when there is none
	// hint is the line hint as written ("28", "28-35"), "" when absent.
	hint string
}

// ParseLocator takes a locator apart. A ":…" after the path that is not a
// line hint (a number, or a range of two) stays part of the path, as it
// does for LocatorPath's portability check.
func ParseLocator(s string) Locator {
	head, symbol, _ := strings.Cut(s, "#")
	l := Locator{Symbol: symbol, Path: head}
	if i := strings.LastIndexByte(head, ':'); i >= 0 {
		if line, ok := lineHint(head[i+1:]); ok {
			l.Path, l.Line, l.hint = head[:i], line, head[i+1:]
		}
	}
	if LocatorPath(l.Path) != l.Path {
		l.Path = ""
	}
	return l
}

// HasLine reports whether the locator carries a line hint.
func (l Locator) HasLine() bool { return l.hint != "" }

// StableLocator returns the locator without its line hint: what identifies
// the evidence across re-generations. "screen.go:28#Screen.Open" becomes
// "screen.go#Screen.Open"; a locator without a hint is returned unchanged.
func StableLocator(s string) string {
	head, symbol, hasSymbol := strings.Cut(s, "#")
	i := strings.LastIndexByte(head, ':')
	if i < 0 {
		return s
	}
	if _, ok := lineHint(head[i+1:]); !ok {
		return s
	}
	if !hasSymbol {
		return head[:i]
	}
	return head[:i] + "#" + symbol
}

// lineHint parses a line hint: a positive line number, or a range "N-M"
// with N <= M. It returns the first line.
func lineHint(s string) (int, bool) {
	first, last, isRange := strings.Cut(s, "-")
	n, ok := positive(first)
	if !ok {
		return 0, false
	}
	if isRange {
		m, ok := positive(last)
		if !ok || m < n {
			return 0, false
		}
	}
	return n, true
}

func positive(s string) (int, bool) {
	if s == "" || len(s) > 9 || s[0] == '0' {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}
