package strict

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/skillmd"
)

// SkillFile is the package's Skill, at the package root.
const SkillFile = "SKILL.md"

// Sizes of SKILL.md: long enough to guide an agent through every Tool,
// mostly in Chinese.
const (
	skillMinLength   = 4000
	skillMinCJK      = 1500
	skillToolMinCJK  = 70
	skillMinExamples = 3
)

// skillHeadings are the H2 headings of a strict Skill, matched exactly: an
// agent, a reviewer or a tool finds the same part of every package under
// the same words.
var skillHeadings = []string{
	"定位与适用范围", "能力目录", "输入与来源", "状态与交接", "意图路由", "推荐组合",
	"自由组合边界", "输出组织", "失败分类与恢复", "安全与副作用", "完整调用示例", "Agent 自检清单",
}

// The five topics of a Tool's section in SKILL.md.
var skillToolSection = toolSectionRule{level: 3, minCJK: skillToolMinCJK, topics: skillToolTopics, missing: RuleSkillToolSection, lacking: RuleSkillToolCoverage}

var skillToolTopics = []topic{
	newTopic("when to use it (适用/调用时机/当用户/用于)", `适用|调用时机|当用户|用于`),
	newTopic("its input (输入/入参/无入参/空对象)", `输入|入参|无入参|空对象`),
	newTopic("its output (输出/返回)", `输出|返回`),
	newTopic("what follows (交接/下游/传给/直接回答/独立结束/结束任务)", `交接|下游|传给|直接回答|独立结束|结束任务`),
	newTopic("when not to use it (跳过/不要/不得/无需/停止/不适用)", `跳过|不要|不得|无需|停止|不适用`),
}

var (
	dryRunWords       = regexp.MustCompile(`(?i)dry-run|试运行`)
	requirednessWords = regexp.MustCompile(`必填|必须|可选|条件|需要时|仅当`)
)

// checkSkill checks SKILL.md: the Agent Skills format, the name, the size,
// the twelve headings and one section per Tool.
func checkSkill(d *document, data []byte, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	s, ds := skillmd.Parse(d.file, data)
	out = append(out, ds...)
	if s != nil {
		out = append(out, s.Check()...)
		if s.Name != "" && s.Name != f.dir {
			out = append(out, RuleSkillName.New(d.file,
				"the Skill is named %q but the package directory is %q: the Skill installs under its name, so the two must agree",
				s.Name, f.dir).At(frontmatterLine(d, "name"), 0))
		}
	}
	out = append(out, checkAgentDoc(d, f)...)
	out = append(out, tooShort(d, skillMinLength, skillMinCJK)...)
	if !strings.Contains(d.Text, "references/feature-context.md") {
		out = append(out, RuleSkillContextLink.New(d.file, "does not point to references/feature-context.md, the business background of the Tools"))
	}
	for _, want := range skillHeadings {
		if d.FindHeading(2, func(t string) bool { return t == want }) < 0 {
			out = append(out, RuleSkillHeading.New(d.file, "has no heading \"## %s\" (the twelve headings of a strict Skill are matched exactly)", want))
		}
	}
	if !dryRunWords.MatchString(d.Text) {
		out = append(out, RuleSkillDryRun.New(d.file,
			"does not explain dry-run (试运行): with %s=1 a Tool validates its input and answers without calling the business API", f.dryRunVariable))
	}
	for _, t := range f.tools {
		out = append(out, checkSkillTool(d, t)...)
	}
	reported := map[string]bool{}
	for _, t := range f.tools {
		for _, in := range t.inputs {
			if !reported[in.name] && !strings.Contains(d.Text, code(in.name)) {
				reported[in.name] = true
				out = append(out, RuleSkillInput.New(d.file, "never names the input %s of %s in backticks", code(in.name), code(t.name)))
			}
		}
	}
	examples := 0
	for _, h := range d.Headings {
		if h.Level == 3 && strings.HasPrefix(h.Title, "示例") {
			examples++
		}
	}
	if examples < skillMinExamples {
		out = append(out, RuleSkillExamples.New(d.file, "has %d \"### 示例…\" section(s); a strict Skill shows at least %d worked examples", examples, skillMinExamples))
	}
	for _, t := range f.tools {
		for _, in := range t.inputs {
			if in.provider != "" {
				out = append(out, checkUnproven(d, t, in)...)
			}
		}
	}
	return out
}

