package reach

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/diag"
)

// Marker values.
//
// Every scalar an input schema declares (at any depth: the members of a
// declared object, the items of an array) is one input to check. It gets
// a value a Function accepts as readily as a real one, yet distinct from
// every other input's and from anything a request holds by accident:
//
//   - text: "c2s" and eight digits (c2s73000004); a number, or text that
//     may be a number: the eight digits alone (73000004), which survive
//     Number(), String(), a conversion to cents and a template;
//   - a format the schema states: a date, time, date-time, e-mail, URI or
//     UUID holding the input's digits;
//   - a value the schema suggests (examples): the first example shaped to
//     hold the input's digits ("r-1" gives "r-73000004", a cursor
//     "eyJpZCI6MTB9" gives "eyJpZCI73000004MTB9"), so that it is found
//     like any marker; when the Tool refuses shaped values, the examples
//     themselves, the second one being the differential value;
//   - a value the schema fixes (const, enum) or a boolean: its first enum
//     value, true, a number inside its bounds. Such a value is not
//     distinct, so the input is checked only by changing it (its second
//     value, false, another number): the request must change too. An
//     input with a single allowed value cannot be changed: it is named as
//     not checked.
//
// A Tool documents an input as local, used by the Function but never
// sent (a confirmation the Function checks, a choice of how to read the
// answer), by giving its schema "x-code2skill-local" with the reason
// (zod: .meta({ "x-code2skill-local": "…" })). Local inputs still get a
// value; they are not required to reach the request.

// LocalKey is the input-schema keyword that documents an input as local.
const LocalKey = "x-code2skill-local"

// input is one scalar of a Tool's arguments.
type input struct {
	path    string // "selectedVariety.varietyId", "tags[]"
	pointer string // into the tools/list entry
	local   string // the documented reason, for a local input
	value   canonjson.Value
	// marker is the lower-cased text that stands for value in a request;
	// "" when value is not distinct (only the differential call tells).
	marker string
	// alt is the value of the differential call; nil when there is none
	// (a const, an enum of one value): the input is then not checked.
	alt canonjson.Value
	// fixed says why an input has no alt ("its schema allows one value").
	fixed string
	// plain and plainAlt are the examples an example-shaped value stands
	// for, used instead when the Tool refuses shaped values; plain is nil
	// for an input whose value is not shaped.
	plain, plainAlt canonjson.Value
	// configuration marks an input named like a credential or a service
	// address, which no Tool may take (the input rules report it): where
	// it goes is not asked.
	configuration bool
	// text marks an input whose schema admits text, which an address is.
	text bool
}

// owed reports whether an input must reach the request: it is neither
// documented as local nor a configuration.
func (in *input) owed() bool { return in.local == "" && !in.configuration }

// shape is how a Tool's arguments are built: an object of members, an
// array of one item, or an input.
type shape struct {
	members []member
	item    *shape
	leaf    *input
	array   bool
}

type member struct {
	name  string
	shape *shape
}

// plan is what the calls of one Tool send.
type plan struct {
	root   *shape
	inputs []*input
}

// markerBase is the first marker's digits; altBase the first differential
// value's.
const (
	markerBase = 73000000
	altBase    = 74000000
)

// planFor builds a Tool's arguments from its input schema.
func planFor(t Tool) *plan {
	p := &plan{root: &shape{}}
	if t.InputSchema == nil {
		return p
	}
	ptr := diag.Pointer("tools", t.Index, "inputSchema")
	p.root = p.object(t.InputSchema, "", ptr, localReason(t.InputSchema))
	return p
}

// localReason returns the reason a schema documents for being local.
func localReason(s *canonjson.Object) string {
	r, _ := s.At(LocalKey).(canonjson.String)
	return strings.TrimSpace(string(r))
}

// alternatives returns a schema and the schemas it unites (anyOf, oneOf),
// the nullable forms SDKs write included.
func alternatives(s *canonjson.Object) []*canonjson.Object {
	out := []*canonjson.Object{s}
	for _, k := range []string{"anyOf", "oneOf"} {
		if arr, ok := s.At(k).(canonjson.Array); ok {
			for _, a := range arr {
				if o, ok := a.(*canonjson.Object); ok {
					out = append(out, alternatives(o)...)
				}
			}
		}
	}
	return out
}

