package sarif

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
)

// fingerprints computes the partial fingerprints of a run's results. A
// fingerprint identifies a finding by what it is, not where it happens to
// be: its rule, its file, its JSON Pointer and its message with numbers
// (line numbers, counts) and hashes blanked out, and which occurrence of
// that it is in the file. An edit that moves a finding to another line
// keeps its fingerprint; a code-scanning service then sees the same alert.
type fingerprints struct {
	seen map[string]int
}

var (
	hexRun   = regexp.MustCompile(`\b[0-9a-f]{7,}\b`)
	digitRun = regexp.MustCompile(`[0-9]+`)
	spaceRun = regexp.MustCompile(`\s+`)
)

// normalise blanks out what changes between runs without changing the
// finding: hashes, numbers, runs of white space.
func normalise(message string) string {
	s := hexRun.ReplaceAllString(message, "#")
	s = digitRun.ReplaceAllString(s, "0")
	return strings.TrimSpace(spaceRun.ReplaceAllString(s, " "))
}

// next returns the fingerprint of the next result, in the order results
// are printed.
func (f *fingerprints) next(rule, uri, pointer, message string) string {
	key := strings.Join([]string{rule, uri, pointer, normalise(message)}, "\x00")
	if f.seen == nil {
		f.seen = map[string]int{}
	}
	n := f.seen[key]
	f.seen[key] = n + 1
	sum := sha256.Sum256([]byte(key + "\x00" + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:16])
}
