package code2skill

import (
	"io/fs"
	"path"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/skillmd"
)

// maxBodyBytes is the budget of a Producer Skill's body: about 5k tokens at
// roughly four bytes a token. The Agent Skills rules (skillmd) bound its
// lines.
const maxBodyBytes = 20000

// TestSkillsFollowAgentSkillsRules checks each Producer Skill with the same
// Agent Skills rules validate applies to generated packages.
func TestSkillsFollowAgentSkillsRules(t *testing.T) {
	dirs, err := fs.ReadDir(Skills(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 3 {
		t.Errorf("want the three Producer Skills, got %d entries", len(dirs))
	}
	for _, d := range dirs {
		file := path.Join("skills", d.Name(), "SKILL.md")
		src, err := fs.ReadFile(Skills(), path.Join(d.Name(), "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		s, diags := skillmd.Parse(file, src)
		if s != nil {
			diags = append(diags, s.Check()...)
		}
		for _, dg := range diags {
			t.Error(dg)
		}
		if s != nil && len(s.Body) > maxBodyBytes {
			t.Errorf("%s: body has %d bytes, budget %d", file, len(s.Body), maxBodyBytes)
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
