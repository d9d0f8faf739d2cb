package contract

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/spelling"
)

// Rules for input documents whose JSON is well formed but does not follow
// their format. They apply to all four vNext inputs; the file of a finding
// says which format it broke.
var (
	RuleType              = diag.Register("FORMAT_TYPE", diag.Error, "a field holds a JSON type its format does not allow")
	RuleFieldMissing      = diag.Register("FORMAT_FIELD_MISSING", diag.Error, "a field the format requires is absent")
	RuleFieldUnknown      = diag.Register("FORMAT_FIELD_UNKNOWN", diag.Error, "a closed record holds a field its format does not define, or one the format forbids")
	RuleFieldUnrecognized = diag.Register("FORMAT_FIELD_UNRECOGNIZED", diag.Warning, "an open record holds a field the format does not define; it is kept but means nothing")
	RuleEmpty             = diag.Register("FORMAT_EMPTY", diag.Error, "a field that must not be empty is an empty string or list")
	RuleVocabulary        = diag.Register("FORMAT_VOCABULARY", diag.Error, "a field's value is not one of the values its format allows")
)

// presence says whether a field must be present.
type presence uint8

const (
	opt  presence = iota // may be absent
	req                  // must be present; a string must also be non-empty
	some                 // must be present and, for a list, non-empty
)

// reader decodes one document into the model, accumulating findings rather
// than stopping at the first.
//
// Findings go to one of two lists. diags holds what keeps views from being
// derived: malformed JSON, wrong types, missing fields and vocabularies the
// views interpret. deferred holds format findings that views do not depend
// on — unknown fields, and values outside vocabularies only the semantic
// checks interpret — which derive leaves to check-contract.
type reader struct {
	file      string
	diags     diag.List
	deferred  diag.List
	deferring int // > 0 while reading what only the semantic checks judge
}

func (rd *reader) report(rule *diag.Rule, at, format string, args ...any) {
	d := rule.New(rd.file, format, args...).AtPointer(at)
	if rd.deferring > 0 {
		rd.deferred.Add(d)
		return
	}
	rd.diags.Add(d)
}

// later runs read with every finding it reports deferred.
func (rd *reader) later(read func()) {
	rd.deferring++
	defer func() { rd.deferring-- }()
	read()
}

// laterEnum reads a string field of a closed vocabulary that views do not
// interpret: a value outside the vocabulary is a deferred finding.
func (r *record) laterEnum(key string, p presence, vocab []string) (s string) {
	r.rd.later(func() { s = r.enum(key, p, vocab) })
	return s
}

// decodeRoot parses data and returns its top-level record.
func (rd *reader) decodeRoot(data []byte) (*record, bool) {
	v, err := canonjson.Decode(data)
	if err != nil {
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			rd.diags.Add(se.Diagnostic(rd.file))
		} else {
			rd.diags.Add(canonjson.RuleSyntax.New(rd.file, "%v", err))
		}
		return nil, false
	}
	return rd.record(v, ""), true
}

// record is a JSON object read as a record of a format. Every accessor
// tolerates a record whose object is missing (an absent or mistyped field,
// already reported) and then returns zero values without reporting more.
type record struct {
	rd    *reader
	obj   *canonjson.Object
	at    string   // JSON Pointer of the object
	known []string // keys the format defines for this record
}

// record returns v as a record, reporting it when it is not an object.
func (rd *reader) record(v canonjson.Value, at string) *record {
	r := &record{rd: rd, at: at}
	if v == nil {
		return r
	}
	if o, ok := v.(*canonjson.Object); ok {
		r.obj = o
		// One allocation for the keys the format defines, instead of one
		// per doubling: most records define fewer than 16.
		r.known = make([]string, 0, max(o.Len(), 16))
	} else {
		rd.report(RuleType, at, "must be an object, not %s", typeName(v))
	}
	return r
}

// loc is where a value is: a member or element of the value at parent. Its
// JSON Pointer is built only when needed (a finding, a record's At), because
// most values are read without either.
type loc struct {
	parent  string // JSON Pointer of the enclosing object or array
	key     string // member name, when !isIndex
	index   int    // element index, when isIndex
	isIndex bool
}

// String returns the JSON Pointer of the location.
func (l loc) String() string {
	if l.isIndex {
		return index(l.parent, l.index)
	}
	return child(l.parent, l.key)
}

