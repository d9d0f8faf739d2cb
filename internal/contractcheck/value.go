package contractcheck

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/portableschema"
)

// validate checks a value against a schema of the portable subset and
// returns why it does not satisfy it, or "" when it does: the first
// violation portableschema finds. A pattern that does not compile
// (RuleSchemaPattern reports it) asserts nothing here.
func validate(schema, value canonjson.Value) string {
	for _, v := range portableschema.Validate(schema, value, 0) {
		if !v.Unchecked {
			return v.String()
		}
	}
	return ""
}

// show renders a value for a message, shortened.
func show(v canonjson.Value) string {
	b := canonjson.DigestForm(v)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}
