package derive_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/jsonschema"
)

// An output whose schema makes an array nullable keeps the null in every
// view that carries the output schema, also when a child output refines the
// array's elements: a Function answering null there satisfies its own
// contract, and one answering elements still has them checked.
func TestNullableArrayOutputKeepsNull(t *testing.T) {
	in, l := dirInputs(t, "testdata/synthetic/read-only/input")
	requireNoFindings(t, l)
	views := derive.Views(in)
	envelopes := []struct {
		name, doc string
		ok        bool
	}{
		{"null", `{"status": 200, "data": {"fern": {"speciesId": "f1", "commonName": "Lady fern", "lightLevel": 1, "careNote": null}, "companions": null}}`, true},
		{"elements", `{"status": 200, "data": {"fern": {"speciesId": "f1", "commonName": "Lady fern", "lightLevel": 1, "careNote": null}, "companions": [{"speciesId": "f2"}]}}`, true},
		{"element without its child", `{"status": 200, "data": {"fern": {"speciesId": "f1", "commonName": "Lady fern", "lightLevel": 1, "careNote": null}, "companions": [{}]}}`, false},
		{"missing", `{"status": 200, "data": {"fern": {"speciesId": "f1", "commonName": "Lady fern", "lightLevel": 1, "careNote": null}}}`, false},
	}
	checked := 0
	for _, v := range views {
		if v.Path != derive.FunctionSchemaFile && v.Path != derive.MCPSchemaFile {
			continue
		}
		checked++
		doc, err := canonjson.Decode(v.Data)
		if err != nil {
			t.Fatalf("%s: %v", v.Path, err)
		}
		schema := getFernOutputSchema(t, doc)
		s, err := jsonschema.Compile(canonjson.Encode(schema))
		if err != nil {
			t.Fatalf("%s: compiling the output schema: %v", v.Path, err)
		}
		for _, e := range envelopes {
			violations, err := s.Validate([]byte(e.doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := len(violations) == 0; got != e.ok {
				t.Errorf("%s: %s envelope accepted = %v, want %v (%v)", v.Path, e.name, got, e.ok, violations)
			}
		}
	}
	if checked != 2 {
		t.Fatalf("checked %d schema contracts, want 2", checked)
	}
	tool := derive.Tool(mustCapability(t, in, "get-fern"))
	s, err := jsonschema.Compile(canonjson.Encode(tool.OutputSchema))
	if err != nil {
		t.Fatal(err)
	}
	if violations, _ := s.Validate([]byte(envelopes[0].doc)); len(violations) > 0 {
		t.Errorf("Tool output schema refuses null companions: %v", violations)
	}
}

// getFernOutputSchema returns the output schema of get-fern in a schema
// contract.
func getFernOutputSchema(t *testing.T, doc canonjson.Value) canonjson.Value {
	t.Helper()
	caps, _ := doc.(*canonjson.Object).Get("capabilities")
	for _, c := range caps.(canonjson.Array) {
		o := c.(*canonjson.Object)
		if id, _ := o.Get("capabilityId"); id == canonjson.String("get-fern") {
			s, _ := o.Get("outputSchema")
			return s
		}
	}
	t.Fatal("no get-fern capability in the schema contract")
	return nil
}

func mustCapability(t *testing.T, in *derive.Inputs, id string) *contract.Capability {
	t.Helper()
	cp, ok := in.Contract.Capability(id)
	if !ok {
		t.Fatalf("no capability %s", id)
	}
	return cp
}

// A static output domain is the whole set of values the output takes: the
// output schema refuses any other, and keeps a null its type allows.
func TestStaticOutputDomainIsEnforced(t *testing.T) {
	dir := "testdata/synthetic/read-only/input"
	data := contracttest.Patch(t, readFile(t, filepath.Join(dir, contract.ContractFile)),
		contracttest.Set("/capabilities/1/outputs/2/valueDomain", `{"kind": "static", "values": ["shade", "sun"], "evidenceRefs": ["ev-client-detail-call"]}`))
	in, l := decodeInputs(t, func(name string) []byte {
		if name == contract.ContractFile {
			return data
		}
		return readFile(t, filepath.Join(dir, name))
	})
	requireNoFindings(t, l)
	schema := getFernOutputSchema(t, mustDecode(t, viewData(t, derive.Views(in), derive.MCPSchemaFile)))
	s, err := jsonschema.Compile(canonjson.Encode(schema))
	if err != nil {
		t.Fatal(err)
	}
	for note, ok := range map[string]bool{`"shade"`: true, `null`: true, `"rain"`: false} {
		doc := `{"status": 200, "data": {"fern": {"speciesId": "f1", "commonName": "Lady fern", "lightLevel": 1, "careNote": ` + note + `}, "companions": null}}`
		violations, err := s.Validate([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := len(violations) == 0; got != ok {
			t.Errorf("careNote %s accepted = %v, want %v (%v)", note, got, ok, violations)
		}
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
