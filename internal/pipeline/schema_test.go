package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/jsonschema"
)

// checkReportSchema validates a verification report against the published
// schema (testdata/verification-report.schema.json, the reference format's
// own, under its licence in testdata/LICENSE.reference-data).
func checkReportSchema(t *testing.T, report []byte) {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join("testdata", "verification-report.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := jsonschema.Compile(schema)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := s.Validate(report)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		t.Errorf("the verification report breaks the published schema: %s", v)
	}
}
