package core

import (
	"bytes"
	"regexp"
	"strings"
)

// placeholders are the phrases code2skill init writes where a Producer
// must put the real thing: the untouched scaffold is a starting point, its
// Tools illustrative, and must not pass as a finished package.
var placeholders = []string{
	"describe the real one here",    // a scaffolded Tool description
	"scaffolded by code2skill init", // a scaffolded SKILL.md or Tool description
}

// lockfilePlaceholder is true of a package without a lockfile only.
const lockfilePlaceholder = "this package has no lockfile yet"

// checkPlaceholders reports the scaffold's placeholder text left in a
// SKILL.md, MCP-SETUP.md or a Tool description written as a literal.
func (c *checker) checkPlaceholders() {
	for _, f := range c.pkg.Files() {
		isSkill := f.Path == "SKILL.md" || strings.HasPrefix(f.Path, "skills/") && strings.HasSuffix(f.Path, "/SKILL.md")
		if !isSkill && f.Path != setupFile {
			continue
		}
		src, err := c.pkg.ReadFile(f.Path)
		if err != nil {
			continue // reported by the layout and Skill checks
		}
		phrases := placeholders
		if f.Path == setupFile && c.pkg.Has("package-lock.json") {
			phrases = append(phrases[:len(phrases):len(phrases)], lockfilePlaceholder)
		}
		for _, p := range phrases {
			if line, col, ok := findPhrase(src, p); ok {
				c.add(RulePlaceholder.New(f.Path, "the scaffold's placeholder %q is still here; %s", p, rewriteHint(f.Path, p)).At(line, col))
			}
		}
	}
	for _, file := range sortedKeys(c.modules) {
		for _, r := range c.modules[file].ToolRegistrations() {
			if !r.DescriptionSet {
				continue
			}
			for _, p := range placeholders {
				if strings.Contains(strings.ToLower(r.Description), p) {
					c.add(RulePlaceholder.New(file, "the description of tool %q still holds the scaffold's placeholder %q; "+
						"say what the Tool really does, when to call it and what it returns", r.Name, p).At(r.DescriptionPos.Line, r.DescriptionPos.Column))
					break
				}
			}
		}
	}
}

func rewriteHint(file, phrase string) string {
	switch {
	case phrase == lockfilePlaceholder:
		return "the package now ships a package-lock.json: say to install with npm ci"
	case file == setupFile:
		return "write what the package really needs"
	}
	return "rewrite the Skill from the goal's real call chain and remove the scaffold's notes"
}

// findPhrase returns the 1-based line and byte column of the first
// case-insensitive occurrence of phrase (lower-case ASCII) in src.
func findPhrase(src []byte, phrase string) (line, col int, ok bool) {
	loc := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(phrase)).FindIndex(src)
	if loc == nil {
		return 0, 0, false
	}
	i := loc[0]
	line = 1 + bytes.Count(src[:i], []byte("\n"))
	col = i - bytes.LastIndexByte(src[:i], '\n')
	return line, col, true
}