// field returns the value of key, reporting it when required and absent.
func (r *record) field(key string, p presence) (canonjson.Value, loc, bool) {
	r.known = append(r.known, key)
	if r.obj == nil {
		return nil, loc{}, false
	}
	v, ok := r.obj.Get(key)
	if !ok {
		if p != opt {
			r.rd.report(RuleFieldMissing, r.at, "required field %q is missing", key)
		}
		return nil, loc{}, false
	}
	return v, loc{parent: r.at, key: key}, true
}

// has reports whether key is present, without declaring it.
func (r *record) has(key string) bool { return r.obj != nil && r.obj.Has(key) }

// str reads a string field. A required string must not be empty.
func (r *record) str(key string, p presence) string {
	v, at, ok := r.field(key, p)
	if !ok {
		return ""
	}
	return r.rd.str(v, at, p)
}

func (rd *reader) str(v canonjson.Value, at loc, p presence) string {
	s, ok := v.(canonjson.String)
	if !ok {
		rd.report(RuleType, at.String(), "must be a string, not %s", typeName(v))
		return ""
	}
	if s == "" && p != opt {
		rd.report(RuleEmpty, at.String(), "must not be empty")
	}
	return string(s)
}

// enum reads a string field whose value comes from a closed vocabulary.
func (r *record) enum(key string, p presence, vocab []string) string {
	v, at, ok := r.field(key, p)
	if !ok {
		return ""
	}
	return r.rd.enum(v, at, vocab)
}

func (rd *reader) enum(v canonjson.Value, at loc, vocab []string) string {
	s, ok := v.(canonjson.String)
	if !ok {
		rd.report(RuleType, at.String(), "must be a string, not %s", typeName(v))
		return ""
	}
	if !slices.Contains(vocab, string(s)) {
		rd.report(RuleVocabulary, at.String(), "%s is not allowed here; use %s", strconv.Quote(string(s)), oneOf(vocab))
	}
	return string(s)
}

// boolean reads a boolean field; present is false when it is absent.
func (r *record) boolean(key string, p presence) (value, present bool) {
	v, at, ok := r.field(key, p)
	if !ok {
		return false, false
	}
	b, ok := v.(canonjson.Bool)
	if !ok {
		r.rd.report(RuleType, at.String(), "must be a boolean, not %s", typeName(v))
		return false, false
	}
	return bool(b), true
}

// integer reads an integer field. A number with a fraction or an exponent is
// not an integer, even when its value is whole (1.0).
func (r *record) integer(key string, p presence) (int64, bool) {
	v, at, ok := r.field(key, p)
	if !ok {
		return 0, false
	}
	return r.rd.integer(v, at)
}

func (rd *reader) integer(v canonjson.Value, at loc) (int64, bool) {
	n, ok := v.(canonjson.Number)
	if !ok || !n.IsInteger() {
		rd.report(RuleType, at.String(), "must be an integer, not %s", typeName(v))
		return 0, false
	}
	i, ok := n.Int64()
	if !ok {
		rd.report(RuleType, at.String(), "integer %s does not fit in 64 bits", n)
	}
	return i, ok
}

// strs reads a list of non-empty strings.
func (r *record) strs(key string, p presence) []string {
	v, at, ok := r.field(key, p)
	if !ok {
		return nil
	}
	return r.rd.strs(v, at, p)
}

func (rd *reader) strs(v canonjson.Value, at loc, p presence) []string {
	a, ok := v.(canonjson.Array)
	if !ok {
		rd.report(RuleType, at.String(), "must be an array of strings, not %s", typeName(v))
		return nil
	}
	if len(a) == 0 && p == some {
		rd.report(RuleEmpty, at.String(), "must list at least one value")
	}
	out := make([]string, 0, len(a))
	list := at.String()
	for i, e := range a {
		out = append(out, rd.str(e, loc{parent: list, index: i, isIndex: true}, req))
	}
	return out
}

// enums reads a list of strings from a closed vocabulary.
func (r *record) enums(key string, p presence, vocab []string) []string {
	v, at, ok := r.field(key, p)
	if !ok {
		return nil
	}
	a, ok := v.(canonjson.Array)
	if !ok {
		r.rd.report(RuleType, at.String(), "must be an array of strings, not %s", typeName(v))
		return nil
	}
	if len(a) == 0 && p == some {
		r.rd.report(RuleEmpty, at.String(), "must list at least one value")
	}
	out := make([]string, 0, len(a))
	list := at.String()
	for i, e := range a {
		out = append(out, r.rd.enum(e, loc{parent: list, index: i, isIndex: true}, vocab))
	}
	return out
}

