// Package golden compares test output with files checked into testdata and
// rewrites them on request.
//
// Set CODE2SKILL_UPDATE=1 to rewrite every golden file a test compares
// against (go test ./...), or pass -update to one package's tests.
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Update reports whether golden files should be rewritten. It reads the
// environment while the test runs, so CODE2SKILL_UPDATE can be set per run.
func Update() bool {
	return *update || os.Getenv("CODE2SKILL_UPDATE") != ""
}

// Check compares got with the golden file at path and fails the test on a
// difference, or rewrites the file when Update is true.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if Update() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (CODE2SKILL_UPDATE=1 creates it): %v", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs (-want +got):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}
