package strict

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/diag"
)

const referenceMarker = "<!-- code2skill-capability-contract-sha256:2391f3ab414fe717a4bd5f5e463377eff40c8e4e4a241b6c2cfacf9340c48b2a -->"

// referenceFacts are the facts of the reference example, optionally from a
// patched contract.
func referenceFacts(t testing.TB, ops ...contracttest.Op) *facts {
	t.Helper()
	data := contracttest.Reference(t, contract.ContractFile)
	if len(ops) > 0 {
		data = contracttest.Patch(t, data, ops...)
	}
	c, l := contract.DecodeContract(contract.ContractFile, data)
	e, el := contract.DecodeExportProfile(contract.ExportProfileFile, contracttest.Reference(t, contract.ExportProfileFile))
	if l.Merge(el); l.HasErrors() {
		t.Fatalf("reference inputs: %v", l.Sorted())
	}
	return newFacts(c, e, "sample-request", referenceMarker)
}

// referenceDoc reads one of the reference documents.
func referenceDoc(t testing.TB, file string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "sample-request", filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// checkDoc runs the rules of one document over text.
func checkDoc(file, text string, f *facts) []diag.Diagnostic {
	return checkDocuments(f, func(name string) ([]byte, bool) {
		if name != file {
			return nil, false
		}
		return []byte(text), true
	})
}

// edit is a change of a document: replace old (which must occur) by new,
// in every occurrence.
type edit struct{ old, new string }

// apply applies the edits to text, failing the test when one finds
// nothing to change.
func apply(t *testing.T, text string, edits []edit) string {
	t.Helper()
	for _, e := range edits {
		if !strings.Contains(text, e.old) {
			t.Fatalf("the document does not contain %q", e.old)
		}
		text = strings.ReplaceAll(text, e.old, e.new)
	}
	return text
}

func ruleIDs(ds []diag.Diagnostic) []string {
	var l diag.List
	l.Add(ds...)
	return l.RuleIDs()
}

var documentFiles = []string{SkillFile, zhMCPDoc, SetupFile, ContextFile}

// The four reference documents satisfy every rule: they are the fixture
// where no document rule fires.
func TestReferenceDocumentsPass(t *testing.T) {
	f := referenceFacts(t)
	for _, file := range documentFiles {
		for _, d := range checkDoc(file, referenceDoc(t, file), f) {
			t.Errorf("unexpected finding: %s", d)
		}
	}
}

// Each document rule fires on a copy of a reference document broken in one
// way, and only that rule fires.
func TestDocumentRules(t *testing.T) {
	tests := []docCase{
		// Every Agent document.
		{name: "marker missing", file: SkillFile, edits: []edit{{referenceMarker, ""}}, want: []string{"STRICT_DOC_MARKER"}},
		{name: "marker stale", file: zhMCPDoc, edits: []edit{{"sha256:2391f3ab", "sha256:0ff8f61a"}}, want: []string{"STRICT_DOC_MARKER"}},
		{name: "fact view unnamed", file: ContextFile, edits: []edit{{"references/capability-contracts.json", "the fact view"}}, want: []string{"STRICT_DOC_FACT_VIEW"}},
		{name: "required input called optional", file: SkillFile,
			edits: []edit{{"- 入参 `requestData`：必填，对话中已经知道", "- 入参 `requestData`：可选，对话中已经知道"}},
			want:  []string{"STRICT_DOC_REQUIRED_AS_OPTIONAL"}},
		{name: "required input called optional in English", file: ContextFile,
			add: "`confirmationGrant` is optional for hosts that confirm otherwise.", want: []string{"STRICT_DOC_REQUIRED_AS_OPTIONAL"}},
		{name: "optional input called required", file: zhMCPDoc,
			edits: []edit{{"- `detailLevel`（字符串，可选）", "- `detailLevel`（字符串，必填）"}},
			want:  []string{"STRICT_DOC_OPTIONAL_AS_REQUIRED"}},
		{name: "optional input of one Tool called required", file: SkillFile,
			edits: []edit{{"- 入参 `attachmentGrants`：可选；", "- 入参 `attachmentGrants`：必须提供；"}},
			want:  []string{"STRICT_DOC_OPTIONAL_AS_REQUIRED"}},
		{name: "conditional input called always required", file: SkillFile,
			edits: []edit{{"- 入参 `attachmentGrants`：条件必填，", "- 入参 `attachmentGrants`：始终必填，"}},
			want:  []string{"STRICT_DOC_CONDITIONAL_AS_ALWAYS"}},
		{name: "write Tool is read-only", file: ContextFile, add: "`save_sample_draft` 是只读的查询。", want: []string{"STRICT_DOC_WRITE_AS_READ_ONLY"}},
		{name: "read-only list with a write Tool", file: zhMCPDoc,
			add: "只读 Tool：`list_sample_request_kinds`、`submit_sample_request`。", want: []string{"STRICT_DOC_WRITE_AS_READ_ONLY"}},
		{name: "never-retry Tool retried", file: SkillFile, add: "`submit_sample_request` 失败后宿主会自动重试。", want: []string{"STRICT_DOC_RETRY_CLAIMED"}},

		// SKILL.md.
		{name: "skill name", file: SkillFile, edits: []edit{{"name: sample-request", "name: sample-requests"}}, want: []string{"STRICT_SKILL_NAME_DIRECTORY"}},
		{name: "skill frontmatter", file: SkillFile, edits: []edit{{"---\nname:", "name:"}}, want: []string{"SKILL_FRONTMATTER_MISSING"}},
		{name: "skill context link", file: SkillFile, edits: []edit{{"references/feature-context.md", "the feature context"}}, want: []string{"STRICT_SKILL_CONTEXT_LINK"}},
		{name: "skill heading reworded", file: SkillFile, edits: []edit{{"## 意图路由", "## 意图与路由"}}, want: []string{"STRICT_SKILL_HEADING"}},
		{name: "skill dry-run", file: SkillFile, edits: []edit{{"试运行（dry-run）：", "演练："}}, want: []string{"STRICT_SKILL_DRY_RUN"}},
		{name: "skill Tool section", file: SkillFile, edits: []edit{{"### `save_sample_draft`：保存草稿", "### 保存草稿"}}, want: []string{"STRICT_SKILL_TOOL_SECTION"}},
		{name: "skill Tool topics", file: SkillFile,
			edits: []edit{{"交接：保存成功后把 `draftId` 告诉用户即可结束任务，不需要传给下游 Tool。", "保存成功后把 `draftId` 告诉用户。"}},
			want:  []string{"STRICT_SKILL_TOOL_COVERAGE"}},
		{name: "skill read Tool not read-only", file: SkillFile,
			edits: []edit{{"它是只读 Tool，只发出一次 GET 请求", "它只发出一次 GET 请求"}}, want: []string{"STRICT_SKILL_TOOL_READ_ONLY"}},
		{name: "skill required output", file: SkillFile, edits: []edit{{"`draftId`", "草稿编号"}}, want: []string{"STRICT_SKILL_TOOL_OUTPUT"}},
		{name: "skill input requiredness", file: SkillFile,
			edits: []edit{{"- 入参 `requestData`：必填，对话中已经知道的申请字段，`subject` 必填，`note` 可选。", "- 入参 `requestData`：对话中已经知道的申请字段。"}},
			want:  []string{"STRICT_SKILL_TOOL_INPUT"}},
		{name: "skill input never named", file: SkillFile, edits: []edit{{"`detailLevel`", "detailLevel"}},
			want: []string{"STRICT_SKILL_INPUT_UNNAMED", "STRICT_SKILL_TOOL_INPUT"}},
		{name: "skill examples", file: SkillFile, edits: []edit{{"### 示例三", "### 第三例"}, {"### 示例四", "### 第四例"}}, want: []string{"STRICT_SKILL_EXAMPLES"}},

		// MCP.zh-CN.md.
		{name: "mcp terms", file: zhMCPDoc, edits: []edit{{"tools/list", "tool listing"}}, want: []string{"STRICT_MCPDOC_TERM"}},
		{name: "mcp Tool section", file: zhMCPDoc, edits: []edit{{"## `save_sample_draft`：保存草稿", "## 保存草稿"}}, want: []string{"STRICT_MCPDOC_TOOL_SECTION"}},
		{name: "mcp Tool topics", file: zhMCPDoc,
			edits: []edit{{"交接：保存成功后把 `draftId` 告诉用户即可结束，不交给其他 Tool。", "保存成功后把 `draftId` 告诉用户。"}},
			want:  []string{"STRICT_MCPDOC_TOOL_COVERAGE"}},
		{name: "mcp Tool fields", file: zhMCPDoc, edits: []edit{{"`draftId`", "草稿编号"}}, want: []string{"STRICT_MCPDOC_TOOL_FIELDS"}},
		{name: "mcp call example", file: zhMCPDoc,
			edits: []edit{{`{"name": "list_sample_request_kinds", "arguments": {"detailLevel": "compact"}}`, `{"tool": "list_sample_request_kinds", "arguments": {"detailLevel": "compact"}}`}},
			want:  []string{"STRICT_MCPDOC_CALL_EXAMPLE"}},
		{name: "mcp error path", file: zhMCPDoc,
			edits: []edit{{"失败：错误对象的 `code`、`message`、`details`、`retryable` 说明原因；后端拒绝时", "失败：错误对象的 `code`、`message`、`details` 说明原因；后端拒绝时"}},
			want:  []string{"STRICT_MCPDOC_ERROR_PATH"}},
		{name: "mcp error example", file: zhMCPDoc,
			edits: []edit{{`\"outcomeKnown\":true},\"retryable\":false}"}], "isError": true}`, `\"outcomeKnown\":true},\"retryable\":false}"}], "failed": true}`}},
			want:  []string{"STRICT_MCPDOC_ERROR_EXAMPLE"}},
		{name: "mcp error example carrying structuredContent", file: zhMCPDoc,
			edits: []edit{{`{"content": [{"type": "text", "text": "{\"code\":\"UPSTREAM_STEP_REJECTED\",\"message\":\"step validateRequest`, `{"structuredContent": {"code": "UPSTREAM_STEP_REJECTED"}, "content": [{"type": "text", "text": "{\"code\":\"UPSTREAM_STEP_REJECTED\",\"message\":\"step validateRequest`}},
			want:  []string{"STRICT_MCPDOC_ERROR_EXAMPLE"}},

		// MCP-SETUP.md.
		{name: "setup placeholder", file: SetupFile, add: "把包复制到 <install-dir> 下。", want: []string{"STRICT_DOC_PLACEHOLDER"}},
		{name: "setup install flags", file: SetupFile, edits: []edit{{"-a claude-code -g -y", "-a claude-code -y"}}, want: []string{"STRICT_SETUP_INSTALL_COMMAND"}},
		{name: "setup install of another package", file: SetupFile, edits: []edit{{"npx skills add ./sample-request", "npx skills add ./other-package"}}, want: []string{"STRICT_SETUP_INSTALL_COMMAND"}},
		{name: "setup install scope", file: SetupFile, edits: []edit{{"只把 Skill 文件安装到", "把 Skill 文件安装到"}}, want: []string{"STRICT_SETUP_INSTALL_SCOPE"}},
		{name: "setup not MCP", file: SetupFile,
			edits: []edit{{"安装 Skill 不等于接入 MCP：它不会启动或注册 MCP 服务，也不配置任何地址或凭据。", "安装完成后即可使用。"}},
			want:  []string{"STRICT_SETUP_INSTALL_SCOPE"}},
		{name: "setup topics", file: SetupFile, edits: []edit{{"环境变量", "变量"}}, want: []string{"STRICT_SETUP_TOPIC"}},
		{name: "setup attachment", file: SetupFile, edits: []edit{{"attachment-resolution", "附件解析"}}, want: []string{"STRICT_SETUP_ATTACHMENT"}},
		{name: "setup dry-run variable", file: SetupFile, edits: []edit{{"CODE2SKILL_DRY_RUN", "DRY_RUN"}}, want: []string{"STRICT_SETUP_DRY_RUN_VARIABLE"}},
		{name: "setup start command", file: SetupFile, edits: []edit{{"node mcp-tool/index.mjs", "npm start"}}, want: []string{"STRICT_SETUP_START_COMMAND"}},

		// references/feature-context.md.
		{name: "context title", file: ContextFile, edits: []edit{{"# 样例申请：业务背景", "样例申请：业务背景"}}, want: []string{"STRICT_CONTEXT_TITLE"}},
		{name: "context section missing", file: ContextFile, edits: []edit{{"## 原客户端行为", "## 客户端做了什么"}}, want: []string{"STRICT_CONTEXT_SECTION"}},
		{name: "context section empty", file: ContextFile,
			edits: []edit{{"四个来源（客户端、后端、接口契约、行为测试）都已授权并检索过，没有缺失的来源。类型目录是动态目录还是客户端静态枚举，曾经存在冲突，已按后端签发的目录与选择凭证为准解决。宿主能否解析附件、能否签发可信确认取决于部署：当前宿主档案中附件解析不受支持、可信确认需要外部集成。", "暂无。"}},
			want:  []string{"STRICT_CONTEXT_SECTION"}},
		{name: "context Tool", file: ContextFile, edits: []edit{{"`save_sample_draft`", "save_sample_draft"}}, want: []string{"STRICT_CONTEXT_TOOL"}},
		{name: "context evidence", file: ContextFile, edits: []edit{{"`ev-client-save-call`", "ev-client-save-call"}}, want: []string{"STRICT_CONTEXT_EVIDENCE"}},
		{name: "context template title", file: ContextFile, add: "业务背景模板", want: []string{"STRICT_DOC_PLACEHOLDER"}},
		{name: "context side effects", file: ContextFile, edits: []edit{{"## 副作用、确认与写入", "## 写操作"}}, want: []string{"STRICT_CONTEXT_SIDE_EFFECTS"}},
	}
	runDocCases(t, referenceFacts(t), func(file string) string { return referenceDoc(t, file) }, tests)
}

// docCase is a document broken in one way (edited, or with a line added at
// the end) and the rules that fire on it.
type docCase struct {
	name  string
	file  string
	edits []edit
	add   string // a line added at the end
	want  []string
}

// runDocCases checks each case's document, doc(file) changed as the case
// says, and compares the rules that fire with the case's.
func runDocCases(t *testing.T, f *facts, doc func(file string) string, cases []docCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			text := apply(t, doc(tt.file), tt.edits)
			if tt.add != "" {
				text += tt.add + "\n"
			}
			ds := checkDoc(tt.file, text, f)
			if diff := cmp.Diff(tt.want, ruleIDs(ds)); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
				for _, d := range ds {
					t.Log(d)
				}
			}
		})
	}
}