// types returns the JSON types a schema and its alternatives admit.
func types(s *canonjson.Object) map[string]bool {
	out := map[string]bool{}
	for _, a := range alternatives(s) {
		switch t := a.At("type").(type) {
		case canonjson.String:
			out[string(t)] = true
		case canonjson.Array:
			for _, e := range t {
				if str, ok := e.(canonjson.String); ok {
					out[string(str)] = true
				}
			}
		}
		if a.Has("properties") {
			out["object"] = true
		}
		if a.Has("items") {
			out["array"] = true
		}
	}
	return out
}

// first returns the first alternative holding key.
func first(s *canonjson.Object, key string) (*canonjson.Object, canonjson.Value) {
	for _, a := range alternatives(s) {
		if v, ok := a.Get(key); ok {
			return a, v
		}
	}
	return nil, nil
}

func (p *plan) object(s *canonjson.Object, path, ptr, local string) *shape {
	out := &shape{}
	alt, props := first(s, "properties")
	o, ok := props.(*canonjson.Object)
	if !ok {
		return out
	}
	altPtr := ptr + alternativeIndex(s, alt)
	for name, v := range o.All() {
		child, ok := v.(*canonjson.Object)
		if !ok {
			continue
		}
		childPath := name
		if path != "" {
			childPath = path + "." + name
		}
		childLocal := local
		if r := localReason(child); r != "" {
			childLocal = r
		}
		out.members = append(out.members, member{name, p.schema(child, childPath, altPtr+"/properties/"+diag.EscapeToken(name), childLocal)})
	}
	return out
}

// alternativeIndex returns the pointer suffix of the alternative of s
// that is a, "" when a is s itself.
func alternativeIndex(s, a *canonjson.Object) string {
	if a == nil || a == s {
		return ""
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if arr, ok := s.At(k).(canonjson.Array); ok {
			for i, e := range arr {
				if e == canonjson.Value(a) {
					return fmt.Sprintf("/%s/%d", k, i)
				}
			}
		}
	}
	return ""
}

// schema builds the shape of one value.
func (p *plan) schema(s *canonjson.Object, path, ptr, local string) *shape {
	ts := types(s)
	switch {
	case ts["object"] && !ts["string"] && !ts["number"] && !ts["integer"]:
		return p.object(s, path, ptr, local)
	case ts["array"] && !ts["string"]:
		_, items := first(s, "items")
		item, ok := items.(*canonjson.Object)
		if !ok {
			return &shape{array: true}
		}
		return &shape{array: true, item: p.schema(item, path+"[]", ptr+"/items", local)}
	}
	name := path[strings.LastIndexAny(path, ".]")+1:]
	in := &input{path: path, pointer: ptr, local: local, text: ts["string"] || len(ts) == 0,
		configuration: credential.Name(name) || !strings.ContainsAny(path, ".[") && credential.Address(name)}
	p.inputs = append(p.inputs, in)
	n := len(p.inputs)
	p.leafValue(in, s, ts, n)
	return &shape{leaf: in}
}

