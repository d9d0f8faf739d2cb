package verdict

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/jsonschema"
)

// reportSchema is the JSON Schema of the verification report finalize
// reads: the published format (verification-report.schema.json, MIT
// notice in LICENSE.reference-data).
//
//go:embed verification-report.schema.json
var reportSchema []byte

var (
	schemasOnce sync.Once
	reportS     *jsonschema.Schema
	checkS      *jsonschema.Schema
	matrixS     *jsonschema.Schema
	schemasErr  error
)

// schemas compiles the report schema and, from its definitions, a schema of
// one executed check and one of the checks of a final matrix's rows: final
// matrix rows carry executed checks, and the cross-check holds them to the
// same definition as the report.
func schemas() (report, check, matrix *jsonschema.Schema, err error) {
	schemasOnce.Do(func() {
		reportS, schemasErr = jsonschema.Compile(reportSchema)
		if schemasErr != nil {
			return
		}
		doc, err := canonjson.Decode(reportSchema)
		if err != nil {
			schemasErr = err
			return
		}
		defs, _ := canonjson.Resolve(doc, "/$defs")
		draft := member{Key: "$schema", Value: str("https://json-schema.org/draft/2020-12/schema")}
		ref := object(member{Key: "$ref", Value: str("#/$defs/executedCheck")})
		checkS, schemasErr = jsonschema.Compile(canonjson.Encode(object(draft,
			member{Key: "$ref", Value: str("#/$defs/executedCheck")},
			member{Key: "$defs", Value: defs})))
		if schemasErr != nil {
			return
		}
		rows := object(
			member{Key: "type", Value: str("array")},
			member{Key: "items", Value: object(member{Key: "properties", Value: object(
				member{Key: "checks", Value: object(member{Key: "items", Value: ref})},
			)})},
		)
		matrixS, schemasErr = jsonschema.Compile(canonjson.Encode(object(draft,
			member{Key: "properties", Value: object(
				member{Key: "capabilities", Value: rows},
				member{Key: "workflows", Value: canonjson.Clone(rows)},
			)},
			member{Key: "$defs", Value: defs})))
	})
	return reportS, checkS, matrixS, schemasErr
}

// ValidateReport validates a verification report against the report
// schema. err is for a document that is not JSON.
func ValidateReport(doc []byte) ([]jsonschema.Violation, error) {
	s, _, _, err := schemas()
	if err != nil {
		return nil, fmt.Errorf("verification report schema: %w", err)
	}
	return s.Validate(doc)
}

// ValidateReportValue is ValidateReport for a report already decoded.
func ValidateReportValue(doc canonjson.Value) ([]jsonschema.Violation, error) {
	s, _, _, err := schemas()
	if err != nil {
		return nil, fmt.Errorf("verification report schema: %w", err)
	}
	return s.ValidateValue(plain(doc)), nil
}

// plain converts a value to the form the schema library validates: maps,
// slices, json.Number for numbers (so that 1.0 stays a non-integer).
func plain(v canonjson.Value) any {
	switch v := v.(type) {
	case canonjson.String:
		return string(v)
	case canonjson.Number:
		return json.Number(v)
	case canonjson.Bool:
		return bool(v)
	case canonjson.Array:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = plain(e)
		}
		return out
	case *canonjson.Object:
		out := make(map[string]any, v.Len())
		for k, e := range v.All() {
			out[k] = plain(e)
		}
		return out
	}
	return nil
}

// ValidateCheck validates one executed check against the report schema's
// definition of an executed check.
func ValidateCheck(v canonjson.Value) []jsonschema.Violation {
	_, s, _, err := schemas()
	return validate(s, err, v)
}

// validateMatrixChecks validates every check of a final matrix's rows
// against the definition of an executed check, in one pass.
func validateMatrixChecks(matrix canonjson.Value) []jsonschema.Violation {
	_, _, s, err := schemas()
	return validate(s, err, matrix)
}

