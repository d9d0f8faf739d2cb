package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/derive"
)

// TestCommandsLoadOnce: each command that builds on the Portable Core
// loads it once, whatever it runs on it (the pipeline's run, which hands
// one load to every stage, is TestStrictDemo's, and with every step real
// TestSlowStrictDemoWithoutElicitation's).
func TestCommandsLoadOnce(t *testing.T) {
	pkg := filepath.Join(t.TempDir(), examples.StrictSampleName)
	writeTree(t, examples.StrictSample(), pkg)
	for _, args := range [][]string{
		{"derive", pkg},
		{"compile", pkg},
		{"check-contract", pkg},
		{"validate", pkg, "--pre-finalize"},
	} {
		before := derive.Loads()
		var out bytes.Buffer
		Run(context.Background(), args, &Stdio{Out: &out, Err: &out})
		if n := derive.Loads() - before; n != 1 {
			t.Errorf("%s loaded the Portable Core %d times, want once\n%s", args[0], n, out.String())
		}
	}
}
