package skillmd

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/diag"
	"go.yaml.in/yaml/v3"
)

// Limits of the Agent Skills format, in characters (Unicode code points).
const (
	maxNameLength          = 64
	maxDescriptionLength   = 1024
	maxCompatibilityLength = 500
	// maxBodyLines is the size the specification asks SKILL.md to stay
	// under ("Keep your main SKILL.md under 500 lines"): the whole body is
	// loaded into the agent's context when the skill activates.
	maxBodyLines = 500
)

// allowedFields are the frontmatter keys the Agent Skills specification
// defines, in its order.
var allowedFields = []string{"name", "description", "license", "allowed-tools", "metadata", "compatibility"}

// Check returns the findings of the Agent Skills rules about one skill: the
// frontmatter fields, the name of a nested skill's folder, the length of
// the body and references to files outside the skill's folder.
func (s *Skill) Check() []diag.Diagnostic {
	var diags []diag.Diagnostic
	var name, desc *field
	for i := range s.fields {
		f := &s.fields[i]
		switch {
		case !f.valid:
			line, col := s.pos(f.k)
			diags = append(diags, RuleFieldUnknown.New(s.File,
				"frontmatter keys must be field names, not %s", describe(f.k)).At(line, col))
		case !isAllowedField(f.key):
			line, col := s.pos(f.k)
			diags = append(diags, RuleFieldUnknown.New(s.File,
				"unknown frontmatter key %q: Agent Skills allows only %s; keep other data under metadata",
				f.key, strings.Join(allowedFields, ", ")).At(line, col))
		case f.key == "name":
			name = f
		case f.key == "description":
			desc = f
		default:
			diags = append(diags, s.checkOptional(f)...)
		}
	}
	if name == nil {
		diags = append(diags, RuleNameMissing.New(s.File,
			"the frontmatter has no name: add name: <lowercase-with-hyphens>, the directory the skill installs into").At(1, 1))
	} else if msg := nameProblem(name.v); msg != "" {
		diags = append(diags, RuleNameInvalid.New(s.File, "%s", msg).At(s.pos(name.v)))
	} else if folder := s.Folder(); folder != "" && folder != s.Name {
		rule, what := RuleNameFolderMismatch, "its folder"
		if s.File == "SKILL.md" {
			// The package's directory is named by whoever copies it.
			rule, what = RuleNamePackageFolder, "the package's directory"
		}
		diags = append(diags, rule.New(s.File,
			"name %q differs from %s %q: npx skills add installs it as %q (the frontmatter name wins), "+
				"and skills-ref validate rejects the mismatch; rename one to match the other", s.Name, what, folder, s.Name).At(s.pos(name.v)))
	}
	if desc == nil {
		diags = append(diags, RuleDescriptionMissing.New(s.File,
			"the frontmatter has no description: say what the skill does and when an agent should use it").At(1, 1))
	} else if msg := descriptionProblem(desc.v); msg != "" {
		diags = append(diags, RuleDescriptionInvalid.New(s.File, "%s", msg).At(s.pos(desc.v)))
	}
	if n := lineCount(s.Body); n > maxBodyLines {
		diags = append(diags, RuleBodyTooLong.New(s.File,
			"the body has %d lines, more than the %d Agent Skills recommends: the whole body enters the agent's context "+
				"when the skill activates; move detail into references/ and link it", n, maxBodyLines).At(s.BodyLine+maxBodyLines, 1))
	}
	diags = append(diags, s.checkReferences()...)
	return diags
}

func isAllowedField(key string) bool { return slices.Contains(allowedFields, key) }

// nameProblem says what is wrong with a name value, or returns "".
func nameProblem(v *yaml.Node) string {
	s, ok := stringValue(v)
	if !ok {
		return fmt.Sprintf("name must be a string, not %s", describe(v))
	}
	switch {
	case s == "":
		return "name is empty"
	case utf8.RuneCountInString(s) > maxNameLength:
		return fmt.Sprintf("name is %d characters long, more than %d", utf8.RuneCountInString(s), maxNameLength)
	case strings.HasPrefix(s, "-") || strings.HasSuffix(s, "-"):
		return fmt.Sprintf("name %q starts or ends with a hyphen", s)
	case strings.Contains(s, "--"):
		return fmt.Sprintf("name %q contains consecutive hyphens", s)
	}
	for _, r := range s {
		if !('a' <= r && r <= 'z' || '0' <= r && r <= '9' || r == '-') {
			hint := "only lowercase letters a-z, digits and hyphens are allowed"
			if 'A' <= r && r <= 'Z' {
				hint = "it must be lowercase"
			}
			return fmt.Sprintf("name %q contains %q: %s", s, r, hint)
		}
	}
	return ""
}