// leafValue chooses an input's value, marker and differential value.
func (p *plan) leafValue(in *input, s *canonjson.Object, ts map[string]bool, n int) {
	digits := markerBase + n
	if _, v := first(s, "const"); v != nil {
		in.value, in.fixed = v, "its schema fixes its value (const)"
		return
	}
	if _, v := first(s, "enum"); v != nil {
		if vals := nonNull(v); len(vals) > 0 {
			in.value = vals[0]
			if len(vals) > 1 {
				in.alt = vals[1]
			} else {
				in.fixed = "its enum allows one value"
			}
			return
		}
	}
	_, f := first(s, "format")
	format, _ := f.(canonjson.String)
	if _, v := first(s, "examples"); v != nil && (format == "" || !ts["string"]) {
		if vals := nonNull(v); len(vals) > 0 {
			if p.shaped(in, s, ts, vals, n) {
				return
			}
			in.value = vals[0]
			if len(vals) > 1 {
				in.alt = vals[1]
			} else {
				in.fixed = "its schema gives one example and no type a value could be shaped by"
			}
			return
		}
	}
	switch {
	case ts["number"] || ts["integer"]:
		lo, hi := bounds(s)
		if float64(digits) >= lo && float64(digits) <= hi {
			in.value, in.marker, in.alt = canonjson.Int(digits), fmt.Sprint(digits), canonjson.Int(altBase+n)
			return
		}
		v := math.Max(lo, math.Min(hi, 1))
		if math.IsInf(v, 0) {
			v = 0
		}
		v = math.Ceil(v)
		in.value = canonjson.Int(int(v))
		if v+1 <= hi {
			in.alt = canonjson.Int(int(v + 1))
		} else {
			in.fixed = "its bounds allow one value"
		}
	case ts["string"] || len(ts) == 0 || ts["null"] && len(ts) == 1:
		if ts["null"] && len(ts) == 1 {
			in.value, in.fixed = canonjson.Null{}, "its schema allows only null"
			return
		}
		text, alt := formatted(string(format), n)
		if _, ml := first(s, "maxLength"); ml != nil {
			if m, ok := ml.(canonjson.Number).Int64(); ok && int(m) < len(text) {
				text, alt = "a", "b"
				in.value, in.alt = canonjson.String(text), canonjson.String(alt)
				return
			}
		}
		marker := strings.ToLower(text)
		text, alt = padded(s, text), padded(s, alt)
		in.value, in.marker, in.alt = canonjson.String(text), marker, canonjson.String(alt)
	case ts["boolean"]:
		in.value, in.alt = canonjson.Bool(true), canonjson.Bool(false)
	default:
		in.value, in.fixed = canonjson.Null{}, "its schema states no type a value could be made for"
	}
}

// padded lengthens a value to the schema's minLength; a longer value
// still holds the marker.
func padded(s *canonjson.Object, text string) string {
	if _, ml := first(s, "minLength"); ml != nil {
		if m, ok := ml.(canonjson.Number).Int64(); ok && int(m) > len(text) {
			return text + strings.Repeat("x", int(m)-len(text))
		}
	}
	return text
}

// shaped gives an input whose schema lists examples a value shaped like
// the first one that holds the input's digits, keeping the examples for
// a Tool that refuses it. It reports false when no value can be shaped
// (the examples are neither text nor numbers of the input's type).
func (p *plan) shaped(in *input, s *canonjson.Object, ts map[string]bool, examples []canonjson.Value, n int) bool {
	in.plain = examples[0]
	if len(examples) > 1 {
		in.plainAlt = examples[1]
	}
	switch ex := examples[0].(type) {
	case canonjson.String:
		text, alt := shapeLike(string(ex), markerBase+n), shapeLike(string(ex), altBase+n)
		in.value, in.marker, in.alt = canonjson.String(padded(s, text)), fmt.Sprint(markerBase+n), canonjson.String(padded(s, alt))
		return true
	case canonjson.Number:
		lo, hi := bounds(s)
		if (ts["number"] || ts["integer"]) && float64(markerBase+n) >= lo && float64(altBase+n) <= hi {
			in.value, in.marker, in.alt = canonjson.Int(markerBase+n), fmt.Sprint(markerBase+n), canonjson.Int(altBase+n)
			return true
		}
	}
	in.plain, in.plainAlt = nil, nil
	return false
}

// digitRun is a run of decimal digits.
var digitRun = regexp.MustCompile(`[0-9]+`)

// shapeLike returns an example with its longest run of digits replaced by
// digits, or, when it has none, followed by them: "r-1" gives "r-73000004".
func shapeLike(example string, digits int) string {
	runs := digitRun.FindAllStringIndex(example, -1)
	if len(runs) == 0 {
		return example + fmt.Sprint(digits)
	}
	longest := runs[0]
	for _, r := range runs[1:] {
		if r[1]-r[0] > longest[1]-longest[0] {
			longest = r
		}
	}
	return example[:longest[0]] + fmt.Sprint(digits) + example[longest[1]:]
}

