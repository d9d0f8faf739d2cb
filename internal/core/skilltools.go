package core

import (
	"cmp"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/markdown"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/skillmd"
)

// serverTools is what the package says about its server's Tools.
type serverTools struct {
	names []string // in the server's order
	// complete is set when names is the whole tool set: from tools/list,
	// or from literal registrations only.
	complete bool
	inputs   map[string]bool // every input property name of every Tool
	where    map[string]diag.Diagnostic
	// descriptions are those discovery listed, for Tools whose
	// registration does not write its description as a literal.
	descriptions map[string]string
}

// tools gathers the server's Tools: the tools/list answer when discovery
// ran, else the literal registerTool calls of the package's code.
func (c *checker) tools(listed []mcpcheck.Tool) *serverTools {
	st := &serverTools{inputs: map[string]bool{}, where: map[string]diag.Diagnostic{}, descriptions: map[string]string{}}
	static, complete := []string{}, true
	literalDescription := map[string]bool{}
	for _, file := range sortedKeys(c.modules) {
		for _, r := range c.modules[file].ToolRegistrations() {
			if r.Name == "" {
				complete = false
				continue
			}
			static = append(static, r.Name)
			st.where[r.Name] = diag.Diagnostic{File: file, Line: r.Pos.Line, Column: r.Pos.Column}
			literalDescription[r.Name] = r.DescriptionSet
			for _, in := range r.Inputs {
				st.inputs[in] = true
			}
		}
	}
	if listed == nil {
		st.names, st.complete = static, complete && len(static) > 0
		return st
	}
	st.complete = true
	for i := range listed {
		t := &listed[i]
		var entry struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			InputSchema map[string]any `json:"inputSchema"`
		}
		if canonjson.Unmarshal(t.Raw, &entry) != nil || entry.Name == "" {
			continue
		}
		st.names = append(st.names, entry.Name)
		if _, ok := st.where[entry.Name]; !ok {
			st.where[entry.Name] = diag.Diagnostic{File: c.serverFile(), Pointer: t.Pointer()}
		}
		if !literalDescription[entry.Name] {
			st.descriptions[entry.Name] = entry.Description
		}
		propertyNames(entry.InputSchema, st.inputs, 0)
	}
	return st
}

// propertyNames adds the property names of a schema and its subschemas.
func propertyNames(s map[string]any, into map[string]bool, depth int) {
	if s == nil || depth > 16 {
		return
	}
	props, _ := s["properties"].(map[string]any)
	for name, sub := range props {
		into[name] = true
		m, _ := sub.(map[string]any)
		propertyNames(m, into, depth+1)
	}
	for _, kw := range []string{"items", "additionalProperties"} {
		m, _ := s[kw].(map[string]any)
		propertyNames(m, into, depth+1)
	}
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		list, _ := s[kw].([]any)
		for _, v := range list {
			m, _ := v.(map[string]any)
			propertyNames(m, into, depth+1)
		}
	}
}

// checkSkillTools cross-checks the Skills and the server's Tools: a Tool
// a Skill names must exist (an agent would call a Tool that is not there),
// and a Tool no Skill names is never called by an agent following the
// Skills. listed is discovery's tools/list answer, nil when it did not run.
func (c *checker) checkSkillTools(listed []mcpcheck.Tool) {
	st := c.tools(listed)
	for _, name := range slices.Sorted(maps.Keys(st.descriptions)) {
		for _, p := range placeholders {
			if strings.Contains(strings.ToLower(st.descriptions[name]), p) {
				w := st.where[name]
				c.add(RulePlaceholder.New(c.serverFile(), "the description of tool %q still holds the scaffold's placeholder %q; "+
					"say what the Tool really does, when to call it and what it returns", name, p).AtPointer(w.Pointer + "/description"))
				break
			}
		}
	}
	if len(st.names) == 0 {
		return
	}
	registered := map[string]bool{}
	for _, n := range st.names {
		registered[n] = true
	}
	known := map[string]bool{} // names that are not Tool references
	for in := range st.inputs {
		known[in] = true
	}
	var texts []string
	for _, file := range sortedKeys(c.skills) {
		s := c.skills[file]
		known[s.Name] = true
		texts = append(texts, string(s.Body))
		texts = append(texts, c.references(s)...)
	}
	if st.complete {
		for _, file := range sortedKeys(c.skills) {
			for _, ref := range toolReferences(c.skills[file]) {
				if !registered[ref.name] && !known[ref.name] && !ref.key {
					c.add(RuleSkillToolUnknown.New(file, "the Skill names the tool %q, which the server does not register (it registers %s); "+
						"an agent would call a Tool that is not there", ref.name, quoteNames(st.names)).At(ref.line, ref.col))
				}
			}
		}
	}
	all := strings.Join(texts, "\n")
	for _, name := range st.names {
		if regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(name) + `($|[^A-Za-z0-9_])`).MatchString(all) {
			continue
		}
		w := st.where[name]
		d := RuleToolUnmentioned.New(w.File, "tool %q is registered, but no Skill names it: an agent following the Skills never calls it; "+
			"say in a Skill when to call it, or remove it", name)
		if w.Line > 0 {
			d = d.At(w.Line, w.Column)
		} else {
			d = d.AtPointer(w.Pointer)
		}
		c.add(d)
	}
}

