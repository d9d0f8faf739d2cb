// Package sariftest gives tests the SARIF 2.1.0 JSON Schema as OASIS
// publishes it (vendored in internal/sarif/testdata, with its source), to
// validate the logs code2skill writes.
package sariftest

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/code2skill/code2skill/internal/jsonschema"
)

var (
	once   sync.Once
	schema *jsonschema.Schema
	err    error
)

// Schema returns the compiled SARIF 2.1.0 schema.
func Schema() (*jsonschema.Schema, error) {
	once.Do(func() {
		_, file, _, _ := runtime.Caller(0)
		var b []byte
		b, err = os.ReadFile(filepath.Join(filepath.Dir(file), "..", "testdata", "sarif-schema-2.1.0.json"))
		if err == nil {
			schema, err = jsonschema.Compile(b)
		}
	})
	return schema, err
}