// value reads a field of any JSON type, kept as written.
func (r *record) value(key string, p presence) canonjson.Value {
	v, _, _ := r.field(key, p)
	return v
}

// object reads a nested record.
func (r *record) object(key string, p presence) *record {
	v, at, ok := r.field(key, p)
	if !ok {
		// An absent record reports anything about it at its parent, the
		// nearest location that exists.
		return &record{rd: r.rd, at: r.at}
	}
	return r.rd.record(v, at.String())
}

// elem is one element of a list field.
type elem struct {
	v  canonjson.Value
	at loc
}

// list reads an array field of any element type.
func (r *record) list(key string, p presence) []elem {
	v, at, ok := r.field(key, p)
	if !ok {
		return nil
	}
	list := at.String()
	a, ok := v.(canonjson.Array)
	if !ok {
		r.rd.report(RuleType, list, "must be an array, not %s", typeName(v))
		return nil
	}
	if len(a) == 0 && p == some {
		r.rd.report(RuleEmpty, list, "must list at least one entry")
	}
	out := make([]elem, len(a))
	for i, e := range a {
		out[i] = elem{e, loc{parent: list, index: i, isIndex: true}}
	}
	return out
}

// records reads an array of records, decoding each with decode.
func records[T any](r *record, key string, p presence, decode func(*record) T) []T {
	es := r.list(key, p)
	out := make([]T, 0, len(es))
	for _, e := range es {
		out = append(out, decode(r.rd.record(e.v, e.at.String())))
	}
	return out
}

// forbid reports key when present: the format rules it out. Views copy
// records as written, so the finding is deferred.
func (r *record) forbid(key, why string) {
	r.known = append(r.known, key)
	if r.has(key) {
		r.rd.later(func() {
			r.rd.report(RuleFieldUnknown, child(r.at, key), "field %q is not allowed: %s", key, why)
		})
	}
}

// closedFor ends a record whose fields depend on its kind: closed when the
// kind is one of vocab (its fields are known), open otherwise (an unknown
// kind, already reported, defines no fields to check against).
func (r *record) closedFor(kind string, vocab []string) {
	if slices.Contains(vocab, kind) {
		r.closed()
	} else {
		r.open()
	}
}

// closed reports every key the format does not define for this record.
func (r *record) closed() { r.unknown(RuleFieldUnknown, "this record is closed") }

// open warns about every key the format does not define for this record.
func (r *record) open() { r.unknown(RuleFieldUnrecognized, "it is kept but means nothing") }

// unknown reports the keys of r the format does not define. Views copy
// records as written, so the findings are deferred.
func (r *record) unknown(rule *diag.Rule, why string) {
	if r.obj == nil {
		return
	}
	r.rd.deferring++
	defer func() { r.rd.deferring-- }()
	for k := range r.obj.All() {
		if slices.Contains(r.known, k) {
			continue
		}
		hint := ""
		if s := spelling.Closest(k, r.known); s != "" {
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		r.rd.report(rule, child(r.at, k), "unknown field %q%s: %s", k, hint, why)
	}
}

// child returns the pointer of a member of the object at at.
func child(at, key string) string { return at + "/" + diag.EscapeToken(key) }

// index returns the pointer of an element of the array at at.
func index(at string, i int) string { return at + "/" + strconv.Itoa(i) }

func typeName(v canonjson.Value) string {
	switch v := v.(type) {
	case canonjson.Null:
		return "null"
	case canonjson.Bool:
		return "a boolean"
	case canonjson.Number:
		if v.IsInteger() {
			return "an integer"
		}
		return "a number"
	case canonjson.String:
		return "a string"
	case canonjson.Array:
		return "an array"
	case *canonjson.Object:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func oneOf(vocab []string) string {
	q := make([]string, len(vocab))
	for i, s := range vocab {
		q[i] = strconv.Quote(s)
	}
	if len(q) == 1 {
		return q[0]
	}
	return "one of " + strings.Join(q, ", ")
}
