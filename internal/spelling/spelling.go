// Package spelling finds the word a mistyped one most likely meant: the
// known key of a misspelt contract member, the command or flag of a
// mistyped command line.
package spelling

import "strings"

// Closest returns the candidate word most likely meant: one that differs
// from it only in case, else the nearest within two edits. It returns ""
// when none is that close.
func Closest(word string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if strings.EqualFold(c, word) {
			return c
		}
		if d := Distance(word, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// Distance is the Levenshtein distance between a and b, in bytes: the
// insertions, deletions and substitutions that turn one into the other.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
