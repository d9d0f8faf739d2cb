package testnode

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testtier"
)

// SkillsRef runs the Agent Skills reference validator (skills-ref, pinned
// in package.json) on each skill directory (under dir, its working
// directory) in one sandboxed node process, and returns what it says of
// each: its errors, none when the skill is valid. A directory it gave no
// verdict on is missing from the map.
func SkillsRef(t testing.TB, dir string, skills ...string) map[string][]string {
	t.Helper()
	node := Node(t)
	script := filepath.Join(Root(), "internal", "testnode", "skills-ref-verdict.mjs")
	res, err := sandbox.Run(context.Background(), append([]string{node, script}, skills...),
		sandbox.Options{Dir: dir, Timeout: testtier.Budget(t), Binds: Binds(t, filepath.Dir(script))})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("skills-ref: node exited with %d:\n%s", res.ExitCode, res.Stderr)
	}
	verdicts := map[string][]string{}
	for line := range bytes.Lines(res.Stdout) {
		var v struct {
			Dir    string   `json:"dir"`
			Errors []string `json:"errors"`
		}
		if err := canonjson.Unmarshal(line, &v); err != nil {
			t.Fatalf("skills-ref: node printed %q: %v", line, err)
		}
		verdicts[v.Dir] = v.Errors
	}
	return verdicts
}
