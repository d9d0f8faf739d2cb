package toolresult

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/portableschema"
)

// The clients whose reading of a result Judge models, by the names reports
// give them.
const (
	// ClientTypeScript is the official TypeScript SDK Client at the
	// version code2skill pins, the client most agent hosts embed.
	ClientTypeScript = "typescript-sdk Client 1.32.2"
	// ClientInspector is the MCP Inspector CLI, which reads results as
	// the TypeScript SDK Client does.
	ClientInspector = "Inspector CLI 2.12.0"
	// ClientTypeScriptFixed is a TypeScript SDK Client with the upstream
	// fix that skips output validation of error results.
	ClientTypeScriptFixed = "typescript-sdk Client with the isError fix"
	// ClientGo is the official Go SDK client, which validates no output.
	ClientGo = "go-sdk client v1.8.0"
)

// validating are the clients that validate structuredContent against the
// outputSchema on every result, isError or not.
var validating = []string{ClientTypeScript, ClientInspector}

// A Kind is one way a client fails to give its caller what a result says.
type Kind int

const (
	// SuccessUnstructured: a success without structuredContent from a
	// Tool that lists an outputSchema. The TypeScript client throws.
	SuccessUnstructured Kind = iota + 1
	// SuccessBreaksSchema: a success whose structuredContent breaks the
	// listed outputSchema. The TypeScript client throws.
	SuccessBreaksSchema
	// ErrorBreaksSchema: an error result whose structuredContent breaks
	// the listed outputSchema. The pinned TypeScript client throws
	// (-32602) instead of returning the error.
	ErrorBreaksSchema
	// ErrorLooksLikeSuccess: an error result whose structuredContent
	// satisfies the success schema. Every client returns it, but a host
	// that hands the model structuredContent (rather than the text) gives
	// it a valid-looking success where the error should be.
	ErrorLooksLikeSuccess
	// ErrorWithoutText: an error result with no text content. Every client
	// returns it, and none has a message to show.
	ErrorWithoutText
	// OutputSchemaNotObject: the listed outputSchema is not an object
	// schema ("type": "object"). The TypeScript client refuses the whole
	// tools/list answer.
	OutputSchemaNotObject
)

// A Problem is one client failure Judge foresees.
type Problem struct {
	Kind    Kind
	Clients []string // the clients that fail the caller
	Message string
}

func (p Problem) String() string {
	return p.Message + " (" + strings.Join(p.Clients, ", ") + ")"
}

// maxViolations bounds the schema violations a message names.
const maxViolations = 3

// CheckOutputSchema judges a Tool's listed outputSchema (nil when the Tool
// lists none): a present one that is not an object schema makes the
// TypeScript client refuse the whole tools/list.
func CheckOutputSchema(outputSchema canonjson.Value) *Problem {
	if outputSchema == nil {
		return nil
	}
	o, ok := outputSchema.(*canonjson.Object)
	if ok && o.At("type") == canonjson.Value(canonjson.String("object")) {
		return nil
	}
	return &Problem{Kind: OutputSchemaNotObject, Clients: validating,
		Message: fmt.Sprintf("the outputSchema is %s, not an object schema with \"type\": \"object\"; the client refuses the whole tools/list answer, so no Tool of the server can be called", describe(outputSchema))}
}

// Judge says how the clients would take a tools/call result of a Tool whose
// listed outputSchema is outputSchema (nil when it lists none): each
// problem names the clients that would throw instead of returning the
// result, or return it without what the caller needs.
func Judge(outputSchema canonjson.Value, r *Result) []Problem {
	if CheckOutputSchema(outputSchema) != nil {
		outputSchema = nil // the listing fails as a whole; judged on its own
	}
	var out []Problem
	if !r.IsError {
		switch {
		case outputSchema == nil:
		case r.Structured == nil:
			out = append(out, Problem{Kind: SuccessUnstructured, Clients: validating,
				Message: "the Tool lists an outputSchema but the success carries no structuredContent; the client throws instead of returning it"})
		default:
			if vs := portableschema.Validate(outputSchema, r.Structured, maxViolations); len(vs) > 0 {
				out = append(out, Problem{Kind: SuccessBreaksSchema, Clients: validating,
					Message: "structuredContent does not match the listed outputSchema (" + violations(vs) + "); the client throws instead of returning the result"})
			}
		}
		return out
	}
	if r.Structured != nil && outputSchema != nil {
		if vs := portableschema.Validate(outputSchema, r.Structured, maxViolations); len(vs) > 0 {
			out = append(out, Problem{Kind: ErrorBreaksSchema, Clients: validating,
				Message: "the error result carries structuredContent that does not match the listed outputSchema (" + violations(vs) + "); the client validates it anyway and throws MCP error -32602 instead of returning the error: carry the error as the JSON of a text block, without structuredContent"})
		} else {
			out = append(out, Problem{Kind: ErrorLooksLikeSuccess, Clients: validating,
				Message: "the error result carries structuredContent that satisfies the success outputSchema; the client passes it on as a valid structured result, and a host that gives the model structuredContent shows it a success where the error should be: carry the error as the JSON of a text block, without structuredContent"})
		}
	}
	if strings.TrimSpace(r.Text()) == "" {
		out = append(out, Problem{Kind: ErrorWithoutText, Clients: []string{ClientTypeScript, ClientTypeScriptFixed, ClientInspector, ClientGo},
			Message: "the error result has no text content, so the caller gets no message saying why the call failed"})
	}
	return out
}

func violations(vs []portableschema.Violation) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return strings.Join(s, "; ")
}

// describe names a value for a message.
func describe(v canonjson.Value) string {
	if o, ok := v.(*canonjson.Object); ok {
		if t := o.At("type"); t != nil {
			return "an object schema of type " + string(canonjson.DigestForm(t))
		}
		return "a schema without \"type\""
	}
	return canonjson.TypeName(v)
}