// plainExamples turns the plan's example-shaped values back into the
// examples they stand for, for a Tool that refused the shaped ones; it
// reports whether there was any.
func (p *plan) plainExamples() bool {
	changed := false
	for _, in := range p.inputs {
		if in.plain == nil {
			continue
		}
		in.value, in.marker, in.alt = in.plain, "", in.plainAlt
		if in.alt == nil {
			in.fixed = "its schema gives one example, and the Tool refused a value shaped like it"
		}
		in.plain = nil
		changed = true
	}
	return changed
}

// formatted returns the n-th marker text of a string format and its
// differential value.
func formatted(format string, n int) (string, string) {
	digits, alt := markerBase+n, altBase+n
	month, day := 1+n%12, 1+n%28
	switch format {
	case "date":
		return fmt.Sprintf("2031-%02d-%02d", month, day), fmt.Sprintf("2032-%02d-%02d", month, day)
	case "date-time":
		return fmt.Sprintf("2031-%02d-%02dT10:%02d:%02dZ", month, day, n%60, n%60), fmt.Sprintf("2032-%02d-%02dT11:%02d:%02dZ", month, day, n%60, n%60)
	case "time":
		return fmt.Sprintf("21:%02d:%02d", n%60, (n+30)%60), fmt.Sprintf("22:%02d:%02d", n%60, (n+30)%60)
	case "email":
		return fmt.Sprintf("c2s%d@reach.invalid", digits), fmt.Sprintf("c2s%d@reach.invalid", alt)
	case "uri", "url", "uri-reference", "iri":
		return fmt.Sprintf("https://c2s%d.reach.invalid/", digits), fmt.Sprintf("https://c2s%d.reach.invalid/", alt)
	case "uuid":
		return fmt.Sprintf("%08d-0000-4000-8000-%012d", digits, n), fmt.Sprintf("%08d-0000-4000-8000-%012d", alt, n)
	}
	return fmt.Sprintf("c2s%d", digits), fmt.Sprintf("c2s%d", alt)
}

// bounds returns the inclusive range a number schema admits.
func bounds(s *canonjson.Object) (float64, float64) {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, a := range alternatives(s) {
		for key, set := range map[string]func(float64){
			"minimum":          func(v float64) { lo = math.Max(lo, v) },
			"exclusiveMinimum": func(v float64) { lo = math.Max(lo, v+1) },
			"maximum":          func(v float64) { hi = math.Min(hi, v) },
			"exclusiveMaximum": func(v float64) { hi = math.Min(hi, v-1) },
		} {
			if n, ok := a.At(key).(canonjson.Number); ok {
				if f, ok := n.Float64(); ok {
					set(f)
				}
			}
		}
	}
	return lo, hi
}

// nonNull returns the values of an enum or examples array but null.
func nonNull(v canonjson.Value) []canonjson.Value {
	arr, _ := v.(canonjson.Array)
	var out []canonjson.Value
	for _, e := range arr {
		if _, isNull := e.(canonjson.Null); !isNull {
			out = append(out, e)
		}
	}
	return out
}

// args builds the arguments, with some inputs given other values.
func (p *plan) args(override map[*input]canonjson.Value) *canonjson.Object {
	v := build(p.root, override)
	if o, ok := v.(*canonjson.Object); ok {
		return o
	}
	return &canonjson.Object{}
}

func build(s *shape, override map[*input]canonjson.Value) canonjson.Value {
	switch {
	case s.leaf != nil:
		if v, ok := override[s.leaf]; ok {
			return v
		}
		return s.leaf.value
	case s.array:
		if s.item == nil {
			return canonjson.Array{}
		}
		return canonjson.Array{build(s.item, override)}
	}
	o := &canonjson.Object{}
	for _, m := range s.members {
		o.Set(m.name, build(m.shape, override))
	}
	return o
}

// markers returns the marker texts of the plan, for the recorder to tell
// the Tool's own requests from others (a login).
func (p *plan) markers() []string {
	var out []string
	for _, in := range p.inputs {
		if in.marker != "" {
			out = append(out, in.marker)
		}
	}
	return out
}

// Arguments returns the arguments the reachability calls give a Tool:
// a marker value for every input its schema declares. The probe uses
// them for the dry-run case of a write it has no case for.
func Arguments(t Tool) *canonjson.Object { return planFor(t).args(nil) }
