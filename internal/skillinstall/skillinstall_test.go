package skillinstall

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/code2skill/code2skill"
	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

var producerSkills = []string{"code2skill-generate", "code2skill-review-flow", "code2skill-review-source"}

func embedded(t *testing.T) []Skill {
	t.Helper()
	skills, err := Read(code2skill.Skills())
	if err != nil {
		t.Fatal(err)
	}
	return skills
}

func TestEmbedded(t *testing.T) {
	skills := embedded(t)
	var names []string
	for _, s := range skills {
		names = append(names, s.Name)
		if !slices.ContainsFunc(s.Files, func(f atomicfile.File) bool { return f.Path == "SKILL.md" }) {
			t.Errorf("%s has no SKILL.md", s.Name)
		}
	}
	if !slices.Equal(names, producerSkills) {
		t.Errorf("embedded skills = %v, want %v", names, producerSkills)
	}
}

func TestInstallAndStatus(t *testing.T) {
	skills := embedded(t)
	dir := filepath.Join(t.TempDir(), ".claude", "skills")
	for _, s := range skills {
		if st, err := s.StatusIn(dir); err != nil || st != Missing {
			t.Fatalf("%s before install: %v, %v", s.Name, st, err)
		}
	}
	if err := Install(dir, skills); err != nil {
		t.Fatal(err)
	}
	assertStatus(t, skills, dir, Current)

	// An edited or older copy differs; reinstalling restores it and drops
	// files the current version does not have.
	skillMD := filepath.Join(dir, "code2skill-generate", "SKILL.md")
	os.WriteFile(skillMD, []byte("---\nname: code2skill-generate\ndescription: old\n---\n"), 0o644)
	stale := filepath.Join(dir, "code2skill-generate", "references", "removed-long-ago.md")
	os.WriteFile(stale, []byte("stale"), 0o644)
	if st, _ := skills[0].StatusIn(dir); st != Differs {
		t.Errorf("edited copy: status %s, want %s", st, Differs)
	}
	if err := Install(dir, skills); err != nil {
		t.Fatal(err)
	}
	assertStatus(t, skills, dir, Current)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Error("reinstalling kept a file of the previous version")
	}
	assertNoTemporaries(t, dir)
}

func TestInstallKeepsOtherSkills(t *testing.T) {
	dir := t.TempDir()
	other := filepath.Join(dir, "someone-elses-skill", "SKILL.md")
	os.MkdirAll(filepath.Dir(other), 0o755)
	os.WriteFile(other, []byte("kept"), 0o644)
	if err := Install(dir, embedded(t)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(other); string(b) != "kept" {
		t.Error("Install touched another skill")
	}
}

// A Skill that "npx skills add" installed as a symlink is replaced by a
// directory, and the link's target is left alone.
func TestInstallReplacesSymlink(t *testing.T) {
	skills := embedded(t)
	root := t.TempDir()
	target := filepath.Join(root, "canonical", skills[0].Name)
	os.MkdirAll(target, 0o755)
	os.WriteFile(filepath.Join(target, "SKILL.md"), []byte("old"), 0o644)
	dir := filepath.Join(root, "skills")
	os.MkdirAll(dir, 0o755)
	if err := os.Symlink(target, filepath.Join(dir, skills[0].Name)); err != nil {
		t.Fatal(err)
	}
	if st, _ := skills[0].StatusIn(dir); st != Differs {
		t.Fatalf("symlinked old copy: status %s, want %s", st, Differs)
	}
	if err := Install(dir, skills[:1]); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(filepath.Join(dir, skills[0].Name)); fi.Mode()&os.ModeSymlink != 0 {
		t.Error("the symlink is still there")
	}
	assertStatus(t, skills[:1], dir, Current)
	if b, _ := os.ReadFile(filepath.Join(target, "SKILL.md")); string(b) != "old" {
		t.Error("the symlink's target was changed")
	}
}

func TestSwapByRenames(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	os.MkdirAll(a, 0o755)
	os.MkdirAll(b, 0o755)
	os.WriteFile(filepath.Join(a, "f"), []byte("new"), 0o644)
	os.WriteFile(filepath.Join(b, "f"), []byte("old"), 0o644)
	if err := swapByRenames(a, b); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(b, "f")); string(got) != "new" {
		t.Errorf("b holds %q after the swap", got)
	}
	if got, _ := os.ReadFile(filepath.Join(a, "f")); string(got) != "old" {
		t.Errorf("a holds %q after the swap", got)
	}
	// A failing second rename puts b back.
	if err := swapByRenames(filepath.Join(root, "missing"), b); err == nil {
		t.Error("swap with a missing directory succeeded")
	}
	if got, _ := os.ReadFile(filepath.Join(b, "f")); string(got) != "new" {
		t.Errorf("b was not restored: %q", got)
	}
}

