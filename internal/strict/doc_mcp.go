package strict

import (
	"regexp"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/toolresult"
)

// MCPDocFile is the Chinese description of the package's MCP surface.
const MCPDocFile = "MCP.zh-CN.md"

// Sizes of MCP.zh-CN.md: the full protocol surface, every Tool with a
// success and an error example.
const (
	mcpDocMinLength  = 8000
	mcpDocMinCJK     = 2000
	mcpDocToolMinCJK = 75
	// callExampleWindow is how far after "name": "<tool>" the arguments of
	// a tools/call example must start, in code points.
	callExampleWindow = 300
)

// mcpDocTerms are the protocol terms MCP.zh-CN.md explains; the protocol
// version is added from the export profile.
var mcpDocTerms = []string{
	"MCP", "stdio", "tools/list", "tools/call", "title", "description", "inputSchema", "outputSchema",
	"structuredContent", "isError", "annotations", "dry-run", "入参", "出参", "错误", "示例",
}

// The seven topics of a Tool's section in MCP.zh-CN.md.
var mcpDocToolSection = toolSectionRule{level: 2, minCJK: mcpDocToolMinCJK, topics: mcpDocToolTopics, missing: RuleMCPDocToolSection, lacking: RuleMCPDocToolCoverage}

var mcpDocToolTopics = []topic{
	newTopic("its purpose (用途/适用/调用时机/何时调用)", `用途|适用|调用时机|何时调用`),
	newTopic("its input (入参/无入参/空对象)", `入参|无入参|空对象`),
	newTopic("its output (出参/输出/structuredContent)", `出参|输出|structuredContent`),
	newTopic("how it executes (HTTP/本地/0 次请求/0 HTTP)", `HTTP|本地|0 次请求|0 HTTP`),
	newTopic("its failures (失败/错误/拒绝/isError)", `失败|错误|拒绝|isError`),
	newTopic("what follows (handoff/交接/交给/传给/独立调用/直接回答/结束)", `handoff|交接|交给|传给|独立调用|直接回答|结束`),
	newTopic(`an example (示例 or "name")`, `示例|"name"`),
}

var (
	handoffTerm    = regexp.MustCompile(`handoff|交接`)
	isErrorExample = regexp.MustCompile(`"isError"\s*:\s*true`)
	structuredKey  = regexp.MustCompile(`"structuredContent"\s*:`)
	argumentsKey   = regexp.MustCompile(`"arguments"\s*:`)
	// A statement that a failure is not retryable by default.
	notRetryableByDefault = regexp.MustCompile(`默认[^。；\n]{0,12}(?:不可|不能|不应|不会|不)[^。；\n]{0,4}重试|(?i:not\s+retryable\s+by\s+default)`)
)

// checkMCPDoc checks MCP.zh-CN.md: its size, the protocol terms, and one
// section per Tool with its fields, a call example and an error example.
func checkMCPDoc(d *document, f *facts) []diag.Diagnostic {
	out := checkAgentDoc(d, f)
	out = append(out, tooShort(d, mcpDocMinLength, mcpDocMinCJK)...)
	var absent []string
	for _, term := range append(mcpDocTerms, f.protocolVersion) {
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
		out = append(out, checkMCPDocTool(d, t)...)
	}
	return out
}

// checkMCPDocTool checks the H2 section of one Tool.
func checkMCPDocTool(d *document, t *toolFacts) []diag.Diagnostic {
	_, text, at, found, out := mcpDocToolSection.toolSection(d, t)
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
	if !t.retryability && !notRetryableByDefault.MatchString(text) {
		out = append(out, RuleMCPDocRetryDefault.New(d.file,
			"the error contract of %s declares no retryability path: say that its failures are not retryable by default (默认不可重试)", code(t.name)).At(at, 0))
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
