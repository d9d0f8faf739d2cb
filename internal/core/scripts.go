package core

import (
	"path"
	"strings"

	"github.com/code2skill/code2skill/internal/jsmod"
)

// checkScripts parses every .mjs and .js file outside node_modules as an ES
// module, in process, and checks the package's own code (everything but
// its tests) for environment reads that fall back to a literal URL and for
// credentials written into it, and its tests for real-looking credentials.
// It records how many tests each test file declares (see runTests). It
// returns the environment variables that code reads, in the order of their
// first read, files taken in path order.
func (c *checker) checkScripts() []string {
	var vars []string
	seen := map[string]bool{}
	for _, f := range c.pkg.Files() {
		if ext := path.Ext(f.Path); ext != ".mjs" && ext != ".js" {
			continue
		}
		src, err := c.pkg.ReadFile(f.Path)
		if err != nil {
			c.add(jsmod.RuleSyntax.New(f.Path, "%v", err))
			continue
		}
		m, ds := jsmod.Parse(f.Path, src)
		c.add(ds...)
		if m == nil {
			continue
		}
		if isTest(f.Path) {
			c.add(m.CheckTest()...)
			c.declared[f.Path] = m.TestsDeclared()
			c.tests[f.Path] = m
			continue
		}
		c.modules[f.Path] = m
		c.add(m.CheckAllowing(c.public)...)
		for _, r := range m.EnvReads() {
			if !seen[r.Name] {
				seen[r.Name] = true
				vars = append(vars, r.Name)
			}
		}
	}
	return vars
}

// isTest reports whether a file belongs to the package's tests, whose
// environment handling (mock base URLs, dry-run switches) is not the
// package's configuration.
func isTest(p string) bool {
	return strings.HasPrefix(p, "tests/") || strings.HasSuffix(p, ".test.mjs") || strings.HasSuffix(p, ".test.js")
}
