package cli

import "github.com/code2skill/code2skill/internal/spelling"

// suggest returns the candidate a mistyped word most likely meant, or ""
// when none is close: within two edits, and fewer than half the
// candidate's letters, so that short words are not "corrected" into
// anything.
func suggest(word string, candidates []string) string {
	s := spelling.Closest(word, candidates)
	if s == "" || 2*spelling.Distance(word, s) >= len(s) {
		return ""
	}
	return s
}

// didYouMean is the end of a message about a mistyped word: "; did you
// mean X?" with the closest candidate, written as show writes it, or "".
func didYouMean(word string, candidates []string, show func(string) string) string {
	if s := suggest(word, candidates); s != "" {
		return "; did you mean " + show(s) + "?"
	}
	return ""
}
