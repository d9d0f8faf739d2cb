// Package canonjson is the one JSON codec for the files code2skill derives and
// the hashes it computes. It reads JSON into an ordered value model and writes
// it back byte for byte the way the established Code2Skill toolchain does, so
// that SHA-256 markers computed here agree with markers computed elsewhere.
//
// The value model keeps what encoding/json loses:
//
//   - objects keep their members in document order (derived views reproduce
//     the author's key order);
//   - numbers keep their literal text, so 1.0 stays a non-integer and a large
//     integer keeps every digit.
//
// The decoder is strict: it reports syntax errors with line and column, and
// rejects duplicate keys, invalid UTF-8, a byte-order mark, lone UTF-16
// surrogates and non-integer numbers outside the float64 range.
//
// Two encodings exist:
//
//   - Encode writes the file form: 2-space indentation, ": " and "," as
//     separators, members in model order, non-ASCII characters raw (U+2028 and
//     U+2029 included), control characters as \uXXXX except \n \r \t \b \f,
//     and a trailing newline. It is the layout Python's
//     json.dumps(v, indent=2, ensure_ascii=False) produces.
//   - DigestForm writes the compact form hashes are computed over: keys sorted
//     by code point, "," and ":" without spaces, non-ASCII raw. Digest returns
//     its hex SHA-256.
//
// Both write numbers as the established toolchain does: integer literals
// verbatim (except that -0 is 0), other numbers as the shortest decimal that
// reads back to the same float64, laid out like Python's repr (1.0, 0.0001,
// 1e-05, 1e+16). Every literal already in that form, which includes every
// number in the reference formats, is written exactly as it was read.
package canonjson

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// Value is a JSON value. Its dynamic type is one of Null, Bool, Number,
// String, Array or *Object.
type Value interface {
	isValue()
}

// Null is the JSON null.
type Null struct{}

// Bool is a JSON boolean.
type Bool bool

// Number is a JSON number, held as its literal text. A Number must be a valid
// JSON number literal; Decode only produces valid ones.
type Number string

// String is a JSON string.
type String string

// Array is a JSON array.
type Array []Value

func (Null) isValue()    {}
func (Bool) isValue()    {}
func (Number) isValue()  {}
func (String) isValue()  {}
func (Array) isValue()   {}
func (*Object) isValue() {}

// Int returns the Number for n.
func Int(n int) Number { return Number(strconv.Itoa(n)) }

// IsInteger reports whether the literal is an integer: no fraction and no
// exponent. 1 is an integer; 1.0 and 1e0 are not.
func (n Number) IsInteger() bool { return !strings.ContainsAny(string(n), ".eE") }

// Int64 returns the value of an integer literal that fits in an int64.
func (n Number) Int64() (int64, bool) {
	if !n.IsInteger() {
		return 0, false
	}
	v, err := strconv.ParseInt(string(n), 10, 64)
	return v, err == nil
}

// Float64 returns the value of the literal as a float64.
func (n Number) Float64() (float64, bool) {
	v, err := strconv.ParseFloat(string(n), 64)
	return v, err == nil
}