// references returns the text of the Markdown files under a Skill's
// references/ folder.
func (c *checker) references(s *skillmd.Skill) []string {
	dir := path.Join(path.Dir(s.File), "references") + "/"
	if s.File == "SKILL.md" {
		dir = "references/"
	}
	var out []string
	for _, f := range c.pkg.Files() {
		if strings.HasPrefix(f.Path, dir) && strings.HasSuffix(f.Path, ".md") {
			if b, err := c.pkg.ReadFile(f.Path); err == nil {
				out = append(out, string(b))
			}
		}
	}
	return out
}

// toolReference is a name a Skill uses as a Tool's.
type toolReference struct {
	name      string
	line, col int  // in SKILL.md
	key       bool // the name is also a JSON key in the Skill: a field, not a Tool
}

var (
	identifier = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]*$`)
	snakeName  = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$`)
	// A call step: "Call `x` with", "calls x_y", "invoke the `x` Tool",
	// "调用 `x`".
	callStep = regexp.MustCompile("(?i)(?:\\bcall|\\bcalls|\\bcalling|\\binvoke|\\binvokes|\\binvoking|调用)\\s+(?:the\\s+)?(`[^`\n]+`|[A-Za-z][A-Za-z0-9_]*)")
	// A name called a Tool: "the `x` Tool", "`x` tool".
	namedTool = regexp.MustCompile("(?i)`([^`\n]+)`\\s+(?:mcp\\s+)?tool\\b")
	// A name called with arguments in prose: "`x(…)`", "`x({ id })`".
	callSyntax = regexp.MustCompile("`([A-Za-z][A-Za-z0-9_]*)\\s*\\(")
	// A heading that is a name alone: "### `x`", "## `x` Tool".
	nameHeading = regexp.MustCompile("(?i)^#{1,6}\\s+`([^`\n]+)`\\s*(?:tool)?\\s*$")
	// A call example: {"name": "x", "arguments": …}.
	callExample = regexp.MustCompile(`"name"\s*:\s*"([^"\s]+)"\s*,\s*"arguments"`)
	jsonKey     = regexp.MustCompile(`"([^"\s]+)"\s*:`)
)

// toolReferences returns the names a Skill's body uses in the positions
// only a Tool takes: after "call" or "invoke" in a call step (backticked,
// or a bare snake_case name), backticked before "tool", backticked and
// called with arguments (`x(…)`), a heading of its own, and the "name" of
// a call example ({"name": …, "arguments": …}, fenced or not). A name
// written anywhere else (a response field, an input, a value, in
// backticks or not) is prose, not a reference. A name that is a JSON key
// anywhere in the Skill is marked key: a field, not a Tool.
func toolReferences(s *skillmd.Skill) []toolReference {
	doc := markdown.Parse(s.Body)
	keys := map[string]bool{}
	for _, m := range jsonKey.FindAllStringSubmatch(string(s.Body), -1) {
		keys[m[1]] = true
	}
	var out []toolReference
	seen := map[string]bool{}
	add := func(name string, i, col int) {
		if seen[name] || !identifier.MatchString(name) {
			return
		}
		seen[name] = true
		out = append(out, toolReference{name: name, line: s.BodyLine + i, col: col + 1, key: keys[name] && !callExample.MatchString(doc.Lines[i])})
	}
	for i, line := range doc.Lines {
		for _, m := range callExample.FindAllStringSubmatchIndex(line, -1) {
			add(line[m[2]:m[3]], i, m[2])
		}
		if doc.Fenced[i] {
			continue
		}
		for _, re := range []*regexp.Regexp{namedTool, callSyntax, nameHeading} {
			for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
				add(line[m[2]:m[3]], i, m[2])
			}
		}
		for _, m := range callStep.FindAllStringSubmatchIndex(line, -1) {
			name, col := line[m[2]:m[3]], m[2]
			if strings.HasPrefix(name, "`") {
				add(strings.Trim(name, "`"), i, col+1)
			} else if snakeName.MatchString(name) {
				add(name, i, col)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b toolReference) int { return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col)) })
	return out
}

func quoteNames(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	return strings.Join(q, ", ")
}

// serverFile is the entry point of the package's MCP server, named by the
// findings about what its tools/list said.
func (c *checker) serverFile() string {
	if c.result.Runtime == pkgdir.RuntimeGo {
		return pkgdir.GoServerFile
	}
	return mcpcheck.ServerFile
}
