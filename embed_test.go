package code2skill

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
)

// The budget of a Producer Skill's body: the Agent Skills limit on lines,
// and about 5k tokens at roughly four bytes a token.
const (
	maxBodyLines = 500
	maxBodyBytes = 20000
)

func TestSkillsFrontmatterAndBudget(t *testing.T) {
	dirs, err := fs.ReadDir(Skills(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 3 {
		t.Errorf("want the three Producer Skills, got %d entries", len(dirs))
	}
	for _, d := range dirs {
		src, err := fs.ReadFile(Skills(), path.Join(d.Name(), "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		front, body, ok := strings.Cut(strings.TrimPrefix(string(src), "---\n"), "\n---\n")
		if !ok || !strings.HasPrefix(string(src), "---\n") {
			t.Errorf("%s: no frontmatter", d.Name())
			continue
		}
		if !strings.HasPrefix(front, "name: "+d.Name()+"\n") {
			t.Errorf("%s: the frontmatter does not start with its name, equal to the directory", d.Name())
		}
		if n := strings.Count(body, "\n"); n > maxBodyLines {
			t.Errorf("%s: body has %d lines, budget %d", d.Name(), n, maxBodyLines)
		}
		if len(body) > maxBodyBytes {
			t.Errorf("%s: body has %d bytes, budget %d", d.Name(), len(body), maxBodyBytes)
		}
		if strings.Contains(body, "](../") {
			t.Errorf("%s: links outside its own folder", d.Name())
		}
	}
}

// TestSkillAssetsAreReviewed: the runtime files the generate Skill carries
// are the reviewed assets, byte for byte.
func TestSkillAssetsAreReviewed(t *testing.T) {
	dir := "code2skill-generate/assets"
	entries, err := fs.ReadDir(Skills(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(assets.Runtime()) {
		t.Errorf("%s holds %d files, want the %d runtime assets", dir, len(entries), len(assets.Runtime()))
	}
	for _, a := range assets.Runtime() {
		b, err := fs.ReadFile(Skills(), path.Join(dir, a.Name()))
		if err != nil {
			t.Errorf("%s: %v; copy it from assets/", a.Name(), err)
			continue
		}
		if !a.Matches(b) {
			t.Errorf("%s/%s differs from the reviewed asset; copy it again from assets/", dir, a.Name())
		}
	}
}
