package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/code2skill/code2skill/internal/contract/contracttest"
)

// compilablePackage writes the reference inputs and their tool docs into a
// fresh directory.
func compilablePackage(t *testing.T) string {
	t.Helper()
	dir := referencePackage(t)
	docs, err := os.ReadFile(filepath.Join("..", "compile", "testdata", "reference", "authoring", "tool-docs.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "authoring"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "authoring", "tool-docs.json"), docs, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCompileExitCodes(t *testing.T) {
	ok := compilablePackage(t)

	review := compilablePackage(t)
	if err := os.Remove(filepath.Join(review, "authoring", "tool-docs.json")); err != nil {
		t.Fatal(err)
	}

	broken := compilablePackage(t)
	data := contracttest.Patch(t, contracttest.Reference(t, "canonical-contract.json"),
		contracttest.Set("/capabilities/0/toolName", `"List Kinds"`))
	if err := os.WriteFile(filepath.Join(broken, "canonical-contract.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}

	fifo := compilablePackage(t)
	docs := filepath.Join(fifo, "authoring", "tool-docs.json")
	if err := os.Remove(docs); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(docs, 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}

	ioFailure := compilablePackage(t)
	if err := os.WriteFile(filepath.Join(ioFailure, "mcp-tool"), []byte("a file, not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		args []string
		want int
		out  string
	}{
		{"compiled", []string{ok}, ExitPassed, "compile: 5 capabilities compiled; wrote 6 files"},
		{"requires review", []string{review}, ExitFindings, "[COMPILE_TOOL_DOCS_MISSING]"},
		{"broken contract", []string{broken}, ExitFindings, "[CONTRACT_ID_FORMAT]"},
		{"tool docs are a FIFO", []string{fifo}, ExitFindings, "[PKG_INPUT_NOT_REGULAR]"},
		{"no package", nil, ExitUsage, ""},
		{"cannot write", []string{ioFailure}, ExitFailure, "[COMPILE_IO_FAILURE]"},
		{"help", []string{"--help"}, ExitPassed, "Usage: code2skill compile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(context.Background(), append([]string{"compile"}, tc.args...), &Stdio{Out: &out, Err: &errb})
			if code != tc.want || !strings.Contains(out.String(), tc.out) {
				t.Errorf("exit code %d, want %d; stdout (want %q):\n%s", code, tc.want, tc.out, out.String())
			}
		})
	}

	// A failed write leaves the package as it was: no Function core, no
	// temporary file.
	for _, dir := range []string{ioFailure, review, broken, fifo} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && (strings.Contains(d.Name(), ".tmp-") || strings.HasSuffix(p, ".mjs")) {
				t.Errorf("left %s behind", p)
			}
			return nil
		})
	}
}
