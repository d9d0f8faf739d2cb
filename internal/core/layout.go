package core

import (
	"path"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/assets"
)

// skillFile is a SKILL.md found where installers discover skills.
type skillFile struct {
	Path   string // package-relative
	Folder string // the <goal> folder for skills/<goal>/SKILL.md, "" for the root
}

// checkLayout checks the files every core package has, the strict-audit files
// it must not have, and the choice between one root Skill and one Skill per
// goal. It returns the Skills it found.
func (c *checker) checkLayout() []skillFile {
	for _, f := range requiredFiles {
		if !c.pkg.Has(f) {
			c.add(RuleMissingFile.New(f, "required file is missing"))
		}
	}
	if len(c.testFiles()) == 0 {
		c.add(RuleNoTests.New("tests", "no test file matches tests/**/*.test.mjs; add offline tests that mock external requests"))
	}
	if c.pkg.Has(assets.AgentResult.Name()) {
		b, err := c.pkg.ReadFile(assets.AgentResult.Name())
		if err == nil && !assets.AgentResult.Matches(b) {
			c.add(RuleAssetModified.New(assets.AgentResult.Name(), "differs from the reviewed asset of this code2skill version (sha256 %s); copy it again rather than editing it, or review the change", assets.AgentResult.SHA256()))
		}
	}
	for _, f := range strictFiles {
		if c.pkg.Has(f) {
			c.add(RuleStrictFile.New(f, "strict-export audit file in a core-export-v1 package; remove it, or make the package strict-export-v1"))
		}
	}

	c.checkAuditFiles()
	return c.checkLayoutSkills()
}

// checkLayoutSkills finds the package's Skills and checks the choice
// between one root Skill and one Skill per goal.
func (c *checker) checkLayoutSkills() []skillFile {
	var skills []skillFile
	root := c.pkg.Has("SKILL.md")
	if root {
		skills = append(skills, skillFile{Path: "SKILL.md"})
	}
	for _, f := range c.pkg.Files() {
		if path.Base(f.Path) != "SKILL.md" || f.Path == "SKILL.md" {
			continue
		}
		parts := strings.Split(f.Path, "/")
		if len(parts) == 3 && parts[0] == "skills" {
			skills = append(skills, skillFile{Path: f.Path, Folder: parts[1]})
			continue
		}
		if parts[0] == "node_modules" {
			continue
		}
		c.add(RuleSkillStray.New(f.Path, "SKILL.md is neither at the package root nor at skills/<goal>/SKILL.md; installers will not find it"))
	}
	nested := len(skills) - boolInt(root)
	switch {
	case root && nested > 0:
		c.add(RuleSkillLayout.New("SKILL.md", "the package has both a root SKILL.md and %d skills/<goal>/SKILL.md; keep one root Skill for a single goal, or one Skill per goal under skills/", nested))
	case len(skills) == 0:
		c.add(RuleSkillLayout.New("", "the package has no Skill: add a root SKILL.md for a single goal, or skills/<goal>/SKILL.md for each goal"))
	}
	slices.SortFunc(skills, func(a, b skillFile) int { return strings.Compare(a.Path, b.Path) })
	return skills
}

// testFiles returns the package's test files, sorted.
func (c *checker) testFiles() []string {
	var out []string
	for _, f := range c.pkg.Match("tests/**/*.test.mjs") {
		out = append(out, f.Path)
	}
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
