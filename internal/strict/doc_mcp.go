package strict

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/toolresult"
)

// callExampleWindow is how far after "name": "<tool>" the arguments of a
// tools/call example must start, in code points.
const callExampleWindow = 300

// mcpDocToolSection is how the MCP document gives each Tool its H2
// section, with the language's seven topics.
func (l *docLang) mcpDocToolSection() toolSectionRule {
	return toolSectionRule{level: 2, minUnits: l.mcpDocToolUnits, topics: l.mcpDocToolTopics, missing: RuleMCPDocToolSection, lacking: RuleMCPDocToolCoverage}
}

var (
	handoffTerm    = regexp.MustCompile(`handoff|交接`)
	isErrorExample = regexp.MustCompile(`"isError"\s*:\s*true`)
	structuredKey  = regexp.MustCompile(`"structuredContent"\s*:`)
	argumentsKey   = regexp.MustCompile(`"arguments"\s*:`)
	// A success without a body: "data": null.
	nullData = regexp.MustCompile(`"data"\s*:\s*null`)
)

// checkMCPDoc checks the MCP document (MCP.zh-CN.md, MCP.en.md): its size,
// the protocol terms, and one section per Tool with its fields, a call
// example and an error example.
func checkMCPDoc(d *document, f *facts) []diag.Diagnostic {
	l := f.lang
	out := checkAgentDoc(d, f)
	out = append(out, tooShort(d, l, l.mcpDocMin, l.mcpDocUnits)...)
	var absent []string
	for _, term := range append(slices.Clone(l.mcpDocTerms), f.protocolVersion) {
		if !strings.Contains(d.Text, term) {
			absent = append(absent, term)
		}
	}
	if !handoffTerm.MatchString(d.Text) {
		absent = append(absent, "handoff/交接")
	}
	if len(absent) > 0 {
		out = append(out, RuleMCPDocTerm.New(d.file, "never mentions %s", strings.Join(absent, ", ")))
	}
	for _, t := range f.tools {
		out = append(out, checkMCPDocTool(d, l, t)...)
	}
	return out
}

// checkMCPDocTool checks the H2 section of one Tool.
func checkMCPDocTool(d *document, l *docLang, t *toolFacts) []diag.Diagnostic {
	_, text, at, found, out := l.mcpDocToolSection().toolSection(d, l, t)
	if !found {
		return out
	}
	for _, in := range t.inputs {
		if !strings.Contains(text, code(in.name)) {
			out = append(out, RuleMCPDocToolFields.New(d.file, "the section of %s does not name the input %s", code(t.name), code(in.name)).At(at, 0))
		}
	}
	for _, o := range t.outputs {
		if !strings.Contains(text, code(o)) {
			out = append(out, RuleMCPDocToolFields.New(d.file, "the section of %s does not name the required output %s", code(t.name), code(o)).At(at, 0))
		}
	}
	if !hasCallExample(text, t.name) {
		out = append(out, RuleMCPDocCallExample.New(d.file,
			"the section of %s has no tools/call example: \"name\": %q followed within %d characters by \"arguments\":",
			code(t.name), t.name, callExampleWindow).At(at, 0))
	}
	for _, p := range t.errorPaths {
		if !strings.Contains(text, code(p)) {
			out = append(out, RuleMCPDocErrorPath.New(d.file, "the section of %s does not write the error path %s", code(t.name), code(p)).At(at, 0))
		}
	}
	switch shown, stale := errorExamples(text); {
	case stale:
		out = append(out, RuleMCPDocErrorExample.New(d.file,
			"the section of %s shows an error result with \"structuredContent\"; a Tool error arrives without it, as the JSON of the one text block of \"content\" (clients check structuredContent against the output schema, error results included)", code(t.name)).At(at, 0))
	case !shown:
		out = append(out, RuleMCPDocErrorExample.New(d.file,
			"the section of %s has no structured error example: a result with \"isError\": true whose text block holds the JSON of {code, message, details, retryable}", code(t.name)).At(at, 0))
	}
	if len(t.emptyBody) > 0 {
		var missing []string
		if !nullData.MatchString(text) {
			missing = append(missing, `a success example with "data": null`)
		}
		for _, status := range t.emptyBody {
			if n := strconv.FormatInt(status, 10); !regexp.MustCompile(`\b` + n + `\b`).MatchString(text) {
				missing = append(missing, "the status "+n)
			}
		}
		if len(missing) > 0 {
			out = append(out, RuleMCPDocEmptyBody.New(d.file,
				"the backend may answer %s without a body, a success with null data; the section of %s lacks %s",
				code(t.name), code(t.name), strings.Join(missing, " and ")).At(at, 0))
		}
	}
	if t.deployer && !l.deployerWords.MatchString(text) {
		out = append(out, RuleMCPDocDeployer.New(d.file,
			"the deployer requires the confirmation of %s (deployerPolicy), and no source enforces it; its section does not say so (%s)",
			code(t.name), l.deployerHint).At(at, 0))
	}
	if !t.retryability && !l.notRetryableByDefault.MatchString(text) {
		out = append(out, RuleMCPDocRetryDefault.New(d.file,
			"the error contract of %s declares no retryability path: say that its failures are not retryable by default (%s)", code(t.name), l.retryDefaultHint).At(at, 0))
	}
	return out
}

// errorExamples reads the error results a Tool section shows, one JSON
// object to a line: shown says one has "isError": true and a text block
// holding the JSON of a structured error (an object with a code); stale
// says one carries "structuredContent", the shape clients throw on.
func errorExamples(text string) (shown, stale bool) {
	for _, line := range strings.Split(text, "\n") {
		if !isErrorExample.MatchString(line) {
			continue
		}
		if structuredKey.MatchString(line) {
			stale = true
			continue
		}
		v, err := canonjson.Decode([]byte(strings.TrimSpace(line)))
		if err != nil {
			continue
		}
		r, err := toolresult.Parse(v)
		if err != nil {
			continue
		}
		if e, from := r.ReadError(); from == toolresult.FromText && e.Has("code") {
			shown = true
		}
	}
	return shown, stale
}

// hasCallExample reports whether text holds "name": "<tool>" followed
// within callExampleWindow code points by "arguments":.
func hasCallExample(text, tool string) bool {
	name := regexp.MustCompile(`"name"\s*:\s*"` + regexp.QuoteMeta(tool) + `"`)
	for _, loc := range name.FindAllStringIndex(text, -1) {
		// A code point takes at most four bytes: cut before converting.
		tail := text[loc[1]:]
		if len(tail) > 4*callExampleWindow {
			tail = tail[:4*callExampleWindow]
		}
		rest := []rune(tail)
		if len(rest) > callExampleWindow {
			rest = rest[:callExampleWindow]
		}
		if argumentsKey.MatchString(string(rest)) {
			return true
		}
	}
	return false
}
