package strict

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/diag"
)

// The feature context does not assume a page or route unless the feature
// surface is a route, and mentions the user's confirmation and the
// workflow Guard only for the Tools whose policy and declared hard
// workflow require them. Each statement is checked both ways, appended to
// the reference feature context (whose backend-api surface has no page;
// upload_sample_attachment and submit_sample_request need confirmation and
// are guarded, save_sample_draft neither).
func TestContextClaims(t *testing.T) {
	noConfirmation := func(f *facts) {
		for _, t := range f.tools {
			t.confirmation = false
		}
	}
	tests := []struct {
		name  string
		facts func(f *facts) // changes the reference facts
		bare  bool           // the line alone, not appended to the reference feature context
		line  string
		want  []string // rule IDs; none for a passing fixture
	}{
		{name: "a page of a backend feature", line: "用户在申请页面上填写内容并提交。", want: []string{RuleContextPage.ID}},
		{name: "a client route of a backend feature", line: "The client opens the front-end route before it calls the API.", want: []string{RuleContextPage.ID}},
		{name: "a page denied", line: "本包只覆盖接口，不假设存在任何页面或前端路由。"},
		{name: "pagination and backend routes", line: "列表按每页 20 条分页返回，`page` 从 1 开始；后端接口路由见契约。"},
		{name: "the page of a route surface", facts: func(f *facts) { f.routeSurface = true }, line: "用户在申请页面上填写内容并提交。"},

		{name: "confirmation of a Tool that needs none", line: "`save_sample_draft` 保存前需要用户确认。", want: []string{RuleContextConfirmation.ID}},
		{name: "confirmation of a Tool that needs it", line: "`submit_sample_request` 需要宿主签发的可信确认。"},
		{name: "no confirmation said of a Tool that needs none", line: "`save_sample_draft` 保存草稿无需用户确认。"},
		{name: "confirmation where no Tool needs it",
			facts: noConfirmation,
			bare:  true, line: "写入前需要用户确认。", want: []string{RuleContextConfirmation.ID}},
		{name: "no confirmation where no Tool needs it",
			facts: noConfirmation,
			bare:  true, line: "写入由后端自行核对，不需要宿主签发可信确认。"},

		{name: "the Guard of an unguarded Tool", line: "`save_sample_draft` 由工作流守卫保护。", want: []string{RuleContextConfirmation.ID}},
		{name: "the Guard of a guarded Tool", line: "`submit_sample_request` 由工作流守卫保护。"},
		{name: "the Guard in a sentence naming no Tool, after an unguarded one", line: "`submit_sample_request` 与 `save_sample_draft` 会写入。前者由工作流守卫保护。"},
		{name: "the Guard in an English sentence naming no Tool", line: "`submit_sample_request` and `save_sample_draft` write. The first is protected by a workflow guard."},
		{name: "the Guard in the sentence of an unguarded Tool", line: "`submit_sample_request` writes. `save_sample_draft` is protected by a workflow guard.", want: []string{RuleContextConfirmation.ID}},
		{name: "no Guard said of an unguarded Tool", line: "`save_sample_draft` 不经过工作流守卫，由后端自行核对。"},
		{name: "the Guard where no Tool is guarded",
			facts: func(f *facts) {
				for _, t := range f.tools {
					t.guarded = false
				}
			},
			bare: true, line: "The workflow guard checks every write before it is sent.", want: []string{RuleContextConfirmation.ID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := referenceFacts(t)
			if tt.facts != nil {
				tt.facts(f)
			}
			base := referenceDoc(t, ContextFile)
			if tt.bare {
				base = "# 背景\n"
			}
			var ds []diag.Diagnostic
			for _, d := range checkDoc(ContextFile, base+"\n"+tt.line+"\n", f) {
				if d.Rule == RuleContextPage.ID || d.Rule == RuleContextConfirmation.ID || !tt.bare {
					ds = append(ds, d)
				}
			}
			if diff := cmp.Diff(tt.want, ruleIDs(ds)); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
				for _, d := range ds {
					t.Log(d)
				}
			}
		})
	}
}
