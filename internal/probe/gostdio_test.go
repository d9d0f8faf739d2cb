package probe

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/testgo"
	"github.com/code2skill/code2skill/internal/testtier"
)

// goTwin writes the Go twin of the bundled example to a temporary
// directory, downloads its modules and returns it.
func goTwin(t *testing.T) string {
	t.Helper()
	testgo.Go(t)
	dir := filepath.Join(t.TempDir(), "seed-library-go")
	if err := os.CopyFS(dir, examples.SeedLibraryGo()); err != nil {
		t.Fatal(err)
	}
	testgo.Modules(t, dir)
	return dir
}

// offline is an offline probe with the time limits the test's deadline
// leaves.
func offline(t *testing.T) Options {
	budget := testtier.Budget(t)
	return Options{Offline: true, RequestTimeout: budget, InitializeTimeout: budget}
}

func editFile(t *testing.T, dir, file, old, new string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s: %v, or no %q", file, err, old)
	}
	if err := os.WriteFile(filepath.Join(dir, file), []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The probe builds a go-stdio server as validate does and runs the
// binary in the detached copy; what stops a build stops the probe before
// any session, with the build's finding at the server's entry point.
func TestProbeOfGoStdioPackages(t *testing.T) {
	ctx := context.Background()
	t.Run("the twin passes offline", func(t *testing.T) {
		res, err := Run(ctx, goTwin(t), offline(t))
		if err != nil {
			t.Fatal(err)
		}
		if res.Diagnostics.HasErrors() || !res.DetachedCopy || res.NodeProcesses != 1 || len(res.Tools) != 4 || len(res.GeneratedDryRunCases) != 2 {
			t.Fatalf("detached %v, %d processes, tools %d, generated %v:\n%v", res.DetachedCopy, res.NodeProcesses, len(res.Tools), res.GeneratedDryRunCases, res.Diagnostics.Sorted())
		}
		for _, row := range res.Tools {
			if row.Discovery != Passed {
				t.Errorf("%s: discovery %s", row.Name, row.Discovery)
			}
		}
		// The Go SDK server ends the session at a line that is not JSON;
		// the summary says so, and the unknown method gets -32601.
		if res.MalformedFrameAnswer != AnswerSessionEnded || res.Checks.UnknownMethod.Passed != 1 ||
			!strings.Contains(res.Message(), "ended the session (the Go SDK's way") {
			t.Errorf("malformed frame answer %q, unknown method %+v, summary %s", res.MalformedFrameAnswer, res.Checks.UnknownMethod, res.Message())
		}
	})
	t.Run("a server that does not build", func(t *testing.T) {
		dir := goTwin(t)
		editFile(t, dir, "mcp-tool/main.go", "func main() {", "var _ int = \"not a number\"\n\nfunc main() {")
		res, err := Run(ctx, dir, offline(t))
		if err != nil {
			t.Fatal(err)
		}
		ds := res.Diagnostics.Sorted()
		if len(ds) == 0 || ds[0].Rule != core.RuleGoBuild.ID || ds[0].File != "mcp-tool/main.go" || res.NodeProcesses != 0 {
			t.Errorf("%d processes:\n%v", res.NodeProcesses, ds)
		}
	})
	t.Run("a replace out of the package needs its source root", func(t *testing.T) {
		dir := goTwin(t)
		app := filepath.Join(filepath.Dir(dir), "app")
		if err := os.MkdirAll(app, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(app, "go.mod"), []byte("module example.com/app\n\ngo 1.25\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		editFile(t, dir, "go.mod", "\nrequire ", "\nreplace example.com/app => ../app\n\nrequire ")
		editFile(t, dir, "MCP-SETUP.md", "\n", "\nThe application's source must be at ../app.\n")
		res, err := Run(ctx, dir, offline(t))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Diagnostics.Has(core.RuleGoReplaceOutside) || res.NodeProcesses != 0 {
			t.Errorf("without --source-root, %d processes:\n%v", res.NodeProcesses, res.Diagnostics.Sorted())
		}
		opts := offline(t)
		opts.SourceRoots = []string{app}
		res, err = Run(ctx, dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Diagnostics.HasErrors() || res.NodeProcesses != 1 {
			t.Errorf("with --source-root, %d processes:\n%v", res.NodeProcesses, res.Diagnostics.Sorted())
		}
	})
}
