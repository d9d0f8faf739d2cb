// Package toolresult reads MCP tools/call results the way the clients that
// receive them do, and says how those clients would take a result.
//
// Every package code2skill produces answers in one shape that the official
// TypeScript SDK Client (at the version hosts pin and at one with its
// upstream fix), the MCP Inspector CLI and the official Go SDK client all
// return to their caller:
//
//   - a success: isError false, structuredContent (valid against the Tool's
//     listed outputSchema when it lists one) and a text block holding the
//     same JSON;
//   - a Tool error: isError true, no structuredContent, and one text block
//     whose text is the JSON of the structured error ({code, message,
//     details, retryable} in a strict package, {error: {…}} in a core one).
//
// The TypeScript SDK Client 1.32.x validates structuredContent against the
// outputSchema whenever it is present, isError or not, and throws when a
// Tool with an outputSchema answers a non-error without structuredContent;
// an error result carrying structuredContent that does not match the
// success schema therefore never reaches the caller. Carrying the error as
// text is what every client reads.
//
// ReadError is the one place Go code reads a structured Tool error from a
// result; Judge is the one place it decides what a client would make of a
// result.
package toolresult

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Result is a tools/call result as it crossed the wire.
type Result struct {
	// IsError is the isError member; HasIsError says it was present.
	IsError    bool
	HasIsError bool
	// Structured is structuredContent, nil when absent.
	Structured canonjson.Value
	// Content is the content array.
	Content canonjson.Array
}

// Decode reads a CallToolResult from its JSON.
func Decode(raw []byte) (*Result, error) {
	v, err := canonjson.Decode(raw)
	if err != nil {
		return nil, fmt.Errorf("the result is not valid JSON: %v", err)
	}
	return Parse(v)
}

// Parse reads a CallToolResult from a decoded value.
func Parse(v canonjson.Value) (*Result, error) {
	o, ok := v.(*canonjson.Object)
	if !ok {
		return nil, fmt.Errorf("the result is %s, not an object", canonjson.TypeName(v))
	}
	r := &Result{}
	switch e := o.At("isError").(type) {
	case nil:
	case canonjson.Bool:
		r.IsError, r.HasIsError = bool(e), true
	default:
		return nil, fmt.Errorf("isError is %s, not a boolean", canonjson.TypeName(e))
	}
	switch c := o.At("content").(type) {
	case canonjson.Array:
		r.Content = c
	default:
		return nil, fmt.Errorf("content is %s, not an array", canonjson.TypeName(c))
	}
	r.Structured = o.At("structuredContent")
	return r, nil
}

// Texts returns the text of every text content block, in order.
func (r *Result) Texts() []string {
	var out []string
	for _, b := range r.Content {
		block, _ := b.(*canonjson.Object)
		if block == nil {
			continue
		}
		if t, _ := block.At("type").(canonjson.String); t == "text" {
			if s, ok := block.At("text").(canonjson.String); ok {
				out = append(out, string(s))
			}
		}
	}
	return out
}

// Text returns the text blocks joined by newlines.
func (r *Result) Text() string { return strings.Join(r.Texts(), "\n") }

// TextJSON returns the JSON object the first text block that holds one
// carries, or nil.
func (r *Result) TextJSON() *canonjson.Object {
	for _, t := range r.Texts() {
		if v, err := canonjson.Decode([]byte(t)); err == nil {
			if o, ok := v.(*canonjson.Object); ok {
				return o
			}
		}
	}
	return nil
}

// TextMatches reports whether a text block holds JSON equal to v.
func (r *Result) TextMatches(v canonjson.Value) bool {
	for _, t := range r.Texts() {
		if tv, err := canonjson.Decode([]byte(t)); err == nil && canonjson.Equal(tv, v) {
			return true
		}
	}
	return false
}

// Where a structured Tool error was found.
const (
	FromText       = "text"              // the JSON of a text block: the shape every client reads
	FromStructured = "structuredContent" // an older package's shape
)

// ReadError returns the structured Tool error an isError result carries:
// the JSON object of its text content, else (a result of an older package)
// its structuredContent when that is an object. from says which; the
// object is nil, and from "", when the result is no Tool error or carries
// no JSON object.
func (r *Result) ReadError() (e *canonjson.Object, from string) {
	if r == nil || !r.IsError {
		return nil, ""
	}
	if o := r.TextJSON(); o != nil {
		return o, FromText
	}
	if o, ok := r.Structured.(*canonjson.Object); ok {
		return o, FromStructured
	}
	return nil, ""
}

// ErrorCode returns the code member of a Tool error, or "".
func (r *Result) ErrorCode() string {
	e, _ := r.ReadError()
	if e == nil {
		return ""
	}
	s, _ := e.At("code").(canonjson.String)
	return string(s)
}

// ErrorCodeOf returns the code of the Tool error a raw result carries, or
// "" when it is no Tool error or carries no code.
func ErrorCodeOf(raw json.RawMessage) string {
	r, err := Decode(raw)
	if err != nil {
		return ""
	}
	return r.ErrorCode()
}

// Data returns structuredContent.data of a success, and false when the
// result is no success (isError not false) or has none.
func (r *Result) Data() (canonjson.Value, bool) {
	if r == nil || r.IsError || !r.HasIsError {
		return nil, false
	}
	o, ok := r.Structured.(*canonjson.Object)
	if !ok {
		return nil, false
	}
	return o.Get("data")
}
