package strict

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
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
	// A success without a body: "data": null.
	nullData = regexp.MustCompile(`"data"\s*:\s*null`)
	// The deployer's requirement.
	deployerWords = regexp.MustCompile(`部署方|deployerPolicy`)
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
	if !isErrorExample.MatchString(text) || !structuredKey.MatchString(text) {
		out = append(out, RuleMCPDocErrorExample.New(d.file,
			"the section of %s has no structured error example (\"isError\": true with \"structuredContent\":)", code(t.name)).At(at, 0))
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
	if t.deployer && !deployerWords.MatchString(text) {
		out = append(out, RuleMCPDocDeployer.New(d.file,
			"the deployer requires the confirmation of %s (deployerPolicy), and no source enforces it; its section does not say so (部署方 or deployerPolicy)",
			code(t.name)).At(at, 0))
	}
	if !t.retryability && !notRetryableByDefault.MatchString(text) {
		out = append(out, RuleMCPDocRetryDefault.New(d.file,
			"the error contract of %s declares no retryability path: say that its failures are not retryable by default (默认不可重试)", code(t.name)).At(at, 0))
	}
	return out
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
