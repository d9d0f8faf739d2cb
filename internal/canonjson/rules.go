package canonjson

import "github.com/code2skill/code2skill/internal/diag"

// Rules for JSON files that cannot be read at all. Every command that reads a
// package's JSON through Decode reports its failures with these IDs.
var (
	RuleSyntax       = diag.Register("JSON_SYNTAX", diag.Error, "a JSON file is not well-formed JSON")
	RuleDuplicateKey = diag.Register("JSON_DUPLICATE_KEY", diag.Error, "a JSON object repeats a key, which readers resolve differently")
	RuleEncoding     = diag.Register("JSON_ENCODING", diag.Error, "a JSON file is not plain UTF-8 (invalid bytes, a byte-order mark or a lone surrogate escape)")
	RuleNumberRange  = diag.Register("JSON_NUMBER_RANGE", diag.Error, "a non-integer JSON number is outside the range of a 64-bit float")
)

// Diagnostic returns the finding that reports e in file.
func (e *SyntaxError) Diagnostic(file string) diag.Diagnostic {
	rule := RuleSyntax
	switch e.Kind {
	case KindDuplicateKey:
		rule = RuleDuplicateKey
	case KindEncoding:
		rule = RuleEncoding
	case KindNumberRange:
		rule = RuleNumberRange
	}
	return rule.New(file, "%s", e.Msg).At(e.Line, e.Column)
}
