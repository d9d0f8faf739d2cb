package probe

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/portableschema"
)

// maxViolations bounds how many violations one validation reports.
const maxViolations = 5

// violation is one place where a value breaks a schema.
type violation = portableschema.Violation

// validate checks a value against a schema of the portable subset that
// contracts use, plus anyOf/oneOf/allOf, with the contract's semantics (1.0
// is not an integer, lengths count code points, patterns are Go regular
// expressions and one Go cannot compile is a violation): see
// portableschema.
func validate(schema, value canonjson.Value) []violation {
	return portableschema.Validate(schema, value, maxViolations)
}

// clipString shortens s to at most n characters for a message.
func clipString(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
