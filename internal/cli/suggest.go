package cli

// suggest returns the candidate a mistyped word most likely meant, or ""
// when none is close: within two edits (a swap of neighbours is one), and
// fewer than half the word's letters, so that short words are not
// "corrected" into anything.
func suggest(word string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		d := editDistance(word, c)
		if d < bestDist && 2*d < len(c) {
			best, bestDist = c, d
		}
	}
	return best
}

// didYouMean is the end of a message about a mistyped word: "; did you
// mean X?" with the closest candidate, written as show writes it, or "".
func didYouMean(word string, candidates []string, show func(string) string) string {
	if s := suggest(word, candidates); s != "" {
		return "; did you mean " + show(s) + "?"
	}
	return ""
}

// editDistance is the optimal string alignment distance of a and b: the
// insertions, deletions, substitutions and swaps of adjacent bytes that
// turn one into the other.
func editDistance(a, b string) int {
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
