// Package skillmd reads SKILL.md files and checks them against the Agent
// Skills format (agentskills.io/specification) and against what an
// installer does with them.
//
//	s, diags := skillmd.Parse("skills/reserve-plot/SKILL.md", src)
//	list.Add(diags...)
//	if s != nil {
//		list.Add(s.Check()...)
//		skills = append(skills, s)
//	}
//	list.Add(skillmd.CheckUnique(skills)...)
//
// The frontmatter is read with a real YAML parser (go.yaml.in/yaml/v3) and
// every finding carries the line of SKILL.md it concerns.
//
// Which name a skill is installed under: the skills CLI (npx skills add,
// checked with skills 1.5.18) installs a skill into a directory named after
// the frontmatter name, whatever its folder is called; the folder name is
// only a fallback for a skill without a name. skills-ref, the reference
// validator, requires the two to be equal. A mismatch therefore installs
// fine under the frontmatter name but fails validation: an error here for
// a skill under skills/<folder>/, whose folder the package names
// (SKILL_NAME_FOLDER_MISMATCH), and a warning for a SKILL.md at a
// package's root, whose directory is named by whoever copies the package
// (SKILL_NAME_PACKAGE_FOLDER).
package skillmd

import (
	"bytes"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/diag"
	"go.yaml.in/yaml/v3"
)

// Skill is a parsed SKILL.md.
type Skill struct {
	File string // package-relative slash path, used in diagnostics

	// Name and Description are the frontmatter values when they are
	// strings, else "".
	Name, Description string

	Body     []byte // the Markdown after the frontmatter
	BodyLine int    // 1-based line of SKILL.md on which Body starts

	// PackageFolder is the name of the directory holding a SKILL.md at a
	// package root, set by the caller that knows it: installers and
	// skills-ref treat that directory as the skill's folder.
	PackageFolder string

	fields  []field // the frontmatter's keys, in order
	lines   [][]byte
	yamlTop int // line of SKILL.md holding the frontmatter's first line
}

// field is one key of the frontmatter and its value.
type field struct {
	key   string
	k, v  *yaml.Node // v has aliases resolved
	valid bool       // the key is a string
}

// Parse reads the frontmatter of a SKILL.md. When the frontmatter is
// missing, unterminated, not YAML or not a mapping, Parse returns a nil
// Skill and a finding saying so; the Agent Skills rules are checked by
// (*Skill).Check.
func Parse(file string, src []byte) (*Skill, []diag.Diagnostic) {
	s := &Skill{File: file, lines: splitLines(src)}
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		return nil, []diag.Diagnostic{RuleFrontmatterMissing.New(file,
			"SKILL.md starts with a byte order mark, so installers do not see its frontmatter: save it as UTF-8 without BOM").At(1, 1)}
	}
	// Installers recognise the frontmatter only when the very first line is
	// "---" (the skills CLI matches ^---\r?\n).
	if len(s.lines) == 0 || string(trimEOL(s.lines[0])) != "---" {
		return nil, []diag.Diagnostic{RuleFrontmatterMissing.New(file,
			"SKILL.md must start with a line that is exactly --- opening a YAML frontmatter with name and description").At(1, 1)}
	}
	end := -1
	for i := 1; i < len(s.lines); i++ {
		if string(bytes.TrimRight(s.lines[i], " \t\r\n")) == "---" {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, []diag.Diagnostic{RuleFrontmatterUnterminated.New(file,
			"the frontmatter opened on line 1 is never closed: add a line that is exactly --- after it").At(1, 1)}
	}
	s.yamlTop = 2
	s.Body = bytes.Join(s.lines[end+1:], nil)
	s.BodyLine = end + 2

	root, d, ok := s.parseYAML(bytes.Join(s.lines[1:end], nil))
	if !ok {
		return nil, []diag.Diagnostic{d}
	}
	var diags []diag.Diagnostic
	if root != nil {
		if root.Kind != yaml.MappingNode {
			return nil, []diag.Diagnostic{RuleFrontmatterNotMapping.New(file,
				"the frontmatter is %s, not a mapping of fields such as name: and description:", describe(root)).At(s.pos(root))}
		}
		diags = s.readFields(root)
	}
	for _, f := range s.fields {
		if f.valid && f.v.Kind == yaml.ScalarNode && f.v.ShortTag() == "!!str" {
			switch f.key {
			case "name":
				s.Name = f.v.Value
			case "description":
				s.Description = f.v.Value
			}
		}
	}
	return s, diags
}