// checkSkillTool checks the H3 section of one Tool.
func checkSkillTool(d *document, t *toolFacts) []diag.Diagnostic {
	b, text, at, found, out := skillToolSection.toolSection(d, t)
	if !found {
		return out
	}
	if t.read && !strings.Contains(text, "只读") {
		out = append(out, RuleSkillToolReadOnly.New(d.file, "the section of the read Tool %s does not say it is read-only (只读)", code(t.name)).At(at, 0))
	}
	for _, o := range t.outputs {
		if !strings.Contains(text, code(o)) {
			out = append(out, RuleSkillToolOutput.New(d.file, "the section of %s does not name the required output %s", code(t.name), code(o)).At(at, 0))
		}
	}
	for _, in := range t.inputs {
		if !hasRequirednessLine(d, b, in.name) {
			out = append(out, RuleSkillToolInput.New(d.file,
				"the section of %s has no line naming the input %s together with its requiredness (必填/必须/可选/条件/需要时/仅当)",
				code(t.name), code(in.name)).At(at, 0))
		}
	}
	return out
}

// hasRequirednessLine reports whether a line of the block names the input
// in backticks and says whether it is required.
func hasRequirednessLine(d *document, b block, name string) bool {
	for _, line := range d.Lines[b.Start:b.End] {
		if strings.Contains(line, code(name)) && requirednessWords.MatchString(line) {
			return true
		}
	}
	return false
}

// What a paragraph about an input of unproven target requiredness must say:
// the normal provider is recommended, not mandatory; the input may be
// omitted; and whether the target API accepts the omission is the
// backend's decision.
var (
	unprovenParts = []topic{
		newTopic("a recommendation (建议/正常流程/通常/优先)", `建议|正常流程|通常|优先`),
		newTopic("what happens when it is omitted (缺省/缺失/省略/未提供/不提供/不传/缺少)", `缺省|缺失|省略|未提供|不提供|不传|缺少`),
		newTopic("是否", `是否`),
		newTopic("acceptance or rejection (接受/拒绝)", `接受|拒绝`),
		newTopic("that the backend decides (目标API/目标接口/后端/服务端 near 决定/判断/校验)",
			`(?:目标API|目标接口|后端|服务端).{0,40}(?:决定|判断|校验)|(?:决定|判断|校验).{0,40}(?:目标API|目标接口|后端|服务端)`),
	}
	mandatoryWords = regexp.MustCompile(`(?:必须|务必|需要|应当|须|只能)\s*先?\s*调用|只有.*才|硬前置|不可跳过|前置条件|(?i:must\s+call|required\s+precondition)`)
)

// checkUnproven checks that some paragraph explains an input whose
// requiredness at the target API is unproven: it names the input and its
// normal provider, recommends the provider without making it a hard
// precondition, and leaves the decision about an omitted value to the
// backend.
func checkUnproven(d *document, t *toolFacts, in inputFacts) []diag.Diagnostic {
	first := -1
	var gaps []string
	for _, p := range d.Paragraphs() {
		text := d.TextOf(p)
		line := []rune(text)
		if len(mentions(line, in.name)) == 0 || len(mentions(line, in.provider)) == 0 {
			continue
		}
		g := missing(text, unprovenParts)
		if m := mandatoryWords.FindString(text); m != "" {
			g = append(g, "no mandatory wording (found "+strings.TrimSpace(m)+")")
		}
		if len(g) == 0 {
			return nil
		}
		if first < 0 {
			first, gaps = p.Start, g
		}
	}
	if first < 0 {
		return []diag.Diagnostic{RuleSkillUnproven.New(d.file,
			"no paragraph explains the input %s of %s together with its normal provider %s: its requiredness at the target API is unproven",
			code(in.name), code(t.name), code(in.provider))}
	}
	return []diag.Diagnostic{RuleSkillUnproven.New(d.file,
		"the paragraph about %s and its normal provider %s lacks %s",
		code(in.name), code(in.provider), strings.Join(gaps, "; ")).At(lineOf(first), 0)}
}

// tooShort reports a document below its minimum length or Chinese
// character count.
func tooShort(d *document, minLength, minCJK int) []diag.Diagnostic {
	n, c := length(d.Text), countCJK(d.Text)
	if n >= minLength && c >= minCJK {
		return nil
	}
	return []diag.Diagnostic{RuleDocTooShort.New(d.file,
		"has %s and %s; it needs at least %d characters and %d Chinese characters",
		plural(n, "character"), plural(c, "Chinese character"), minLength, minCJK)}
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// frontmatterLine returns the 1-based line of a top-level frontmatter key,
// or 0 when it cannot be found.
func frontmatterLine(d *document, key string) int {
	for i, line := range d.Lines {
		if i > 0 && strings.TrimSpace(line) == "---" {
			break
		}
		if strings.HasPrefix(line, key+":") {
			return lineOf(i)
		}
	}
	return 0
}
