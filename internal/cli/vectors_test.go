package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/vectors/vectorstest"
)

func TestVectorsExitCodes(t *testing.T) {
	testnode.Node(t)
	ok := vectorstest.Package(t, "read-only", nil)
	failing := vectorstest.Package(t, "read-only", vectorstest.Faults{"list-ferns": {"skipKeywords": true}})
	noNode := vectorstest.Package(t, "read-only", nil)
	unwritable := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(unwritable, []byte("a file, not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := func() string { return filepath.Join(t.TempDir(), "out") }
	for _, tc := range []struct {
		name string
		args []string
		path string // PATH, when set
		want int
	}{
		{"passed", []string{ok, "--out", out()}, "", ExitPassed},
		{"a check failed", []string{failing, "--out", out()}, "", ExitFindings},
		{"no --out", []string{ok}, "", ExitUsage},
		{"--out inside", []string{ok, "--out", filepath.Join(ok, "evidence")}, "", ExitUsage},
		{"node missing", []string{noNode, "--out", out()}, t.TempDir(), ExitFailure},
		{"cannot write", []string{ok, "--out", filepath.Join(unwritable, "out")}, "", ExitFailure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path != "" {
				t.Setenv("PATH", tc.path)
			}
			var stdout, stderr bytes.Buffer
			code := Run(context.Background(), append([]string{"vectors"}, tc.args...), &Stdio{Out: &stdout, Err: &stderr})
			if code != tc.want {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.want, stdout.String(), stderr.String())
			}
		})
	}
}