// parseYAML parses the frontmatter. It returns a nil node for an empty
// frontmatter.
func (s *Skill) parseYAML(fm []byte) (*yaml.Node, diag.Diagnostic, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(fm, &doc); err != nil {
		line := s.yamlTop + yamlErrorLine(fm, err) - 1
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		if i := strings.Index(msg, ": "); strings.HasPrefix(msg, "line ") && i > 0 {
			msg = msg[i+2:] // our line, not the parser's, is the right one
		}
		return nil, RuleFrontmatterYAML.New(s.File, "the frontmatter is not valid YAML: %s", msg).At(line, 0), false
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, diag.Diagnostic{}, true
	}
	return doc.Content[0], diag.Diagnostic{}, true
}

// yamlErrorLine returns the 1-based line of fm an error is about. yaml.v3
// names a line in some messages, not always the one at fault (it may give
// the line before the offending one, or where an unclosed bracket opened),
// and none in others; the first prefix of fm that fails with the same
// message ends on the offending line. Prefixes are only tried on
// frontmatters of ordinary size (each try is a parse).
func yamlErrorLine(fm []byte, err error) int {
	lines := splitLines(fm)
	if len(lines) <= maxBisectLines {
		for k := 1; k <= len(lines); k++ {
			var doc yaml.Node
			if e := yaml.Unmarshal(bytes.Join(lines[:k], nil), &doc); e != nil && e.Error() == err.Error() {
				return k
			}
		}
	}
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		if n, _ := strconv.Atoi(m[1]); n >= 1 && n <= len(lines) {
			return n
		}
	}
	return 1
}

// maxBisectLines bounds the frontmatters yamlErrorLine searches line by
// line; real ones have a handful of lines.
const maxBisectLines = 200

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+):`)

// readFields records the frontmatter's keys and reports duplicate keys,
// which YAML forbids and parsers resolve differently.
func (s *Skill) readFields(m *yaml.Node) []diag.Diagnostic {
	var diags []diag.Diagnostic
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], resolve(m.Content[i+1])
		f := field{key: k.Value, k: k, v: v, valid: k.Kind == yaml.ScalarNode && k.ShortTag() == "!!str"}
		if f.valid {
			if first, dup := seen[f.key]; dup {
				firstLine, _ := s.pos(first)
				diags = append(diags, RuleFrontmatterYAML.New(s.File,
					"key %q is defined twice (first on line %d): YAML keys must be unique", f.key, firstLine).At(s.pos(k)))
				continue
			}
			seen[f.key] = k
		}
		s.fields = append(s.fields, f)
	}
	return diags
}

// resolve follows a YAML alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// pos returns the line and byte column of SKILL.md at which a frontmatter
// node starts. yaml.v3 counts columns in characters.
func (s *Skill) pos(n *yaml.Node) (line, column int) {
	line = s.yamlTop + n.Line - 1
	if line < 1 || line > len(s.lines) {
		return line, 0
	}
	text := s.lines[line-1]
	off := 0
	for c := 1; c < n.Column && off < len(text); c++ {
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	return line, off + 1
}

// Folder returns the name of the folder holding the skill: <folder> of a
// nested skill (skills/<folder>/SKILL.md), PackageFolder for a SKILL.md at
// the package root, else "".
func (s *Skill) Folder() string {
	if s.File == "SKILL.md" {
		return s.PackageFolder
	}
	dir, base := path.Split(s.File)
	parent, folder := path.Split(strings.TrimSuffix(dir, "/"))
	if base != "SKILL.md" || parent != "skills/" || folder == "" {
		return ""
	}
	return folder
}

// splitLines splits src after each "\n", keeping the terminators.
func splitLines(src []byte) [][]byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// trimEOL strips one trailing "\n" or "\r\n".
func trimEOL(line []byte) []byte {
	line = bytes.TrimSuffix(line, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r"))
}
