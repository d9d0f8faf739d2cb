package skillmd

import (
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// CheckUnique reports skills of one package that install into the same
// directory, once at the name of each of them: the one installed last
// replaces the others. Names are compared the way the skills CLI turns
// them into directory names (see installName), so "Reserve-Plot" clashes
// with "reserve-plot" even though Check already rejects the first. Skills
// without a name are skipped.
func CheckUnique(skills []*Skill) []diag.Diagnostic {
	byDir := map[string][]*Skill{}
	for _, s := range skills {
		if s != nil && s.Name != "" {
			dir := installName(s.Name)
			byDir[dir] = append(byDir[dir], s)
		}
	}
	var diags []diag.Diagnostic
	for _, s := range skills {
		if s == nil || s.Name == "" || len(byDir[installName(s.Name)]) < 2 {
			continue
		}
		dir := installName(s.Name)
		var others []string
		for _, o := range byDir[dir] {
			if o != s {
				others = append(others, o.File)
			}
		}
		if len(others) == 0 {
			continue // the same skill passed twice
		}
		slices.Sort(others)
		d := RuleNameDuplicate.New(s.File, "skill name %q is also used by %s: both install into the directory %q",
			s.Name, strings.Join(others, ", "), dir)
		if f := s.field("name"); f != nil {
			d = d.At(s.pos(f.v))
		}
		diags = append(diags, d)
	}
	return diags
}

var nonNameRun = regexp.MustCompile(`[^a-z0-9._]+`)

// installName is the directory the skills CLI installs a skill with this
// frontmatter name into: lowercased, runs of other characters than a-z,
// 0-9, "." and "_" turned into "-", leading and trailing "." and "-"
// dropped (skills 1.5.18). A valid name is its own install name.
func installName(name string) string {
	dir := nonNameRun.ReplaceAllString(strings.ToLower(name), "-")
	return strings.Trim(dir, ".-")
}

// field returns the frontmatter field with the given key, or nil.
func (s *Skill) field(key string) *field {
	for i := range s.fields {
		if s.fields[i].valid && s.fields[i].key == key {
			return &s.fields[i]
		}
	}
	return nil
}
