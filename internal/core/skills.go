package core

import (
	"path/filepath"

	"github.com/code2skill/code2skill/internal/skillmd"
)

// checkSkills checks every Skill against the Agent Skills rules (frontmatter,
// folder name, body length, self-contained nested Skills) and their names
// against each other.
func (c *checker) checkSkills(files []skillFile) {
	var skills []*skillmd.Skill
	for _, f := range files {
		src, err := c.pkg.ReadFile(f.Path)
		if err != nil {
			c.add(RuleMissingFile.New(f.Path, "%v", err))
			continue
		}
		s, ds := skillmd.Parse(f.Path, src)
		c.add(ds...)
		if s == nil {
			continue
		}
		// A root Skill installs from the package directory, whose name
		// skills-ref compares with the Skill's.
		s.PackageFolder = filepath.Base(c.pkg.Dir())
		c.add(s.Check()...)
		skills = append(skills, s)
		c.skills[f.Path] = s
	}
	c.add(skillmd.CheckUnique(skills)...)
}