// descriptionProblem says what is wrong with a description value, or
// returns "".
func descriptionProblem(v *yaml.Node) string {
	s, ok := stringValue(v)
	switch {
	case !ok:
		return fmt.Sprintf("description must be a string, not %s", describe(v))
	case strings.TrimSpace(s) == "":
		return "description is empty: say what the skill does and when an agent should use it"
	case utf8.RuneCountInString(s) > maxDescriptionLength:
		return fmt.Sprintf("description is %d characters long, more than %d: agents load every description at start-up",
			utf8.RuneCountInString(s), maxDescriptionLength)
	}
	return ""
}

// checkOptional checks license, compatibility, metadata and allowed-tools.
func (s *Skill) checkOptional(f *field) []diag.Diagnostic {
	invalid := func(n *yaml.Node, format string, args ...any) []diag.Diagnostic {
		return []diag.Diagnostic{RuleFieldInvalid.New(s.File, format, args...).At(s.pos(n))}
	}
	switch f.key {
	case "license":
		if v, ok := stringValue(f.v); !ok || strings.TrimSpace(v) == "" {
			return invalid(f.v, "license must be a license name or the name of a bundled license file, not %s", describe(f.v))
		}
	case "compatibility":
		v, ok := stringValue(f.v)
		switch {
		case !ok:
			return invalid(f.v, "compatibility must be a string, not %s", describe(f.v))
		case strings.TrimSpace(v) == "":
			return invalid(f.v, "compatibility is empty: leave it out when the skill has no special requirements")
		case utf8.RuneCountInString(v) > maxCompatibilityLength:
			return invalid(f.v, "compatibility is %d characters long, more than %d", utf8.RuneCountInString(v), maxCompatibilityLength)
		}
	case "metadata":
		if f.v.Kind != yaml.MappingNode {
			return invalid(f.v, "metadata must be a mapping of string keys to string values, not %s", describe(f.v))
		}
		var diags []diag.Diagnostic
		for i := 0; i+1 < len(f.v.Content); i += 2 {
			k, v := f.v.Content[i], resolve(f.v.Content[i+1])
			if _, ok := stringValue(k); !ok {
				diags = append(diags, invalid(k, "metadata keys must be strings, not %s", describe(k))...)
			} else if _, ok := stringValue(v); !ok {
				diags = append(diags, invalid(v, "metadata.%s must be a string, not %s (quote it: %q)", k.Value, describe(v), v.Value)...)
			}
		}
		return diags
	case "allowed-tools":
		if _, ok := stringValue(f.v); ok {
			return nil
		}
		if f.v.Kind != yaml.SequenceNode {
			return invalid(f.v, "allowed-tools must be a space-separated string or a list of strings, not %s", describe(f.v))
		}
		for _, item := range f.v.Content {
			if _, ok := stringValue(resolve(item)); !ok {
				return invalid(item, "allowed-tools entries must be strings, not %s", describe(item))
			}
		}
	}
	return nil
}

// stringValue returns the value of a YAML string scalar.
func stringValue(n *yaml.Node) (string, bool) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", false
	}
	return n.Value, true
}

// describe names what a YAML value is, for messages: "a number (123)",
// "null", "a list".
func describe(n *yaml.Node) string {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null (an empty value)"
		case "!!int", "!!float":
			return fmt.Sprintf("a number (%s)", n.Value)
		case "!!bool":
			return fmt.Sprintf("a boolean (%s)", n.Value)
		case "!!str":
			return fmt.Sprintf("a string (%q)", n.Value)
		}
		return fmt.Sprintf("a %s value", strings.TrimPrefix(n.ShortTag(), "!!"))
	}
	return "an unsupported value"
}

// lineCount counts the lines of b; a last line without "\n" counts.
func lineCount(b []byte) int {
	n := bytes.Count(b, []byte("\n"))
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
