package skillmd

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// TestInstallName installs skills with the skills CLI (pinned in
// package.json) and checks that each lands in the directory installName
// predicts: named after the frontmatter name, not the folder, as the
// SKILL_NAME_FOLDER_MISMATCH message says.
func TestInstallName(t *testing.T) {
	node := testnode.Node(t)
	cli := filepath.Join(testnode.Modules(t), "skills", "bin", "cli.mjs")
	src, project := t.TempDir(), t.TempDir()
	names := map[string]string{ // folder → frontmatter name
		"book-plot":  "reserve-plot",
		"list-plots": "list-plots",
		"odd-folder": "Garden Tools_v2",
	}
	for folder, name := range names {
		dir := filepath.Join(src, "skills", folder)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		body := "---\nname: " + name + "\ndescription: A fictional garden skill.\n---\n# Body\n"
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), testtier.Budget(t))
	defer cancel()
	res, err := sandbox.Run(ctx, []string{node, cli, "add", src, "--agent", "claude-code", "--yes"},
		sandbox.Options{Dir: project, WritableDir: true, Binds: testnode.Binds(t, src), Env: []string{"DISABLE_TELEMETRY=1"}, Timeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("skills add exited with %d:\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	entries, err := os.ReadDir(filepath.Join(project, ".claude", "skills"))
	if err != nil {
		t.Fatalf("nothing installed: %v\n%s", err, res.Stdout)
	}
	var got, want []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	for _, name := range names {
		want = append(want, installName(name))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("installed into %v, installName predicts %v", got, want)
	}
}
