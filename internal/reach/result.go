package reach

import (
	"encoding/json"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// result is a tools/call result, the recorder's observation taken out.
type result struct {
	raw        *canonjson.Object
	isError    bool
	structured canonjson.Value
	texts      []string
}

// parseResult reads a result and the observation it carries.
func parseResult(raw json.RawMessage) (*result, observation) {
	obs := observation{missing: true}
	v, err := canonjson.Decode(raw)
	o, ok := v.(*canonjson.Object)
	if err != nil || !ok {
		return &result{raw: &canonjson.Object{}}, obs
	}
	if meta, ok := o.At("_meta").(*canonjson.Object); ok {
		if m, ok := meta.Get(MetaKey); ok {
			var decoded observation
			if canonjson.Unmarshal(canonjson.Encode(m), &decoded) == nil {
				obs = decoded
			}
			meta.Delete(MetaKey)
			if meta.Len() == 0 {
				o.Delete("_meta")
			}
		}
	}
	r := &result{raw: o, structured: o.At("structuredContent")}
	isError, _ := o.At("isError").(canonjson.Bool)
	r.isError = bool(isError)
	if content, ok := o.At("content").(canonjson.Array); ok {
		for _, b := range content {
			block, _ := b.(*canonjson.Object)
			if t, _ := block.At("type").(canonjson.String); t == "text" {
				if s, ok := block.At("text").(canonjson.String); ok {
					r.texts = append(r.texts, string(s))
				}
			}
		}
	}
	return r, obs
}

// payload returns what the result holds: structuredContent, or the JSON
// object its text carries; an empty object when neither is one.
func (r *result) payload() *canonjson.Object {
	if o, ok := r.structured.(*canonjson.Object); ok {
		return o
	}
	for _, t := range r.texts {
		if v, err := canonjson.Decode([]byte(t)); err == nil {
			if o, ok := v.(*canonjson.Object); ok {
				return o
			}
		}
	}
	return &canonjson.Object{}
}

func (r *result) text() string { return strings.Join(r.texts, "\n") }

// shown is the result for a message: its payload, or its text.
func (r *result) shown() string {
	if p := r.payload(); p.Len() > 0 {
		return show(p)
	}
	if t := r.text(); t != "" {
		return t
	}
	return show(r.raw)
}