// TypeName names the JSON type of v for messages: "null", "a boolean",
// "an integer" (an integer literal), "a number", "a string", "an array",
// "an object", or "nothing" for a nil Value (an absent member).
func TypeName(v Value) string {
	switch v := v.(type) {
	case nil:
		return "nothing"
	case Null:
		return "null"
	case Bool:
		return "a boolean"
	case Number:
		if v.IsInteger() {
			return "an integer"
		}
		return "a number"
	case String:
		return "a string"
	case Array:
		return "an array"
	case *Object:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Strings returns an Array of the given strings.
func Strings(ss []string) Array {
	a := make(Array, len(ss))
	for i, s := range ss {
		a[i] = String(s)
	}
	return a
}

// StringsOf returns the strings of an array value, skipping its other
// elements; a value that is not an array has none.
func StringsOf(v Value) []string {
	arr, _ := v.(Array)
	var out []string
	for _, e := range arr {
		if s, ok := e.(String); ok {
			out = append(out, string(s))
		}
	}
	return out
}

// Member is one key/value pair of an Object.
type Member struct {
	Key   string
	Value Value
}

// indexThreshold is the member count above which an Object keeps a key index;
// below it a linear scan is faster than hashing.
const indexThreshold = 8

// Object is a JSON object whose members keep their order. The zero value is an
// empty object ready to use; keys are unique. A nil *Object reads as an empty
// object (Get, Has, Len, All and Keys work on it); only writing needs one.
type Object struct {
	members []Member
	index   map[string]int // key -> position in members; nil while small
}

// NewObject returns an object with the given members in order. A repeated key
// keeps its first position and its last value.
func NewObject(members ...Member) *Object {
	o := &Object{members: make([]Member, 0, len(members))}
	for _, m := range members {
		o.Set(m.Key, m.Value)
	}
	return o
}

// Len returns the number of members.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.members)
}

// Get returns the value of key.
func (o *Object) Get(key string) (Value, bool) {
	if i := o.find(key); i >= 0 {
		return o.members[i].Value, true
	}
	return nil, false
}

// At returns the value of key, or nil (not Null) when the object lacks it.
func (o *Object) At(key string) Value {
	v, _ := o.Get(key)
	return v
}

// Has reports whether the object has key.
func (o *Object) Has(key string) bool { return o.find(key) >= 0 }

// Set sets key to v. An existing key keeps its position; a new key is
// appended.
func (o *Object) Set(key string, v Value) {
	if i := o.find(key); i >= 0 {
		o.members[i].Value = v
		return
	}
	o.members = append(o.members, Member{key, v})
	switch {
	case o.index != nil:
		o.index[key] = len(o.members) - 1
	case len(o.members) > indexThreshold:
		o.reindex()
	}
}

// Delete removes key, keeping the order of the other members.
func (o *Object) Delete(key string) {
	i := o.find(key)
	if i < 0 {
		return
	}
	o.members = append(o.members[:i], o.members[i+1:]...)
	o.index = nil
	if len(o.members) > indexThreshold {
		o.reindex()
	}
}

// All iterates over the members in order.
func (o *Object) All() iter.Seq2[string, Value] {
	return func(yield func(string, Value) bool) {
		if o == nil {
			return
		}
		for _, m := range o.members {
			if !yield(m.Key, m.Value) {
				return
			}
		}
	}
}

// Keys returns the keys in order.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	keys := make([]string, len(o.members))
	for i, m := range o.members {
		keys[i] = m.Key
	}
	return keys
}

func (o *Object) find(key string) int {
	if o == nil {
		return -1
	}
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i := range o.members {
		if o.members[i].Key == key {
			return i
		}
	}
	return -1
}

func (o *Object) reindex() {
	o.index = make(map[string]int, len(o.members))
	for i, m := range o.members {
		o.index[m.Key] = i
	}
}

// Clone returns a deep copy of v, so that the copy can be changed without
// changing v.
func Clone(v Value) Value {
	switch v := v.(type) {
	case Array:
		c := make(Array, len(v))
		for i, e := range v {
			c[i] = Clone(e)
		}
		return c
	case *Object:
		c := &Object{members: make([]Member, len(v.members))}
		for i, m := range v.members {
			c.members[i] = Member{m.Key, Clone(m.Value)}
		}
		if v.index != nil {
			c.reindex()
		}
		return c
	}
	return v
}

// Resolve returns the value an RFC 6901 JSON Pointer designates in v. The
// empty pointer designates v itself.
func Resolve(v Value, pointer string) (Value, bool) {
	if pointer == "" {
		return v, true
	}
	if !strings.HasPrefix(pointer, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(pointer[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch c := v.(type) {
		case *Object:
			next, ok := c.Get(tok)
			if !ok {
				return nil, false
			}
			v = next
		case Array:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) || (len(tok) > 1 && tok[0] == '0') {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// SHA256 returns the lowercase hex SHA-256 of data, the form every hash and
// marker of the package format uses.
func SHA256(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Digest returns the lowercase hex SHA-256 of v's DigestForm: the hash the
// package format uses for input and result hashes.
func Digest(v Value) string { return SHA256(DigestForm(v)) }
