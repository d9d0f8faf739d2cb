// Package skillinstall puts the Producer Skills that ship inside code2skill
// where agents discover them, exports them as a folder for
// "npx skills add", and reports which version is installed where.
//
// Installing one Skill replaces its directory as a whole and atomically: an
// agent reading the skills directory sees either the previous version or the
// new one, never a mixture.
package skillinstall

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"

	"github.com/code2skill/code2skill/internal/atomicfile"
)

// A Skill is one Producer Skill: its name (its directory) and its files.
type Skill struct {
	Name  string
	Files []atomicfile.File // paths relative to the Skill's directory, sorted
}

// Read returns the Skills of fsys (code2skill.Skills(), the Producer Skills
// the binary carries): every top-level directory that holds a SKILL.md, in
// lexical order.
func Read(fsys fs.FS) ([]Skill, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var skills []Skill
	for _, e := range entries {
		if _, err := fs.Stat(fsys, path.Join(e.Name(), "SKILL.md")); err != nil {
			continue
		}
		s, err := readSkill(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		skills = append(skills, s)
	}
	return skills, nil
}

// readSkill reads the files of the Skill directory name, in lexical order.
// A symlinked Skill directory (as "npx skills add" makes) is followed.
func readSkill(fsys fs.FS, name string) (Skill, error) {
	s := Skill{Name: name}
	err := fs.WalkDir(fsys, name, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		s.Files = append(s.Files, atomicfile.File{Path: p[len(name)+1:], Data: data, Perm: 0o644})
		return nil
	})
	if err != nil {
		return Skill{}, fmt.Errorf("reading skill %s: %w", name, err)
	}
	return s, nil
}

// Status is how an installed copy of a Skill compares with the embedded one.
type Status string

const (
	Current Status = "current" // byte-for-byte the version code2skill carries
	Differs Status = "differs" // another version, or edited
	Missing Status = "missing"
)

// StatusIn compares the Skill with its copy in skillsDir.
func (s Skill) StatusIn(skillsDir string) (Status, error) {
	if _, err := os.Stat(filepath.Join(skillsDir, s.Name)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Missing, nil
		}
		return "", err
	}
	installed, err := readSkill(os.DirFS(skillsDir), s.Name)
	if err != nil {
		return "", err
	}
	if !slices.EqualFunc(s.Files, installed.Files, func(a, b atomicfile.File) bool {
		return a.Path == b.Path && bytes.Equal(a.Data, b.Data)
	}) {
		return Differs, nil
	}
	return Current, nil
}
