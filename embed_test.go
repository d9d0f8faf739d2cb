package code2skill

import (
	"bytes"
	"io/fs"
	"path"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/skillmd"
)

// The budget of a Producer Skill's body, which enters the agent's context
// whole when the Skill activates: the Agent Skills specification asks for
// under 500 lines and under about 5k tokens (roughly four bytes a token).
// Detail an agent needs only sometimes goes into the Skill's references/.
const (
	maxBodyLines = 500
	maxBodyBytes = 20000
)

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
		if s == nil {
			continue
		}
		if n := bytes.Count(s.Body, []byte("\n")); n > maxBodyLines {
			t.Errorf("%s: body has %d lines, budget %d", file, n, maxBodyLines)
		}
		if len(s.Body) > maxBodyBytes {
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
			t.Errorf("%s: %v; run \"go generate .\" at the repository root", a.Name(), err)
			continue
		}
		if !a.Matches(b) {
			t.Errorf("%s/%s differs from the reviewed asset; run \"go generate .\" at the repository root", dir, a.Name())
		}
	}
}
