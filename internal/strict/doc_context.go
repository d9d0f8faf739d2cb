package strict

import (
	"regexp"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// ContextFile is the business background of the package's Tools.
const ContextFile = "references/feature-context.md"

// Sizes of the feature context.
const (
	contextMinLength        = 800
	contextMinCJK           = 250
	contextSectionMinLength = 30
	contextSideEffectMinCJK = 60
)

// contextSections are the eight H2 sections of a feature context, found by
// the words their headings start with, so that a heading may go on
// ("功能定位与用户目标").
var contextSections = []topic{
	newTopic("功能定位", `功能定位`),
	newTopic("参与者与权限", `参与者与权限`),
	newTopic("业务概念与字段语义 / 领域概念", `业务概念与字段语义|领域概念`),
	newTopic("状态与业务规则", `状态与业务规则`),
	newTopic("原客户端行为", `原客户端行为`),
	newTopic("结果与失败", `结果与失败`),
	newTopic("相关能力", `相关能力`),
	newTopic("未知项", `未知项`),
}

var (
	sideEffectHeading = regexp.MustCompile(`副作用|确认与写入|(?i:side effects)`)
	// A statement that the package writes nothing.
	noWrite = regexp.MustCompile(`(?:不|不得|禁止|不会).{0,40}(?:创建|修改|更新|删除|写入)`)
)

// checkContext checks references/feature-context.md.
func checkContext(d *document, f *facts) []diag.Diagnostic {
	out := checkAgentDoc(d, f)
	out = append(out, tooShort(d, contextMinLength, contextMinCJK)...)
	if d.FindHeading(1, func(string) bool { return true }) < 0 {
		out = append(out, RuleContextTitle.New(d.file, "has no H1 title naming the feature"))
	}
	for _, s := range contextSections {
		i := d.FindHeading(2, s.in)
		if i < 0 {
			out = append(out, RuleContextSection.New(d.file, "has no \"## %s…\" section", s.name))
			continue
		}
		b := d.Section(i)
		if n := length(strings.TrimSpace(d.Body(b))); n < contextSectionMinLength {
			out = append(out, RuleContextSection.New(d.file,
				"the section \"%s\" holds %s; write at least %d", d.Headings[i].Title, plural(n, "character"), contextSectionMinLength).At(lineOf(b.Start), 0))
		}
	}
	for _, t := range f.tools {
		if !strings.Contains(d.Text, code(t.name)) {
			out = append(out, RuleContextTool.New(d.file, "never names the Tool %s in backticks", code(t.name)))
		}
	}
	for _, id := range f.evidence {
		if !strings.Contains(d.Text, code(id)) {
			out = append(out, RuleContextEvidence.New(d.file,
				"does not cite %s, primary evidence of how the feature exposes a capability", code(id)))
		}
	}
	if !f.hasWrite {
		if !strings.Contains(d.Text, "只读") || !noWrite.MatchString(d.Text) {
			out = append(out, RuleContextReadOnly.New(d.file,
				"every Tool is a read: say the package is read-only (只读) and that it creates, changes or deletes nothing"))
		}
		return out
	}
	i := d.FindHeading(2, sideEffectHeading.MatchString)
	if i < 0 {
		out = append(out, RuleContextSideEffects.New(d.file, "the package writes, but no \"## 副作用…\" or \"## 确认与写入…\" section says what and how"))
	} else if n := countCJK(d.TextOf(d.Section(i))); n < contextSideEffectMinCJK {
		out = append(out, RuleContextSideEffects.New(d.file,
			"the side-effect section holds %s; write at least %d", plural(n, "Chinese character"), contextSideEffectMinCJK).At(lineOf(d.Headings[i].Line), 0))
	}
	return out
}
