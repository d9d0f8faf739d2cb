// Package jsonschema validates JSON documents against JSON Schemas. It is a
// thin wrapper over a complete implementation
// (github.com/santhosh-tekuri/jsonschema/v6), so that every command that
// checks a document against a schema — Tool outputs, verification reports,
// live evidence — uses the same library and reports violations the same way:
// a JSON Pointer into the document and a message.
//
//	s, err := jsonschema.Compile(schemaBytes)
//	violations, err := s.Validate(documentBytes)
//
// A schema without "$schema" is read as draft-07, the dialect MCP servers
// announce in tools/list. Regular expressions use Go's RE2 engine; a pattern
// RE2 cannot compile (look-around, back-references) makes Compile fail.
package jsonschema

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	js "github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is a compiled JSON Schema.
type Schema struct {
	s *js.Schema
}

// Violation is one way a document breaks a schema.
type Violation struct {
	Pointer string // RFC 6901 JSON Pointer into the document; "" for the root
	Message string
}

func (v Violation) String() string {
	if v.Pointer == "" {
		return "(root): " + v.Message
	}
	return v.Pointer + ": " + v.Message
}

// schemaURL names the one resource a Compile call's compiler holds.
const schemaURL = "mem:///schema.json"

// Compile compiles a JSON Schema document. format assertions are on: a
// "format": "uri" string must be a URI.
func Compile(schema []byte) (*Schema, error) {
	return NewCompiler().compile(schema, schemaURL)
}

// Compiler compiles many schemas, sharing what every compilation needs (the
// draft's metaschema): a caller compiling dozens of small schemas saves most
// of the work. It is not safe for concurrent use.
type Compiler struct {
	c *js.Compiler
	n int
}

// NewCompiler returns a Compiler that reads schemas without "$schema" as
// draft-07, with format assertions on, like Compile.
func NewCompiler() *Compiler {
	c := js.NewCompiler()
	c.DefaultDraft(js.Draft7)
	c.AssertFormat()
	return &Compiler{c: c}
}

// Compile compiles one more schema document, as the package's Compile does.
func (c *Compiler) Compile(schema []byte) (*Schema, error) {
	c.n++
	return c.compile(schema, fmt.Sprintf("mem:///schema-%d.json", c.n))
}

// AddResource makes a schema document known under its URL, for the
// schemas that refer to it ("$ref": "common.schema.json#/$defs/x").
func (c *Compiler) AddResource(url string, schema []byte) error {
	doc, err := Decode(schema)
	if err != nil {
		return fmt.Errorf("reading schema %s: %w", url, err)
	}
	return c.c.AddResource(url, doc)
}

// CompileURL compiles a schema added with AddResource.
func (c *Compiler) CompileURL(url string) (*Schema, error) {
	s, err := c.c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compiling schema: %w", err)
	}
	return &Schema{s: s}, nil
}

func (c *Compiler) compile(schema []byte, url string) (*Schema, error) {
	doc, err := Decode(schema)
	if err != nil {
		return nil, fmt.Errorf("reading schema: %w", err)
	}
	if err := c.c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("reading schema: %s", strings.ReplaceAll(err.Error(), url, "schema"))
	}
	s, err := c.c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compiling schema: %s", strings.ReplaceAll(err.Error(), url, "schema"))
	}
	return &Schema{s: s}, nil
}

// Decode parses a JSON document the way Validate reads it: numbers keep
// their literal text (json.Number), so 1.0 and 1 stay distinguishable.
func Decode(doc []byte) (any, error) {
	return js.UnmarshalJSON(bytes.NewReader(doc))
}

// Validate validates a JSON document. err is for a document that is not
// JSON; violations are sorted by pointer and message (nil when valid).
func (s *Schema) Validate(doc []byte) ([]Violation, error) {
	v, err := Decode(doc)
	if err != nil {
		return nil, fmt.Errorf("reading document: %w", err)
	}
	return s.ValidateValue(v), nil
}

// ValidateValue validates a document decoded by Decode.
func (s *Schema) ValidateValue(v any) []Violation {
	err := s.s.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*js.ValidationError)
	if !ok {
		return []Violation{{Message: err.Error()}}
	}
	var out []Violation
	leaves(ve, &out)
	slices.SortFunc(out, func(a, b Violation) int {
		return cmp.Or(strings.Compare(a.Pointer, b.Pointer), strings.Compare(a.Message, b.Message))
	})
	return slices.Compact(out)
}

var printer = message.NewPrinter(language.English)

// leaves collects the innermost errors: the ones that say what is wrong
// where, rather than which enclosing keyword failed because of them.
func leaves(e *js.ValidationError, out *[]Violation) {
	if len(e.Causes) == 0 {
		*out = append(*out, Violation{Pointer: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)})
		return
	}
	for _, c := range e.Causes {
		leaves(c, out)
	}
}

// pointer encodes path segments as an RFC 6901 JSON Pointer.
func pointer(segments []string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(s))
	}
	return b.String()
}
