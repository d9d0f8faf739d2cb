package jsonschema

import (
	"encoding/json"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Native converts a document held as a canonjson value into the form
// ValidateValue takes (what Decode returns), so that a document built in
// memory is validated without being encoded and parsed again. Numbers keep
// their literal text.
func Native(v canonjson.Value) any {
	switch v := v.(type) {
	case canonjson.Null:
		return nil
	case canonjson.Bool:
		return bool(v)
	case canonjson.Number:
		return json.Number(v)
	case canonjson.String:
		return string(v)
	case canonjson.Array:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = Native(e)
		}
		return out
	case *canonjson.Object:
		out := make(map[string]any, v.Len())
		for k, e := range v.All() {
			out[k] = Native(e)
		}
		return out
	}
	return nil
}