func validate(s *jsonschema.Schema, err error, v canonjson.Value) []jsonschema.Violation {
	if err != nil {
		return []jsonschema.Violation{{Message: fmt.Sprintf("verification report schema: %v", err)}}
	}
	return s.ValidateValue(plain(v))
}

// Check is one executed check: a command that ran, its exit code and
// status, and the SHA-256 of the evidence it captured. A runtime check also
// names the Tool it called and the digests of the live input and result; a
// bypass check states that no external write happened; an attachment
// runtime check carries the proof of its attachment chain.
type Check struct {
	Raw *canonjson.Object // as written
	At  string            // JSON Pointer of the check in its file

	Name         string
	CheckID      string // "" when absent
	Phase        string // "" when absent
	Command      string
	ExitCode     int64
	Status       string // passed or failed
	EvidenceHash string
	ToolName     string
	InputHash    string
	ResultHash   string
	// ZeroExternalWrites is nil when absent.
	ZeroExternalWrites *bool
	// AttachmentProof is nil when absent.
	AttachmentProof *canonjson.Object
}

// ID returns the check's checkId, or its name when it has none: what
// expected checks are matched against.
func (c *Check) ID() string {
	if c.CheckID != "" {
		return c.CheckID
	}
	return c.Name
}

// Passed reports whether the check passed: status passed and exit code 0.
func (c *Check) Passed() bool { return c.Status == StatusPassed && c.ExitCode == 0 }

// ProvesZeroWrites reports whether the check states that it caused no
// external write.
func (c *Check) ProvesZeroWrites() bool { return c.ZeroExternalWrites != nil && *c.ZeroExternalWrites }

// DecodeCheck reads an executed check that ValidateCheck (or the report
// schema) accepted. at is its JSON Pointer.
func DecodeCheck(o *canonjson.Object, at string) Check {
	c := Check{Raw: o, At: at}
	c.Name = stringMember(o, "name")
	c.CheckID = stringMember(o, "checkId")
	c.Phase = stringMember(o, "phase")
	c.Command = stringMember(o, "command")
	c.Status = stringMember(o, "status")
	c.EvidenceHash = stringMember(o, "evidenceHash")
	c.ToolName = stringMember(o, "toolName")
	c.InputHash = stringMember(o, "inputHash")
	c.ResultHash = stringMember(o, "resultHash")
	if v, ok := o.Get("exitCode"); ok {
		if n, ok := v.(canonjson.Number); ok {
			c.ExitCode, _ = n.Int64()
		}
	}
	if v, ok := o.Get("zeroExternalWrites"); ok {
		if b, ok := v.(canonjson.Bool); ok {
			z := bool(b)
			c.ZeroExternalWrites = &z
		}
	}
	if v, ok := o.Get("attachmentProof"); ok {
		c.AttachmentProof, _ = v.(*canonjson.Object)
	}
	return c
}

// checkFields is the order in which a matrix row writes a check's members:
// the order of the schema's definition.
var checkFields = []string{
	"name", "checkId", "phase", "layer", "command", "exitCode", "status", "evidenceHash",
	"toolName", "inputHash", "resultHash", "zeroExternalWrites", "attachmentProof",
}

// JSON returns the check as a final matrix row records it: its members in
// the schema's order, with phase set to the phase it was executed in, so
// that the row says which phase each check belongs to.
func (c *Check) JSON(phase string) *canonjson.Object {
	out := &canonjson.Object{}
	for _, k := range checkFields {
		if k == "phase" {
			out.Set(k, canonjson.String(phase))
			continue
		}
		if v, ok := c.Raw.Get(k); ok {
			out.Set(k, v)
		}
	}
	return out
}

// stringMember returns o[key] when it is a string, else "".
func stringMember(o *canonjson.Object, key string) string {
	if v, ok := o.Get(key); ok {
		if s, ok := v.(canonjson.String); ok {
			return string(s)
		}
	}
	return ""
}
