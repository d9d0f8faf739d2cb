package strictjs

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// titleVerbs are the actions a Tool title's action half names one of.
var titleVerbs = []string{"列出", "查询", "查看", "读取", "获取", "搜索", "检索", "创建", "新增", "添加", "发表", "发布", "提交", "上传", "保存", "校验", "验证", "确认", "计算", "生成", "更新", "修改", "删除", "移除", "撤销", "取消", "组合"}

// descriptionTopics are what a Tool description must cover, each by one of
// its words: purpose, when to call, input, output, handoff, execution and
// side effect.
var descriptionTopics = []struct {
	name string
	re   *regexp.Regexp
}{
	{"purpose (用于/面向)", regexp.MustCompile(`用于|面向`)},
	{"when to call (调用/需要/仅当/…)", regexp.MustCompile(`调用|检索前|需要|查看|构造|仅当|仅在`)},
	{"input (输入/入参/无入参)", regexp.MustCompile(`无入参|输入|入参`)},
	{"output (返回/输出)", regexp.MustCompile(`返回|输出`)},
	{"handoff (交给/传给/作为/可用于/…)", regexp.MustCompile(`交给|传给|写入|作为|可用于|来自`)},
	{"execution (HTTP/GET/POST/本地)", regexp.MustCompile(`HTTP|GET|POST|本地`)},
	{"side effect (副作用/只读/写入/…)", regexp.MustCompile(`副作用|只读|写入|创建|非幂等`)},
}

// cjk counts the characters in U+3400–U+9FFF.
func cjk(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x3400 && r <= 0x9FFF {
			n++
		}
	}
	return n
}

// titleProblem says why a title is not shaped 领域：动作对象, or "".
func titleProblem(title string) string {
	parts := strings.FieldsFunc(title, func(r rune) bool { return r == '：' || r == ':' })
	if len(parts) != 2 || strings.Count(title, "：")+strings.Count(title, ":") != 1 {
		return "must be 领域：动作对象, a domain and an action split by one colon"
	}
	domain, action := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	if cjk(domain) < 2 {
		return "needs a domain of at least 2 Chinese characters before the colon"
	}
	if cjk(action) < 4 {
		return "needs an action of at least 4 Chinese characters after the colon"
	}
	for _, v := range titleVerbs {
		if strings.Contains(action, v) {
			return ""
		}
	}
	return "needs an action naming one of " + strings.Join(titleVerbs, "/")
}

// descriptionProblem says why a description is too short or misses a topic,
// or "".
func descriptionProblem(d string) string {
	if n := utf8.RuneCountInString(d); n < 110 {
		return fmt.Sprintf("has %d characters; at least 110", n)
	}
	if n := cjk(d); n < 60 {
		return fmt.Sprintf("has %d Chinese characters; at least 60", n)
	}
	var missing []string
	for _, t := range descriptionTopics {
		if !t.re.MatchString(d) {
			missing = append(missing, t.name)
		}
	}
	if len(missing) > 0 {
		return "does not cover " + strings.Join(missing, ", ")
	}
	return ""
}
