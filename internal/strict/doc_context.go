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

// contextSections are the eight H2 sections of a feature context. A
// section is found by any of its keywords wherever its heading names one
// ("一、功能定位", "业务目的", "相关能力与排除范围"): the eight topics'
// established titles and the words the spec uses for the topics they cover
// (feature purpose and user goals, actors, field semantics, rules, original
// client behaviour, results and failures, excluded abilities, unknowns).
var contextSections = []contextSection{
	{newTopic("功能定位", `功能定位|目的|用户目标|(?i:\bpurpose\b|\buser goals?\b)`),
		"功能定位, 目的, 用户目标, purpose or user goals"},
	{newTopic("参与者与权限", `参与者|角色|权限|(?i:\bactors?\b|\bpermissions?\b)`),
		"参与者, 角色, 权限, actors or permissions"},
	{newTopic("业务概念与字段语义 / 领域概念", `业务概念|领域概念|字段语义|字段含义|(?i:\bfield semantics\b|\bdomain concepts?\b)`),
		"业务概念, 领域概念, 字段语义, 字段含义, field semantics or domain concepts"},
	{newTopic("状态与业务规则", `状态|规则|(?i:\brules?\b|\bstates?\b)`),
		"状态, 规则, rules or states"},
	{newTopic("原客户端行为", `客户端行为|(?i:\bclient behaviou?r\b)`),
		"客户端行为 or client behaviour"},
	{newTopic("结果与失败", `结果|失败|错误|(?i:\bresults?\b|\bfailures?\b|\berrors?\b)`),
		"结果, 失败, 错误, results, failures or errors"},
	{newTopic("相关能力", `相关能力|排除|(?i:\brelated capabilit(?:y|ies)\b|\bexcluded\b)`),
		"相关能力, 排除, related capabilities or excluded"},
	{newTopic("未知项", `未知|(?i:\bunknowns?\b)`),
		"未知 or unknowns"},
}

// contextSection is a section of the feature context: its topic, and its
// keywords as a finding lists them.
type contextSection struct {
	topic
	keywords string
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
	out = append(out, contextClaims(d, f)...)
	if d.FindHeading(1, func(string) bool { return true }) < 0 {
		out = append(out, RuleContextTitle.New(d.file, "has no H1 title naming the feature"))
	}
	for _, s := range contextSections {
		i := d.FindHeading(2, s.in)
		if i < 0 {
			out = append(out, RuleContextSection.New(d.file,
				"has no \"## %s…\" section: no H2 heading names %s", s.name, s.keywords))
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