// Statements the restatement guards must not mistake for claims: a
// negation, a claim about another name on the same line, a Tool whose
// policy allows it, a name written as code.
func TestRestatementsNotMistaken(t *testing.T) {
	f := referenceFacts(t)
	for _, line := range []string{
		"`submit_sample_request` 不是只读 Tool，它会创建申请。",
		"非只读的 `save_sample_draft` 会更新草稿。",
		"`save_sample_draft` 会更新草稿，与之不同，`list_sample_request_kinds` 是只读的。",
		"`submit_sample_request` 失败后不会自动重试。",
		"`list_sample_request_kinds` 失败时可以自动重试一次。",
		"`requestData`（必填），其中 `note` 可选。",
		"调用时传入 `requestData`（必填）和可选的 `detailLevel`。",
		"`detailLevel` 不是必填项，也并非必须提供。",
		"`detailLevel` is not required.",
		"`inputSchema` 的 `required` 数组不列出 `detailLevel`。",
		"用户可选择任一类型，随后提供 `requestData`。",
		"`attachmentGrants` 并非始终必填。",
		"```json\n{\"properties\": {\"detailLevel\": {\"type\": \"string\"}}, \"required\": []}\n```",
	} {
		text := referenceDoc(t, ContextFile) + line + "\n"
		for _, d := range checkDoc(ContextFile, text, f) {
			t.Errorf("%q: %s", line, d)
		}
	}
}

