package livecall

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/toolresult"
)

// ReferenceKey marks a value of a call's arguments that an earlier call of
// the same run returned:
//
//	{"$result": {"capabilityId": "quote-equipment-loan", "path": ["quote"]}}
//
// stands for structuredContent.data.quote of the latest successful call of
// that capability in the session. Instead of a path of member names, a
// reference may give a JSON Pointer (RFC 6901) into that call's whole
// tools/call result, which also reaches array items:
//
//	{"$result": {"capabilityId": "create-item", "pointer": "/structuredContent/data/items/0/id"}}
//
// A value issued at run time (a grant, an identifier, the item a delete
// removes) is thus passed on as a client passes it on, and never written
// into a case by hand.
const ReferenceKey = "$result"

// Reference is one reference of a call's arguments.
type Reference struct {
	// At is its JSON Pointer in the arguments.
	At           string
	CapabilityID string
	// Path are member names under structuredContent.data; Pointer, when
	// the reference gives one instead, is a JSON Pointer into the whole
	// result (ValidPointer says whether it is one).
	Path    []string
	Pointer string
	// HasPointer says the reference gives a pointer ("" points at the
	// whole result).
	HasPointer bool
}

// References returns the references in args, in document order, or an
// error for a "$result" object that is not one.
func References(args *canonjson.Object) ([]Reference, error) {
	var out []Reference
	_, err := substitute(args, "", func(r Reference) (canonjson.Value, error) {
		out = append(out, r)
		return canonjson.Null{}, nil
	})
	return out, err
}

// Results are the latest successful result of each capability in a
// session, by capability ID.
type Results map[string]canonjson.Value

// Record keeps a successful Tool result (isError false,
// structuredContent.data present); anything else is not kept.
func (rs Results) Record(capabilityID string, result []byte) {
	doc, err := canonjson.Decode(result)
	if err != nil {
		return
	}
	if r, err := toolresult.Parse(doc); err == nil {
		if _, ok := r.Data(); ok {
			rs[capabilityID] = doc
		}
	}
}

// ValidPointer says why s is not a JSON Pointer (RFC 6901): it is "" or
// starts with "/", and every "~" is "~0" or "~1".
func ValidPointer(s string) error {
	if s != "" && !strings.HasPrefix(s, "/") {
		return fmt.Errorf("%q does not start with \"/\"", s)
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '~' && (i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1')) {
			return fmt.Errorf("%q has a \"~\" that is not \"~0\" or \"~1\"", s)
		}
	}
	return nil
}

// Resolve returns a copy of args with every reference replaced by the value
// it names, or why one cannot be: its capability has no successful call
// yet, or the path leads nowhere.
func (rs Results) Resolve(args *canonjson.Object) (*canonjson.Object, error) {
	if args == nil {
		return &canonjson.Object{}, nil
	}
	v, err := substitute(args, "", func(r Reference) (canonjson.Value, error) {
		result, ok := rs[r.CapabilityID]
		if !ok {
			return nil, fmt.Errorf("%s: %s has no successful call before this one in the session", r.At, r.CapabilityID)
		}
		if r.HasPointer {
			if err := ValidPointer(r.Pointer); err != nil {
				return nil, fmt.Errorf("%s: %v", r.At, err)
			}
			found, ok := canonjson.Resolve(result, r.Pointer)
			if !ok {
				return nil, fmt.Errorf("%s: the result of %s has nothing at %q", r.At, r.CapabilityID, r.Pointer)
			}
			return canonjson.Clone(found), nil
		}
		tokens := []any{"structuredContent", "data"}
		for _, s := range r.Path {
			tokens = append(tokens, s)
		}
		found, ok := canonjson.Resolve(result, diag.Pointer(tokens...))
		if !ok {
			return nil, fmt.Errorf("%s: the result of %s has nothing at %q", r.At, r.CapabilityID, r.Path)
		}
		return canonjson.Clone(found), nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*canonjson.Object), nil
}

// substitute copies v, replacing each reference with what value returns
// for it.
func substitute(v canonjson.Value, at string, value func(Reference) (canonjson.Value, error)) (canonjson.Value, error) {
	switch v := v.(type) {
	case *canonjson.Object:
		if v.Has(ReferenceKey) {
			r, err := reference(v, at)
			if err != nil {
				return nil, err
			}
			return value(r)
		}
		out := &canonjson.Object{}
		for k, e := range v.All() {
			c, err := substitute(e, at+"/"+diag.EscapeToken(k), value)
			if err != nil {
				return nil, err
			}
			out.Set(k, c)
		}
		return out, nil
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			c, err := substitute(e, at+"/"+strconv.Itoa(i), value)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

// reference reads {"$result": {"capabilityId", "path"}}.
func reference(o *canonjson.Object, at string) (Reference, error) {
	r := Reference{At: at}
	ref, _ := o.At(ReferenceKey).(*canonjson.Object)
	if o.Len() != 1 || ref == nil {
		return r, fmt.Errorf("%s: a reference is {%q: {\"capabilityId\": …, \"path\": […]}} and nothing else", at, ReferenceKey)
	}
	for _, k := range ref.Keys() {
		if k != "capabilityId" && k != "path" && k != "pointer" {
			return r, fmt.Errorf("%s: a reference has capabilityId and a path or a pointer, not %q", at, k)
		}
	}
	id, _ := ref.At("capabilityId").(canonjson.String)
	if ref.Has("pointer") {
		p, ok := ref.At("pointer").(canonjson.String)
		if id == "" || !ok || ref.Has("path") {
			return r, fmt.Errorf("%s: a reference names a capabilityId and either a path (a list of member names) or a pointer (a JSON Pointer string)", at)
		}
		r.CapabilityID, r.Pointer, r.HasPointer = string(id), string(p), true
		return r, nil
	}
	path, ok := ref.At("path").(canonjson.Array)
	if id == "" || !ok {
		return r, fmt.Errorf("%s: a reference names a capabilityId and either a path (a list of member names) or a pointer (a JSON Pointer string)", at)
	}
	for _, seg := range path {
		s, ok := seg.(canonjson.String)
		if !ok {
			return r, fmt.Errorf("%s: a reference's path holds member names (strings)", at)
		}
		r.Path = append(r.Path, string(s))
	}
	r.CapabilityID = string(id)
	return r, nil
}
