package strict

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
)

// boundedReference patches the reference contract with the bounds and
// values the stale-statement fixtures restate: requestData.note is at most
// 1024 characters, requestData.subject 1 to 80.
var boundedReference = []contracttest.Op{
	contracttest.Set("/capabilities/3/inputs/0/schema/properties/note/maxLength", "1024"),
	contracttest.Set("/capabilities/3/inputs/0/schema/properties/subject/minLength", "1"),
	contracttest.Set("/capabilities/3/inputs/0/schema/properties/subject/maxLength", "80"),
}

// packageReferenceFacts are the facts the validator projects from the
// reference package (patched by ops): with the derived schemas and the
// error codes of the contract and runtime.
func packageReferenceFacts(t *testing.T, ops ...contracttest.Op) *facts {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sample-request")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		data := contracttest.Reference(t, name)
		if name == contract.ContractFile && len(ops) > 0 {
			data = contracttest.Patch(t, data, ops...)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	core, err := derive.Load(dir)
	if l := core.Read(); err != nil || l.HasErrors() {
		t.Fatalf("reference inputs: %v %v", err, l.Sorted())
	}
	read := func(file string) ([]byte, bool) {
		data, err := os.ReadFile(filepath.Join(dir, file))
		return data, err == nil
	}
	f := packageFacts("sample-request", core.Inputs, core.Views(), read)
	f.marker = referenceMarker // the documents carry the unpatched reference's marker
	return f
}

// Each stale statement is reported at its line by its rule, in whichever of
// the four documents it is written; the same statement made true passes.
func TestStaleStatements(t *testing.T) {
	tests := []struct {
		name       string
		stale, ok  string
		want       string
		everywhere bool // the rule is the same in all four documents
	}{
		{name: "maximum length", want: "STRICT_DOC_STALE_BOUND",
			stale: "`save_sample_draft` 的 `note` 最多 2048 个字符。",
			ok:    "`save_sample_draft` 的 `note` 最多 1024 个字符。"},
		{name: "length range", want: "STRICT_DOC_STALE_BOUND",
			stale: "`save_sample_draft` 的 `subject` 是 1 到 120 个字符的字符串。",
			ok:    "`save_sample_draft` 的 `subject` 是 1 到 80 个字符的字符串。"},
		{name: "keyword bound", want: "STRICT_DOC_STALE_BOUND",
			stale: "`save_sample_draft` 的 `note` 的 `maxLength` 为 2048。",
			ok:    "`save_sample_draft` 的 `note` 的 `maxLength` 为 1024。"},
		{name: "undeclared bound", want: "STRICT_DOC_STALE_BOUND",
			stale: "`save_sample_draft` 的 `note` 至少 3 个字符。",
			ok:    "`save_sample_draft` 的 `note` 可以为空字符串。"},
		{name: "enum value unknown", want: "STRICT_DOC_STALE_ENUM",
			stale: "`list_sample_request_kinds` 的 `detailLevel` 只接受 `compact` 和 `verbose`。",
			ok:    "`list_sample_request_kinds` 的 `detailLevel` 只接受 `compact` 和 `full`。"},
		{name: "enum value left out", want: "STRICT_DOC_STALE_ENUM",
			stale: "`list_sample_request_kinds` 的 `detailLevel` 只能是 `compact`。",
			ok:    "`list_sample_request_kinds` 的 `detailLevel` 的取值例如 `compact`。"},
		{name: "unknown error code", want: "STRICT_DOC_UNKNOWN_ERROR_CODE",
			stale: "宿主没有注入 `dispatch` 时返回 `DISPATCH_CONTEXT_REQUIRED`。",
			ok:    "入参不合规时返回 `INVALID_INPUT`，结果未知时返回 `UNKNOWN_DISPATCH_OUTCOME`。"},
		{name: "unknown error code of one word", want: "STRICT_DOC_UNKNOWN_ERROR_CODE",
			stale: "样品服务拒绝时的错误码包括 `UNAUTHORISED`，请求用 `POST` 发送。",
			ok:    "样品服务拒绝时的错误码是 `UPSTREAM_STEP_REJECTED`，请求用 `POST` 发送。"},
		{name: "unknown error code of one word in an example", want: "STRICT_DOC_UNKNOWN_ERROR_CODE",
			stale: "```json\n{\"content\": [{\"type\": \"text\", \"text\": \"{\\\"code\\\":\\\"LOCKED\\\",\\\"message\\\":\\\"locked\\\"}\"}], \"isError\": true}\n```",
			ok:    "```json\n{\"content\": [{\"type\": \"text\", \"text\": \"{\\\"code\\\":\\\"UPSTREAM_STEP_REJECTED\\\",\\\"message\\\":\\\"locked\\\"}\"}], \"isError\": true}\n```"},
		{name: "unknown error code in an example", want: "STRICT_DOC_UNKNOWN_ERROR_CODE",
			stale: "```json\n{\"content\": [{\"type\": \"text\", \"text\": \"{\\\"code\\\":\\\"DRAFT_LOCKED\\\",\\\"message\\\":\\\"locked\\\"}\"}], \"isError\": true}\n```",
			ok:    "```json\n{\"content\": [{\"type\": \"text\", \"text\": \"{\\\"code\\\":\\\"UPSTREAM_STEP_REJECTED\\\",\\\"message\\\":\\\"rejected\\\"}\"}], \"isError\": true}\n```"},
		{name: "server setting next to an error", want: "STRICT_DOC_UNKNOWN_ERROR_CODE",
			stale: "服务端拒绝时返回 `SECRET_KEY_MISSING`。",
			ok:    "服务端未配置 `SECRET_KEY` 时登录失败；环境变量 `DATABASE_URL` 缺失时返回错误。"},
		{name: "unknown Tool", want: "STRICT_DOC_UNKNOWN_TOOL",
			stale: "先调用 `list_sample_kinds` 取得类型目录。",
			ok:    "先调用 `list_sample_request_kinds` 取得类型目录。"},
		{name: "unknown Tool in a call example", want: "STRICT_DOC_UNKNOWN_TOOL",
			stale: "```json\n{\"name\": \"save_sample\", \"arguments\": {}}\n```",
			ok:    "```json\n{\"name\": \"save_sample_draft\", \"arguments\": {}}\n```"},
		{name: "placeholder", want: "STRICT_DOC_PLACEHOLDER",
			stale: "把包复制到 <install-dir> 下。",
			ok:    "把包复制到部署目录下。"},
	}
	f := packageReferenceFacts(t, boundedReference...)
	for _, tt := range tests {
		for _, file := range documentFiles {
			t.Run(tt.name+"/"+file, func(t *testing.T) {
				base := referenceDoc(t, file)
				ds := checkDoc(file, base+tt.stale+"\n", f)
				if diff := cmp.Diff([]string{tt.want}, ruleIDs(ds)); diff != "" {
					t.Errorf("stale (-want +got):\n%s", diff)
					for _, d := range ds {
						t.Log(d)
					}
				}
				for _, d := range ds {
					if d.Line == 0 {
						t.Errorf("%s has no line", d)
					}
				}
				for _, d := range checkDoc(file, base+tt.ok+"\n", f) {
					t.Errorf("passing fixture: %s", d)
				}
			})
		}
	}
}

// The four reference documents agree with the patched contract and its
// runtime: no stale statement is found in them.
func TestReferenceDocumentsHaveNoStaleStatement(t *testing.T) {
	f := packageReferenceFacts(t, boundedReference...)
	for _, file := range documentFiles {
		for _, d := range checkDoc(file, referenceDoc(t, file), f) {
			t.Errorf("unexpected finding: %s", d)
		}
	}
}

// A bound in one Tool's section is judged against that Tool, even when the
// line names another Tool after the field; a Tool named before the field
// is its subject. The finding names the Tool it judged.
func TestStaleBoundJudgesTheSectionTool(t *testing.T) {
	f := packageReferenceFacts(t, append(boundedReference,
		contracttest.Set("/capabilities/4/inputs/0/schema/properties/note/maxLength", "2048"))...)
	const section = "\n## `save_sample_draft`\n\n"
	tests := []struct {
		name, line string
		want       string // the Tool the finding names; "" for none
	}{
		{"section Tool, another named after", "`note` 最多 1024 个字符，`submit_sample_request` 的上限不同。", ""},
		{"stale for the section Tool", "`note` 最多 2048 个字符，`submit_sample_request` 的上限不同。", "`note` of `save_sample_draft`"},
		{"another Tool named before the field", "`submit_sample_request` 的 `note` 最多 2048 个字符。", ""},
		{"stale for the Tool named before", "`submit_sample_request` 的 `note` 最多 1024 个字符。", "`note` of `submit_sample_request`"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds := checkDoc(zhMCPDoc, referenceDoc(t, zhMCPDoc)+section+tt.line+"\n", f)
			var got []string
			for _, d := range ds {
				if d.Rule != RuleDocStaleBound.ID {
					t.Errorf("other finding: %s", d)
					continue
				}
				got = append(got, d.Message)
			}
			switch {
			case tt.want == "" && len(got) > 0:
				t.Errorf("false finding: %q", got)
			case tt.want != "" && (len(got) != 1 || !strings.Contains(got[0], tt.want)):
				t.Errorf("want one finding naming %s, got %q", tt.want, got)
			}
		})
	}
}