func TestList(t *testing.T) {
	skills := embedded(t)
	project, home := t.TempDir(), t.TempDir()
	claude, _ := Lookup("claude-code")
	codex, _ := Lookup("codex")
	if err := Install(claude.Dir(Project, project), skills); err != nil {
		t.Fatal(err)
	}
	if err := Install(codex.Dir(Global, home), skills[:1]); err != nil {
		t.Fatal(err)
	}
	locs, err := List(skills, project, home)
	if err != nil {
		t.Fatal(err)
	}
	// Three project and three global directories: codex and agents share one.
	if len(locs) != 6 {
		t.Fatalf("List returned %d locations, want 6: %+v", len(locs), locs)
	}
	var installed []string
	for _, l := range locs {
		if l.Any() {
			installed = append(installed, string(l.Scope)+":"+filepath.ToSlash(mustRel(t, l.Scope, l.Dir, project, home)))
		}
		if l.Dir == codex.Dir(Global, home) {
			if !slices.Equal(l.Agents, []string{"codex", "agents"}) {
				t.Errorf("shared directory lists agents %v", l.Agents)
			}
			if l.Skills[0].Status != Current || l.Skills[1].Status != Missing {
				t.Errorf("global .agents/skills: %+v", l.Skills)
			}
		}
	}
	if want := []string{"project:.claude/skills", "global:.agents/skills"}; !slices.Equal(installed, want) {
		t.Errorf("installed locations = %v, want %v", installed, want)
	}
}

func mustRel(t *testing.T, scope Scope, dir, project, home string) string {
	root := project
	if scope == Global {
		root = home
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

func TestLookup(t *testing.T) {
	for _, id := range []string{"claude-code", "codex", "cursor", "agents"} {
		if _, err := Lookup(id); err != nil {
			t.Error(err)
		}
	}
	if _, err := Lookup("vim"); err == nil {
		t.Error("Lookup of an unknown agent succeeded")
	}
}

// TestExportPassesSkillsRef checks every exported Skill with the reference
// Agent Skills validator (skills-ref, pinned in package.json).
func TestExportPassesSkillsRef(t *testing.T) {
	testnode.Node(t)
	validator := testnode.Bin(t, "skills-ref")
	dir := t.TempDir()
	skills := embedded(t)
	if err := Install(dir, skills); err != nil {
		t.Fatal(err)
	}
	for _, s := range skills {
		res, err := sandbox.Run(context.Background(), []string{validator, "validate", filepath.Join(dir, s.Name)}, sandbox.Options{Dir: dir, Binds: testnode.Binds(t)})
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode != 0 {
			t.Errorf("skills-ref validate %s (exit %d):\n%s%s", s.Name, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
}

// TestExportInstallsWithSkillsCLI installs the exported folder with the real
// skills CLI (pinned in package.json), offline, and checks that Claude Code's
// project directory then holds the current version of every Skill.
func TestExportInstallsWithSkillsCLI(t *testing.T) {
	testnode.Node(t)
	cli := testnode.Bin(t, "skills")
	root := t.TempDir()
	export, project := filepath.Join(root, "export"), filepath.Join(root, "project")
	os.MkdirAll(project, 0o755)
	skills := embedded(t)
	if err := Install(export, skills); err != nil {
		t.Fatal(err)
	}
	res, err := sandbox.Run(context.Background(),
		[]string{cli, "add", export, "--agent", "claude-code", "--skill", "*", "--copy", "--yes"},
		sandbox.Options{Dir: project, WritableDir: true, Binds: testnode.Binds(t, export),
			Env: []string{"DISABLE_TELEMETRY=1", "DO_NOT_TRACK=1", "CI=1"}, Timeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("skills add failed (exit %d):\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	claude, _ := Lookup("claude-code")
	assertStatus(t, skills, claude.Dir(Project, project), Current)
}

func assertStatus(t *testing.T, skills []Skill, dir string, want Status) {
	t.Helper()
	for _, s := range skills {
		st, err := s.StatusIn(dir)
		if err != nil {
			t.Fatal(err)
		}
		if st != want {
			t.Errorf("%s in %s: status %s, want %s", s.Name, dir, st, want)
		}
	}
}

// assertNoTemporaries checks that no hidden build or swap directory is left.
func assertNoTemporaries(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name()[0] == '.' {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// BenchmarkInstall measures reinstalling the three Producer Skills over an
// existing copy.
func BenchmarkInstall(b *testing.B) {
	skills, err := Read(code2skill.Skills())
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ReportAllocs()
	for b.Loop() {
		if err := Install(dir, skills); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkList measures comparing the Producer Skills with every agent
// directory of a project and a home, one of them populated.
func BenchmarkList(b *testing.B) {
	skills, err := Read(code2skill.Skills())
	if err != nil {
		b.Fatal(err)
	}
	project, home := b.TempDir(), b.TempDir()
	claude, _ := Lookup("claude-code")
	if err := Install(claude.Dir(Project, project), skills); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := List(skills, project, home); err != nil {
			b.Fatal(err)
		}
	}
}
