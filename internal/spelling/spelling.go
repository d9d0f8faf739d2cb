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

// Distance is the optimal string alignment distance between a and b, in
// bytes: the insertions, deletions, substitutions and swaps of neighbours
// that turn one into the other ("rnu" is one swap from "run").
func Distance(a, b string) int {
	// Three rows of the table: two back, the previous and the current.
	prev2 := make([]int, len(b)+1)
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
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
