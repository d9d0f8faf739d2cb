package probe

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// Result assertions.
//
// A case's "expect" may assert on its result besides its status:
//
//	"expect": {"httpStatus": 201,
//	           "equals":   {"/bodyText/reservation/status": "active"},
//	           "contains": {"/bodyText": "var-0001"}}
//
// Each pointer is a JSON Pointer into the result's structuredContent (or,
// for a result that carries its JSON as text only, into that JSON). Where
// the pointer reaches a string that holds a JSON document and goes on, it
// goes on inside that document: /bodyText/reservation/status reads the
// status of the body passed through. "equals" holds when the value there is
// equal to the one given (JSON equality); "contains" when the string there,
// or the JSON text of any other value, contains the text given.

// Assertion is one pointer and what must hold there.
type Assertion struct {
	Pointer string
	// Equals is the value the pointer must lead to; nil for a contains
	// assertion.
	Equals canonjson.Value
	// Contains is the text the value must contain.
	Contains string
}

// readAssertions reads an expect member of assertions: an object of JSON
// Pointers to values (equals) or to strings (contains).
func readAssertions(key string, v canonjson.Value) ([]Assertion, error) {
	o, ok := v.(*canonjson.Object)
	if !ok || o.Len() == 0 {
		return nil, fmt.Errorf(`"expect": %q must be a non-empty object of JSON Pointers, such as {"/bodyText": …}`, key)
	}
	var out []Assertion
	for ptr, want := range o.All() {
		if ptr != "" && !strings.HasPrefix(ptr, "/") {
			return nil, fmt.Errorf(`"expect": %q: %q is not a JSON Pointer (it starts with "/")`, key, ptr)
		}
		a := Assertion{Pointer: ptr}
		if key == "equals" {
			a.Equals = want
		} else {
			s, ok := want.(canonjson.String)
			if !ok {
				return nil, fmt.Errorf(`"expect": "contains": %q must be given a string, found %s`, ptr, canonjson.TypeName(want))
			}
			a.Contains = string(s)
		}
		out = append(out, a)
	}
	return out, nil
}

// checkAssertions reports the assertions of a case its answer breaks and
// reports whether all held.
func (p *prober) checkAssertions(c *Case, res *mcpcheck.CallResult) bool {
	if len(c.Assertions) == 0 || res == nil {
		return true
	}
	if res.Error != nil {
		p.report(RuleResultAssertion, c, "answered with JSON-RPC error %d, so no assertion on its result could hold", res.Error.Code)
		return false
	}
	r, err := parseResult(res.Raw)
	if err != nil {
		return false // the kind's own check reports it
	}
	payload := r.payload()
	ok := true
	for _, a := range c.Assertions {
		got, err := resolveThrough(payload, a.Pointer)
		switch {
		case err != nil:
			p.report(RuleResultAssertion, c, "%s: %v", pointerOrRoot(a.Pointer), err)
			ok = false
		case a.Equals != nil && !canonjson.Equal(got, a.Equals):
			p.report(RuleResultAssertion, c, "%s is %s, the case expects %s", pointerOrRoot(a.Pointer), clipString(compact(got), 160), clipString(compact(a.Equals), 160))
			ok = false
		case a.Equals == nil && !strings.Contains(textOf(got), a.Contains):
			p.report(RuleResultAssertion, c, "%s is %s, which does not contain %q", pointerOrRoot(a.Pointer), clipString(compact(got), 160), a.Contains)
			ok = false
		}
	}
	return ok
}

// payload returns what a result holds: structuredContent, or the JSON a
// text block carries, or the text itself.
func (r *toolResult) payload() canonjson.Value {
	if r.Structured != nil {
		return r.Structured
	}
	for _, t := range r.Texts() {
		if v, err := canonjson.Decode([]byte(t)); err == nil {
			return v
		}
	}
	return canonjson.String(r.Text())
}

// resolveThrough resolves a JSON Pointer, going on inside a string that
// holds a JSON document where the pointer goes on.
func resolveThrough(v canonjson.Value, pointer string) (canonjson.Value, error) {
	if pointer == "" {
		return v, nil
	}
	tokens := strings.Split(pointer[1:], "/")
	for i, raw := range tokens {
		tok := strings.ReplaceAll(strings.ReplaceAll(raw, "~1", "/"), "~0", "~")
		if s, ok := v.(canonjson.String); ok {
			doc, err := canonjson.Decode([]byte(s))
			if err != nil {
				return nil, fmt.Errorf("/%s is a string that holds no JSON document to go on into", strings.Join(tokens[:i], "/"))
			}
			v = doc
		}
		switch x := v.(type) {
		case *canonjson.Object:
			next, ok := x.Get(tok)
			if !ok {
				return nil, fmt.Errorf("the result has no member %q at /%s", tok, strings.Join(tokens[:i], "/"))
			}
			v = next
		case canonjson.Array:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(x) {
				return nil, fmt.Errorf("the result has no element %q at /%s (%d elements)", tok, strings.Join(tokens[:i], "/"), len(x))
			}
			v = x[n]
		default:
			return nil, errors.New("the pointer goes on past a " + canonjson.TypeName(v))
		}
	}
	return v, nil
}

// textOf is a value as text: a string itself, anything else its JSON.
func textOf(v canonjson.Value) string {
	if s, ok := v.(canonjson.String); ok {
		return string(s)
	}
	return compact(v)
}

func compact(v canonjson.Value) string { return string(canonjson.Compact(v)) }
