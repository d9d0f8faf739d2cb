// Package code2skill holds the files that live at the repository root and
// ship inside the code2skill binary: the Producer Skills under skills/, laid
// out one directory per Skill so that "npx skills add <repository>" finds
// them as well.
package code2skill

import (
	"embed"
	"io/fs"
)

//go:embed skills
var skillFiles embed.FS

// Skills returns the Producer Skills: a file system whose top-level
// directories are the Skills, each holding its SKILL.md.
func Skills() fs.FS {
	sub, err := fs.Sub(skillFiles, "skills")
	if err != nil {
		panic(err) // "skills" is a valid path; fs.Sub fails only on invalid ones
	}
	return sub
}

//go:embed go.mod
var goMod []byte

// GoMod returns code2skill's go.mod: the module versions a build compiles,
// for a binary that recorded none (a test binary).
func GoMod() []byte { return goMod }