// A line is about the Tools it names; an input name that is required for
// one of them and optional for another is not judged there.
func TestRestatementsAmbiguousInput(t *testing.T) {
	f := referenceFacts(t)
	for _, tt := range []struct {
		line string
		want []string
	}{
		// validate: conditional; submit: optional; both named.
		{"`validate_sample_request` 与 `submit_sample_request` 都接收 `attachmentGrants`，必填与否取决于所选类型。", nil},
		// Only submit named: optional there, so 必填 is wrong.
		{"`submit_sample_request` 的 `attachmentGrants` 必填。", []string{"STRICT_DOC_OPTIONAL_AS_REQUIRED"}},
		// No Tool named and outside a Tool's section: every Tool, so
		// attachmentGrants is ambiguous, requestData is not.
		{"`attachmentGrants` 必填。", nil},
		{"`requestData` 可选。", []string{"STRICT_DOC_REQUIRED_AS_OPTIONAL"}},
	} {
		ds := checkDoc(ContextFile, referenceDoc(t, ContextFile)+tt.line+"\n", f)
		if diff := cmp.Diff(tt.want, ruleIDs(ds)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.line, diff)
		}
	}

	// Whichever Tool comes first: with submit's optional attachmentGrants
	// listed before validate's conditional one, a claim right for validate
	// is still not judged against submit alone.
	rank := func(t *toolFacts) int {
		if t.name == "submit_sample_request" {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(f.tools, func(a, b *toolFacts) int { return rank(a) - rank(b) })
	line := "`attachmentGrants` 在所选类型要求附件时必填。"
	if ds := checkDoc(ContextFile, referenceDoc(t, ContextFile)+line+"\n", f); len(ds) > 0 {
		t.Errorf("%q: %v", line, ds)
	}
}

// Lines in a Tool's section are about that Tool.
func TestRestatementsSectionContext(t *testing.T) {
	f := referenceFacts(t)
	text := apply(t, referenceDoc(t, SkillFile), []edit{{
		"- 入参 `attachmentGrants`：可选；校验时带了上传结果的，提交时传入同一组结果。",
		"- 入参 `attachmentGrants`：可选，但校验时带了上传结果的，提交时 `attachmentGrants` 必填。",
	}})
	if diff := cmp.Diff([]string{"STRICT_DOC_OPTIONAL_AS_REQUIRED"}, ruleIDs(checkDoc(SkillFile, text, f))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// An input whose requiredness at the target API is unproven needs a
// paragraph that recommends its normal provider, says what happens when it
// is omitted and leaves that to the backend, without mandatory wording.
func TestUnprovenTargetRequiredness(t *testing.T) {
	f := referenceFacts(t, contracttest.Set("/capabilities/4/inputs/3/targetRequiredness",
		`{"status": "unproven", "normalProvider": {"capabilityId": "upload-sample-attachment", "outputPath": ["uploadedAttachmentGrant"], "mappingKind": "append-to-array"}, "evidenceRefs": ["ev-client-submit-request"]}`))
	good := "正常流程中建议先调用 `upload_sample_attachment` 取得上传结果再传入 `submit_sample_request` 的 `attachmentGrants`；" +
		"未提供时是否接受由后端判断，目标接口可能拒绝，也可能接受缺省。"
	tests := []struct {
		name      string
		paragraph string
		want      []string
	}{
		{"explained", good, nil},
		{"no paragraph", "", []string{"STRICT_SKILL_UNPROVEN_TARGET"}},
		{"mandatory", strings.Replace(good, "建议先调用", "必须先调用", 1), []string{"STRICT_SKILL_UNPROVEN_TARGET"}},
		{"backend not deciding", strings.Replace(good, "由后端判断", "无所谓", 1), []string{"STRICT_SKILL_UNPROVEN_TARGET"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := referenceDoc(t, SkillFile) + "\n" + tt.paragraph + "\n"
			if diff := cmp.Diff(tt.want, ruleIDs(checkDoc(SkillFile, text, f))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// A Tool whose error contract has no retryability path is documented as
// not retryable by default.
func TestRetryDefault(t *testing.T) {
	f := referenceFacts(t, contracttest.Remove("/capabilities/3/errorContract/retryabilityPath"))
	text := apply(t, referenceDoc(t, zhMCPDoc), []edit{{"`details`、`retryable` 说明原因；后端拒绝时", "`details` 说明原因；后端拒绝时"}})
	if diff := cmp.Diff([]string{"STRICT_MCPDOC_RETRY_DEFAULT"}, ruleIDs(checkDoc(zhMCPDoc, text, f))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	text = apply(t, text, []edit{{"`details` 说明原因；后端拒绝时", "`details` 说明原因，默认不可重试；后端拒绝时"}})
	if ds := checkDoc(zhMCPDoc, text, f); len(ds) > 0 {
		t.Errorf("unexpected findings: %v", ds)
	}
}

// A package without writes says it is read-only and writes nothing; one
// with writes has a side-effect section.
func TestReadOnlyPackageContext(t *testing.T) {
	f := referenceFacts(t)
	for _, tool := range f.tools {
		tool.read = true
	}
	f.hasWrite = false
	text := referenceDoc(t, ContextFile)
	if diff := cmp.Diff([]string{"STRICT_CONTEXT_READ_ONLY"}, ruleIDs(checkDoc(ContextFile, text, f))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	text += "本包只读：它不会创建、修改或删除任何数据。\n"
	if ds := checkDoc(ContextFile, text, f); len(ds) > 0 {
		t.Errorf("unexpected findings: %v", ds)
	}
}

// Lengths count code points, and Chinese characters are U+3400–U+9FFF.
func TestTooShort(t *testing.T) {
	if got := chinese.units("样例 sample 申请㐀龥ꀀ"); got != 6 {
		t.Errorf("units = %d, want 6", got)
	}
	d := parseDocument("x.md", []byte(strings.Repeat("申", 99)))
	if ds := tooShort(d, chinese, 99, 99); len(ds) > 0 {
		t.Errorf("99 code points: %v", ds)
	}
	if ds := tooShort(d, chinese, 100, 10); !slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Rule == RuleDocTooShort.ID }) {
		t.Errorf("99 code points against a minimum of 100: %v", ds)
	}
	short := referenceDoc(t, zhMCPDoc)[:6000]
	ds := checkDoc(zhMCPDoc, short, referenceFacts(t))
	if !slices.Contains(ruleIDs(ds), RuleDocTooShort.ID) {
		t.Errorf("a truncated MCP.zh-CN.md: %v", ruleIDs(ds))
	}
}

// Each feature-context section is found by any of its keywords, wherever the
// heading names it, and only by them: a heading naming none of a section's
// keywords leaves the section missing.
func TestContextSectionKeywords(t *testing.T) {
	f := referenceFacts(t)
	tests := []struct {
		heading string   // a heading of the reference document
		pass    []string // headings that still name its section
		fail    []string // headings that do not
	}{
		{"## 功能定位与用户目标",
			[]string{"## 业务目的", "## 本功能的目的", "## 用户目标", "## 一、功能定位", "## Purpose and user goals"},
			[]string{"## 概述", "## 功能"}},
		{"## 参与者与权限",
			[]string{"## 角色与权限", "## 参与者", "## 谁能使用：权限", "## Actors"},
			[]string{"## 用户"}},
		{"## 业务概念与字段语义",
			[]string{"## 领域概念", "## 主要业务概念", "## 字段语义", "## 字段含义", "## Field semantics"},
			[]string{"## 字段", "## 概念"}},
		{"## 状态与业务规则",
			[]string{"## 业务规则", "## 申请状态", "## 校验规则与约束", "## Rules"},
			[]string{"## 约束", "## Statements"}},
		{"## 原客户端行为",
			[]string{"## 客户端行为", "## 原始客户端行为", "## Client behaviour", "## Original client behavior"},
			[]string{"## 客户端做了什么", "## 客户端"}},
		{"## 结果与失败",
			[]string{"## 返回结果", "## 失败与恢复", "## 错误处理", "## Results and failures"},
			[]string{"## 返回"}},
		{"## 相关能力与排除范围",
			[]string{"## 相关能力", "## 排除范围", "## 被排除的能力", "## Related capabilities", "## Excluded abilities"},
			[]string{"## 其他"}},
		{"## 未知项与证据",
			[]string{"## 未知项", "## 仍未知的问题", "## Unknowns"},
			[]string{"## 证据", "## Known issues"}},
	}
	ref := referenceDoc(t, ContextFile)
	for _, tt := range tests {
		for _, h := range tt.pass {
			text := apply(t, ref, []edit{{tt.heading + "\n", h + "\n"}})
			if ds := checkDoc(ContextFile, text, f); len(ds) > 0 {
				t.Errorf("%q in place of %q: unexpected findings %v", h, tt.heading, ds)
			}
		}
		for _, h := range tt.fail {
			text := apply(t, ref, []edit{{tt.heading + "\n", h + "\n"}})
			if diff := cmp.Diff([]string{"STRICT_CONTEXT_SECTION"}, ruleIDs(checkDoc(ContextFile, text, f))); diff != "" {
				t.Errorf("%q in place of %q: rules (-want +got):\n%s", h, tt.heading, diff)
			}
		}
	}
}

// A Tool whose backend may answer without a body, and a Tool whose
// confirmation the deployer requires: the MCP document's section of each
// must say so. The reference's save_sample_draft, given both, fails until
// its section shows the success with null data at 204 and names the
// deployer's requirement.
func TestMCPDocEmptyBodyAndDeployer(t *testing.T) {
	const cp = "/capabilities/3"
	f := referenceFacts(t,
		contracttest.Set(cp+"/implementation/steps/0/successStatusCodes", `[200, 204]`),
		contracttest.Set(cp+"/successRule/outputRequired", `false`),
		contracttest.Set(cp+"/successRule/emptyBodyStatusCodes", `[204]`),
		contracttest.Set(cp+"/operationPolicy/confirmation", `"trusted-confirmation-required"`),
		contracttest.Set(cp+"/deployerPolicy", `{"confirmation": "trusted-confirmation-required", "statement": "The deployer requires every saved draft confirmed."}`))
	doc := referenceDoc(t, zhMCPDoc)
	if got := ruleIDs(checkDoc(zhMCPDoc, doc, f)); !slices.Equal(got, []string{RuleMCPDocDeployer.ID, RuleMCPDocEmptyBody.ID}) {
		t.Errorf("the unchanged section: %v, want %s and %s", got, RuleMCPDocDeployer.ID, RuleMCPDocEmptyBody.ID)
	}
	// A null data alone does not name the status.
	partial := apply(t, doc, []edit{{"交接：保存成功后把 `draftId` 告诉用户即可结束，不交给其他 Tool。",
		"交接：保存成功后把 `draftId` 告诉用户即可结束，不交给其他 Tool。没有响应体时结果是 `{\"data\": null}`。"}})
	if got := ruleIDs(checkDoc(zhMCPDoc, partial, f)); !slices.Contains(got, RuleMCPDocEmptyBody.ID) {
		t.Errorf("a section without the status: %v", got)
	}
	fixed := apply(t, doc, []edit{{"交接：保存成功后把 `draftId` 告诉用户即可结束，不交给其他 Tool。",
		"交接：保存成功后把 `draftId` 告诉用户即可结束，不交给其他 Tool。后端也可能以 204 应答且没有响应体，这时结果是 `{\"status\": 204, \"data\": null}`，同样是成功。保存之前由部署方要求的确认把关，源码本身不询问。"}})
	if got := checkDoc(zhMCPDoc, fixed, f); len(got) > 0 {
		t.Errorf("the section that says both: %v", got)
	}
}

// zhMCPDoc is the MCP document of the Chinese reference package.
var zhMCPDoc = MCPDocFile(contract.LanguageChinese)
