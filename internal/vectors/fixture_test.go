package vectors

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/vectors/vectorstest"
)

// faults maps a capability ID to the faults of its Function (or, under the
// "adapter:" prefix, of its Tool callback); see vectorstest.
type faults = vectorstest.Faults

// buildPackage writes a strict test package for the named source.
func buildPackage(t testing.TB, source string, fs faults) string {
	t.Helper()
	return vectorstest.Package(t, source, fs)
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
