package strictjs

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/contract"
)

// proseRules are what a Tool's title and description are judged by in one
// documentation language: the title's shape (a domain and an action split
// by one colon, each with a least size counted in the language's text
// units, the action naming one of the verbs), and the description's size
// and seven topics (purpose, when to call, input, output, handoff,
// execution, side effect), each recognised by one of its words.
type proseRules struct {
	language                 string
	titleShape               string
	domainUnits, actionUnits int
	verbs                    []string
	descriptionMin           int
	descriptionUnits         int
	topics                   []proseTopic
}

type proseTopic struct {
	name string
	re   *regexp.Regexp
}

var chineseProse = &proseRules{
	language:    contract.LanguageChinese,
	titleShape:  "领域：动作对象",
	domainUnits: 2, actionUnits: 4,
	verbs:            []string{"列出", "查询", "查看", "读取", "获取", "搜索", "检索", "创建", "新增", "添加", "发表", "发布", "提交", "上传", "保存", "校验", "验证", "确认", "计算", "生成", "更新", "修改", "删除", "移除", "撤销", "取消", "组合"},
	descriptionMin:   110,
	descriptionUnits: 60,
	topics: []proseTopic{
		{"purpose (用于/面向)", regexp.MustCompile(`用于|面向`)},
		{"when to call (调用/需要/仅当/…)", regexp.MustCompile(`调用|检索前|需要|查看|构造|仅当|仅在`)},
		{"input (输入/入参/无入参)", regexp.MustCompile(`无入参|输入|入参`)},
		{"output (返回/输出)", regexp.MustCompile(`返回|输出`)},
		{"handoff (交给/传给/作为/可用于/…)", regexp.MustCompile(`交给|传给|写入|作为|可用于|来自`)},
		{"execution (HTTP/GET/POST/本地)", regexp.MustCompile(`HTTP|GET|POST|本地`)},
		{"side effect (副作用/只读/写入/…)", regexp.MustCompile(`副作用|只读|写入|创建|非幂等`)},
	},
}

var englishProse = &proseRules{
	language:    contract.LanguageEnglish,
	titleShape:  "Domain: Action object",
	domainUnits: 1, actionUnits: 2,
	verbs: []string{"List", "Query", "View", "Read", "Get", "Search", "Find", "Create", "Add", "Post", "Publish", "Submit", "Upload", "Save",
		"Validate", "Verify", "Confirm", "Calculate", "Compute", "Generate", "Quote", "Update", "Edit", "Change", "Return", "Delete",
		"Remove", "Revoke", "Cancel", "Combine"},
	descriptionMin:   200,
	descriptionUnits: 30,
	topics: []proseTopic{
		{"purpose (use/for)", regexp.MustCompile(`(?i)\buse\b|\bfor\b`)},
		{"when to call (call/when/only if/…)", regexp.MustCompile(`(?i)\bcall\b|\bwhen\b|\bonly if\b|\bbefore\b|\bneeds?\b`)},
		{"input (input/argument/no input)", regexp.MustCompile(`(?i)\binputs?\b|\barguments?\b|\bno input\b`)},
		{"output (returns/output)", regexp.MustCompile(`(?i)\breturns?\b|\boutputs?\b`)},
		{"handoff (pass/hand/feeds/comes from/…)", regexp.MustCompile(`(?i)\bpass(?:es|ed)?\b|\bhand(?:s|ed)?\b|\bfeeds?\b|\bcomes? from\b|\bfrom\b|\bas the\b`)},
		{"execution (HTTP/GET/POST/DELETE/local)", regexp.MustCompile(`HTTP|GET|POST|PUT|PATCH|DELETE|(?i)\blocal\b`)},
		{"side effect (side effect/read-only/writes/creates/deletes/non-idempotent)", regexp.MustCompile(`(?i)side effect|read-only|\bwrites?\b|\bcreates?\b|\bdeletes?\b|\bremoves?\b|non-idempotent`)},
	},
}

// namesVerb reports whether the action names one of the verbs: a Chinese
// action holds one, an English one starts with one, in any case.
func (p *proseRules) namesVerb(action string) bool {
	if p.language == contract.LanguageEnglish {
		first, _, _ := strings.Cut(action, " ")
		return slices.ContainsFunc(p.verbs, func(v string) bool { return strings.EqualFold(first, v) })
	}
	return slices.ContainsFunc(p.verbs, func(v string) bool { return strings.Contains(action, v) })
}

// proseOf returns the prose rules of a documentation language; Chinese for
// any other.
func proseOf(language string) *proseRules {
	if language == contract.LanguageEnglish {
		return englishProse
	}
	return chineseProse
}

// titleProblem says why a title is not shaped as the language's titles are
// (领域：动作对象, Domain: Action object), or "".
func (p *proseRules) titleProblem(title string) string {
	parts := strings.FieldsFunc(title, func(r rune) bool { return r == '：' || r == ':' })
	if len(parts) != 2 || strings.Count(title, "：")+strings.Count(title, ":") != 1 {
		return "must be " + p.titleShape + ", a domain and an action split by one colon"
	}
	domain, action := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	unit := contract.TextUnit(p.language)
	if contract.TextUnits(p.language, domain) < p.domainUnits {
		return fmt.Sprintf("needs a domain of at least %d %s(s) before the colon", p.domainUnits, unit)
	}
	if contract.TextUnits(p.language, action) < p.actionUnits {
		return fmt.Sprintf("needs an action of at least %d %ss after the colon", p.actionUnits, unit)
	}
	if !p.namesVerb(action) {
		if p.language == contract.LanguageEnglish {
			return "needs an action starting with one of " + strings.Join(p.verbs, "/")
		}
		return "needs an action naming one of " + strings.Join(p.verbs, "/")
	}
	return ""
}

// descriptionProblem says why a description is too short or misses a
// topic, or "".
func (p *proseRules) descriptionProblem(d string) string {
	if n := utf8.RuneCountInString(d); n < p.descriptionMin {
		return fmt.Sprintf("has %d characters; at least %d", n, p.descriptionMin)
	}
	if n := contract.TextUnits(p.language, d); n < p.descriptionUnits {
		return fmt.Sprintf("has %d %ss; at least %d", n, contract.TextUnit(p.language), p.descriptionUnits)
	}
	var missing []string
	for _, t := range p.topics {
		if !t.re.MatchString(d) {
			missing = append(missing, t.name)
		}
	}
	if len(missing) > 0 {
		return "does not cover " + strings.Join(missing, ", ")
	}
	return ""
}
