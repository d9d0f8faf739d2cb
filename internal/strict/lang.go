package strict

import (
	"regexp"

	"github.com/code2skill/code2skill/internal/contract"
)

// docLang is what the document rules read in one documentation language
// (export-profile.json's documentationLanguage): the file name of the MCP
// document, the sizes, counted in code points and in the language's own
// text units (contract.TextUnits: Chinese characters, English words), the
// headings and the words each rule looks for. Chinese is the profile's
// default; every rule has its English counterpart, with the sizes scaled
// to what the same content takes in English.
type docLang struct {
	tag    string
	mcpDoc string
	// listBreaks end a clause that may list names or values: English
	// separates the items of a list with commas, Chinese with 、.
	listBreaks string

	// Sizes: a document's code points and text units, a Tool section's
	// text units.
	skillMin, skillUnits, skillToolUnits             int
	mcpDocMin, mcpDocUnits, mcpDocToolUnits          int
	contextMin, contextUnits, contextSideEffectUnits int
	contextSectionMin                                int
	skillHeadings                                    []string
	skillToolTopics, mcpDocToolTopics, unprovenParts []topic
	setupTopics                                      []topic
	contextSections                                  []contextSection
	mcpDocTerms                                      []string
	exampleHeading                                   string // a worked example's H3 starts with it
	requirednessHint                                 string // the requiredness words, for findings
	retryDefaultHint, deployerHint                   string // what a finding asks to write
	onlySkillHint, notMCPHint                        string
	readOnlyWord                                     string // a read Tool's section says it
	requirednessWords, dryRunWords, mandatoryWords   *regexp.Regexp
	notRetryableByDefault, deployerWords             *regexp.Regexp
	onlySkill, notMCP, sideEffectHeading, noWrite    *regexp.Regexp
	templateTitle                                    string // the feature-context template's title
	restate                                          restatementWords
	stale                                            staleWords
	// How findings name what is missing.
	readOnlyStatement, sideEffectSection, exampleSections string
}

// restatementWords are the words of the claims the restatement guards
// read (doc_agent.go).
type restatementWords struct {
	optionalClaim, requiredClaim, alwaysClaim   *regexp.Regexp
	isReadOnlyClaim, readOnlyWord, retryClaim   *regexp.Regexp
	requirednessWords, toolWords                []string // lower case: a line without one makes no claim
	negations, optionalNeg, requiredNeg, always []string
	adjectiveGap                                *regexp.Regexp
	// optionalNot is what, right after an optional claim, makes it
	// another word ("可选择", to choose).
	optionalNot string
	// namesInCode: an input is named only as code (`quote`), its name
	// being also a word of the prose.
	namesInCode bool
}

// staleWords are the words of the statements the stale-value rules read
// (doc_stale.go).
type staleWords struct {
	bounds *boundForms
	// partialBefore is how many code points before a list's claim a word
	// saying the list is partial ("例如", "for example") may stand.
	partialBefore                        int
	enumClaim, exhaustiveEnum, partial   *regexp.Regexp
	codeContext, errorContext, toolWords *regexp.Regexp
}

// langOf returns the rules of the language tag; Chinese for any other.
func langOf(tag string) *docLang {
	if tag == contract.LanguageEnglish {
		return english
	}
	return chinese
}

// MCPDocFile is the MCP document of a package in the language:
// MCP.<language>.md.
func MCPDocFile(language string) string { return contract.MCPDocFile(language) }

// Documents returns the four documents of a strict package in the
// language, in the order they are checked.
func Documents(language string) []string {
	return []string{SkillFile, MCPDocFile(language), SetupFile, ContextFile}
}

// MarkedDocuments returns the documents that carry the documentation
// marker: all but MCP-SETUP.md.
func MarkedDocuments(language string) []string {
	return []string{SkillFile, MCPDocFile(language), ContextFile}
}

// AnyLanguageDocuments are the documents of every language a package may
// be written in: what a fingerprint of the documents reads.
func AnyLanguageDocuments() []string {
	return []string{SkillFile, MCPDocFile(contract.LanguageChinese), MCPDocFile(contract.LanguageEnglish), SetupFile, ContextFile}
}

var chinese = &docLang{
	tag:        contract.LanguageChinese,
	mcpDoc:     contract.MCPDocFile(contract.LanguageChinese),
	listBreaks: clauseBreaks,

	skillMin: 4000, skillUnits: 1500, skillToolUnits: 70,
	mcpDocMin: 8000, mcpDocUnits: 2000, mcpDocToolUnits: 75,
	contextMin: 800, contextUnits: 250, contextSideEffectUnits: 60,
	contextSectionMin: 30,

	skillHeadings: []string{
		"定位与适用范围", "能力目录", "输入与来源", "状态与交接", "意图路由", "推荐组合",
		"自由组合边界", "输出组织", "失败分类与恢复", "安全与副作用", "完整调用示例", "Agent 自检清单",
	},
	skillToolTopics: []topic{
		newTopic("when to use it (适用/调用时机/当用户/用于)", `适用|调用时机|当用户|用于`),
		newTopic("its input (输入/入参/无入参/空对象)", `输入|入参|无入参|空对象`),
		newTopic("its output (输出/返回)", `输出|返回`),
		newTopic("what follows (交接/下游/传给/直接回答/独立结束/结束任务)", `交接|下游|传给|直接回答|独立结束|结束任务`),
		newTopic("when not to use it (跳过/不要/不得/无需/停止/不适用)", `跳过|不要|不得|无需|停止|不适用`),
	},
	mcpDocToolTopics: []topic{
		newTopic("its purpose (用途/适用/调用时机/何时调用)", `用途|适用|调用时机|何时调用`),
		newTopic("its input (入参/无入参/空对象)", `入参|无入参|空对象`),
		newTopic("its output (出参/输出/structuredContent)", `出参|输出|structuredContent`),
		newTopic("how it executes (HTTP/本地/0 次请求/0 HTTP)", `HTTP|本地|0 次请求|0 HTTP`),
		newTopic("its failures (失败/错误/拒绝/isError)", `失败|错误|拒绝|isError`),
		newTopic("what follows (handoff/交接/交给/传给/独立调用/直接回答/结束)", `handoff|交接|交给|传给|独立调用|直接回答|结束`),
		newTopic(`an example (示例 or "name")`, `示例|"name"`),
	},
	unprovenParts: []topic{
		newTopic("a recommendation (建议/正常流程/通常/优先)", `建议|正常流程|通常|优先`),
		newTopic("what happens when it is omitted (缺省/缺失/省略/未提供/不提供/不传/缺少)", `缺省|缺失|省略|未提供|不提供|不传|缺少`),
		newTopic("是否", `是否`),
		newTopic("acceptance or rejection (接受/拒绝)", `接受|拒绝`),
		newTopic("that the backend decides (目标API/目标接口/后端/服务端 near 决定/判断/校验)",
			`(?:目标API|目标接口|后端|服务端).{0,40}(?:决定|判断|校验)|(?:决定|判断|校验).{0,40}(?:目标API|目标接口|后端|服务端)`),
	},
	setupTopics: []topic{
		newTopic("starting the MCP server (启动)", `启动`),
		newTopic("registering it with the host (注册)", `注册`),
		newTopic("authentication (认证/鉴权/身份/凭据)", `认证|鉴权|身份|凭据|(?i:authentication)`),
		newTopic("environment variables (环境变量)", `环境变量|(?i:environment variable)`),
	},
	// A section is found by any of its keywords wherever its heading
	// names one ("一、功能定位", "业务目的", "相关能力与排除范围"): the
	// eight topics' established titles and the words the spec uses for the
	// topics they cover.
	contextSections: []contextSection{
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
	},
	mcpDocTerms: []string{
		"MCP", "stdio", "tools/list", "tools/call", "title", "description", "inputSchema", "outputSchema",
		"structuredContent", "isError", "annotations", "dry-run", "入参", "出参", "错误", "示例",
	},
	exampleHeading:        "示例",
	requirednessHint:      "必填/必须/可选/条件/需要时/仅当",
	retryDefaultHint:      "默认不可重试",
	onlySkillHint:         "只/仅…安装…Skill",
	notMCPHint:            "不等于/不代表…MCP, 不会启动/注册…MCP",
	deployerHint:          "部署方 or deployerPolicy",
	readOnlyWord:          "只读",
	requirednessWords:     regexp.MustCompile(`必填|必须|可选|条件|需要时|仅当`),
	dryRunWords:           regexp.MustCompile(`(?i)dry-run|试运行`),
	mandatoryWords:        regexp.MustCompile(`(?:必须|务必|需要|应当|须|只能)\s*先?\s*调用|只有.*才|硬前置|不可跳过|前置条件|(?i:must\s+call|required\s+precondition)`),
	notRetryableByDefault: regexp.MustCompile(`默认[^。；\n]{0,12}(?:不可|不能|不应|不会|不)[^。；\n]{0,4}重试|(?i:not\s+retryable\s+by\s+default)`),
	deployerWords:         regexp.MustCompile(`部署方|deployerPolicy`),
	// Installing the Skill installs only the Skill (只安装 Skill, 只把
	// Skill 安装到…), and does not set up MCP.
	onlySkill:         regexp.MustCompile(`(?:只|仅)[^。\n]{0,20}(?:安装[^。\n]{0,30}(?i:skill)|(?i:skill)[^。\n]{0,20}安装)`),
	notMCP:            regexp.MustCompile(`(?:不等于|不能视为|并不代表|不代表)[^。\n]{0,30}MCP|不会[^。\n]{0,30}(?:启动|注册)[^。\n]{0,30}MCP`),
	sideEffectHeading: regexp.MustCompile(`副作用|确认与写入|(?i:side effects)`),
	noWrite:           regexp.MustCompile(`(?:不|不得|禁止|不会).{0,40}(?:创建|修改|更新|删除|写入)`),
	templateTitle:     "业务背景模板",
	restate: restatementWords{
		// 可选 (not 可选择, "can choose"), 非必填, 无需提供, optional.
		optionalClaim: regexp.MustCompile(`可选|非必填|无需提供|(?i:\boptional\b)`),
		requiredClaim: regexp.MustCompile(`必填|必须提供|(?i:\brequired\b)`),
		alwaysClaim:   regexp.MustCompile(`(?:无条件|始终|总是)[^，。；,;]{0,12}必填|(?i:\balways\s+required\b)`),
		// "T 是只读", "T 属于只读…".
		isReadOnlyClaim:   regexp.MustCompile(`(?:是|属于|为)\s*(?:一个|一种|一项)?\s*只读`),
		readOnlyWord:      regexp.MustCompile(`只读`),
		retryClaim:        regexp.MustCompile(`(?:可以|允许|会)[^，。；,;]{0,8}自动重试`),
		requirednessWords: []string{"可选", "必填", "必须提供", "无需提供", "optional", "required"},
		toolWords:         []string{"只读", "自动重试"},
		negations:         []string{"不", "非", "无", "未", "并", "禁", "勿"},
		optionalNeg:       []string{"不是", "并非", "不", "非"},
		requiredNeg:       []string{"非", "不", "无需", "不是", "并非", "不必", "无须", "not ", "non-", "Not "},
		always:            []string{"不", "并非", "不是"},
		// What may stand between a claim and the name it qualifies when the
		// claim comes first: "可选的 `x`", "必填入参 `x`".
		adjectiveGap: regexp.MustCompile("^\\s*的?\\s*(?:入参|参数|字段)?\\s*`?$"),
		optionalNot:  "择",
	},
	stale: staleWords{
		bounds:         &chineseBounds,
		partialBefore:  6,
		enumClaim:      regexp.MustCompile(`只接受|只能是|只能取|取值为|取值是|取值|可选值|可取值|枚举值?|之一|(?i:\bone of\b)`),
		exhaustiveEnum: regexp.MustCompile(`只接受|只能是|只能取|取值为|取值是|之一|(?i:\bone of\b)`),
		partial:        regexp.MustCompile(`例如|比如|如 |包括|等`),
		// A code of one word (UNAUTHENTICATED) is one only where the text
		// says it is: as a JSON "code", or on a line that speaks of codes.
		codeContext:  regexp.MustCompile(`错误码|错误代码|(?i:\berror codes?\b|\bcodes?\b)`),
		errorContext: regexp.MustCompile(`错误|拒绝|失败|返回|(?i:\berror|\bcode\b|reject|fail)`),
		toolWords:    regexp.MustCompile(`(?i:tools?\b)|工具|调用`),
	},
	readOnlyStatement: "say the package is read-only (只读) and that it creates, changes or deletes nothing",
	sideEffectSection: "\"## 副作用…\" or \"## 确认与写入…\"",
	exampleSections:   "\"### 示例…\"",
}

var english = &docLang{
	tag:        contract.LanguageEnglish,
	mcpDoc:     contract.MCPDocFile(contract.LanguageEnglish),
	listBreaks: "；;。！？!?.",

	skillMin: 5000, skillUnits: 800, skillToolUnits: 50,
	mcpDocMin: 10000, mcpDocUnits: 1200, mcpDocToolUnits: 55,
	contextMin: 1200, contextUnits: 180, contextSideEffectUnits: 40,
	contextSectionMin: 40,

	skillHeadings: []string{
		"Scope", "Capability catalog", "Inputs and sources", "State and handoffs", "Intent routing", "Recommended compositions",
		"Free composition boundaries", "Organizing output", "Failure classes and recovery", "Safety and side effects",
		"Complete call examples", "Agent self-check",
	},
	skillToolTopics: []topic{
		newTopic("when to use it (use/when/call it)", `(?i)\buse\b|\bwhen\b|\bcall it\b`),
		newTopic("its input (input/argument/no input/empty object)", `(?i)\binputs?\b|\barguments?\b|\bno input\b|\bempty object\b`),
		newTopic("its output (output/returns)", `(?i)\boutputs?\b|\breturns?\b`),
		newTopic("what follows (hand off/pass/answer directly/ends)", `(?i)\bhand(?:s|ed)? (?:it )?(?:off|over)\b|\bhandoff\b|\bpass(?:es)?\b|\bdownstream\b|\banswer directly\b|\bends?\b|\bdone\b`),
		newTopic("when not to use it (do not/never/skip/stop)", `(?i)\bdo not\b|\bdon't\b|\bnever\b|\bskip\b|\bstop\b|\bnot for\b`),
	},
	mcpDocToolTopics: []topic{
		newTopic("its purpose (purpose/use/when to call)", `(?i)\bpurpose\b|\buse\b|\bwhen to call\b`),
		newTopic("its input (input/arguments/no input/empty object)", `(?i)\binputs?\b|\barguments\b|\bno input\b|\bempty object\b`),
		newTopic("its output (output/structuredContent)", `(?i)\boutputs?\b|structuredContent`),
		newTopic("how it executes (HTTP/local/no request)", `HTTP|(?i)\blocal\b|\bno request\b`),
		newTopic("its failures (fails/error/rejects/isError)", `(?i)\bfail|\berrors?\b|\breject|isError`),
		newTopic("what follows (handoff/hand/pass/ends)", `(?i)\bhandoff\b|\bhand(?:s|ed)? (?:it )?(?:off|over)\b|\bpass(?:es)?\b|\bends?\b|\bindependently\b|\banswer directly\b`),
		newTopic(`an example (example or "name")`, `(?i)\bexample\b|"name"`),
	},
	unprovenParts: []topic{
		newTopic("a recommendation (recommend/normally/usually/prefer)", `(?i)\brecommend|\bnormally\b|\busually\b|\bprefer`),
		newTopic("what happens when it is omitted (omit/leave out/missing/without)", `(?i)\bomit|\bleft out\b|\bleave (?:it )?out\b|\bmissing\b|\bwithout\b`),
		newTopic("whether", `(?i)\bwhether\b`),
		newTopic("acceptance or rejection (accept/reject)", `(?i)\baccept|\breject`),
		newTopic("that the backend decides (target API/backend/server near decides/judges/validates)",
			`(?i)(?:target API|backend|server).{0,40}(?:decide|judge|validate|check)|(?:decide|judge|validate|check).{0,40}(?:target API|backend|server)`),
	},
	setupTopics: []topic{
		newTopic("starting the MCP server (start)", `(?i)\bstart`),
		newTopic("registering it with the host (register)", `(?i)\bregist`),
		newTopic("authentication (authentication/credential/identity)", `(?i)\bauthenticat|\bcredential|\bidentity\b`),
		newTopic("environment variables (environment variable)", `(?i)\benvironment variables?\b`),
	},
	contextSections: []contextSection{
		{newTopic("Purpose", `(?i)\bpurpose\b|\buser goals?\b`), "purpose or user goals"},
		{newTopic("Actors and permissions", `(?i)\bactors?\b|\bpermissions?\b|\broles?\b`), "actors, permissions or roles"},
		{newTopic("Domain concepts and field semantics", `(?i)\bfield semantics\b|\bdomain concepts?\b|\bbusiness concepts?\b`),
			"field semantics, domain concepts or business concepts"},
		{newTopic("States and business rules", `(?i)\brules?\b|\bstates?\b`), "rules or states"},
		{newTopic("Original client behaviour", `(?i)\bclient behaviou?r\b`), "client behaviour"},
		{newTopic("Results and failures", `(?i)\bresults?\b|\bfailures?\b|\berrors?\b`), "results, failures or errors"},
		{newTopic("Related capabilities", `(?i)\brelated capabilit(?:y|ies)\b|\bexcluded\b|\bexclusions?\b`), "related capabilities, excluded or exclusions"},
		{newTopic("Unknowns", `(?i)\bunknowns?\b`), "unknowns"},
	},
	mcpDocTerms: []string{
		"MCP", "stdio", "tools/list", "tools/call", "title", "description", "inputSchema", "outputSchema",
		"structuredContent", "isError", "annotations", "dry-run", "input", "output", "error", "example",
	},
	exampleHeading:        "Example",
	requirednessHint:      "required/must/optional/conditional/only when/when needed",
	retryDefaultHint:      "not retryable by default",
	onlySkillHint:         "installs only the Skill",
	notMCPHint:            "does not start or register MCP",
	deployerHint:          "the deployer, or deployerPolicy",
	readOnlyWord:          "read-only",
	requirednessWords:     regexp.MustCompile(`(?i)\brequired\b|\bmust\b|\boptional\b|\bconditional|\bonly when\b|\bwhen needed\b`),
	dryRunWords:           regexp.MustCompile(`(?i)dry-run|dry run`),
	mandatoryWords:        regexp.MustCompile(`(?i)\bmust\s+(?:first\s+)?call\b|\bonly after calling\b|\bhard precondition\b|\brequired\s+precondition\b|\bcannot be skipped\b`),
	notRetryableByDefault: regexp.MustCompile(`(?i)not\s+retryable\s+by\s+default|by\s+default[^.;\n]{0,30}\bnot\b[^.;\n]{0,12}\bretr`),
	deployerWords:         regexp.MustCompile(`(?i)\bdeployer|deployerPolicy`),
	onlySkill:             regexp.MustCompile(`(?i)\bonly\b[^.\n]{0,40}\bskill\b[^.\n]{0,40}\binstall|\binstalls?\b[^.\n]{0,20}\bonly\b[^.\n]{0,30}\bskill\b`),
	notMCP:                regexp.MustCompile(`(?i)(?:does not|doesn't|will not|won't|never)\s+(?:start|register|set up|configure)[^.\n]{0,40}\bMCP\b|\bis not\b[^.\n]{0,30}\bMCP\b[^.\n]{0,20}\bsetup\b`),
	sideEffectHeading:     regexp.MustCompile(`(?i)side effects|confirmation and writes`),
	noWrite:               regexp.MustCompile(`(?i)(?:never|nothing|no|not|does not)\b.{0,40}\b(?:creat|chang|updat|delet|writ)`),
	templateTitle:         "Business background template",
	restate: restatementWords{
		optionalClaim:     regexp.MustCompile(`(?i)\boptional\b|\bneed not be (?:given|provided|supplied)\b`),
		requiredClaim:     regexp.MustCompile(`(?i)\brequired\b|\bmust be (?:given|provided|supplied)\b|\bmandatory\b`),
		alwaysClaim:       regexp.MustCompile(`(?i)\b(?:always|unconditionally)\s+(?:required|mandatory)\b`),
		isReadOnlyClaim:   regexp.MustCompile(`(?i)\b(?:is|are)\s+(?:an?\s+)?read-only\b`),
		readOnlyWord:      regexp.MustCompile(`(?i)\bread-only\b`),
		retryClaim:        regexp.MustCompile(`(?i)\b(?:can|may|will|is)\s+(?:be\s+)?(?:retried|retry|retries)\s+automatically\b|\bretries\s+automatically\b|\bautomatically\s+retried\b`),
		requirednessWords: []string{"optional", "required", "mandatory", "need not be"},
		toolWords:         []string{"read-only", "automatically"},
		negations:         []string{"not ", "never ", "no ", "non-", "isn't ", "aren't "},
		optionalNeg:       []string{"not ", "never ", "non-"},
		requiredNeg:       []string{"not ", "non-", "never ", "Not "},
		always:            []string{"not ", "never "},
		adjectiveGap:      regexp.MustCompile("(?i)^\\s*(?:input|argument|field|parameter)?\\s*`?$"),
		namesInCode:       true,
	},
	stale: staleWords{
		bounds:         &englishBounds,
		partialBefore:  16,
		enumClaim:      regexp.MustCompile(`(?i)\bonly accepts\b|\baccepts only\b|\bmust be one of\b|\bone of\b|\ballowed values\b|\bpossible values\b|\bvalues are\b|\btakes the values\b`),
		exhaustiveEnum: regexp.MustCompile(`(?i)\bonly accepts\b|\baccepts only\b|\bmust be one of\b|\bone of\b|\ballowed values\b|\bvalues are\b|\btakes the values\b`),
		partial:        regexp.MustCompile(`(?i)\be\.g\.|\bfor example\b|\bsuch as\b|\bincluding\b|\bamong them\b`),
		codeContext:    regexp.MustCompile(`(?i)\berror codes?\b|\bcodes?\b`),
		errorContext:   regexp.MustCompile(`(?i)\berror|\bcode\b|reject|fail|\breturns?\b`),
		toolWords:      regexp.MustCompile(`(?i)\btools?\b|\bcalls?\b`),
	},
	readOnlyStatement: "say the package is read-only and that it creates, changes or deletes nothing",
	sideEffectSection: "\"## Side effects…\" or \"## Confirmation and writes…\"",
	exampleSections:   "\"### Example…\"",
}

// units counts the language's text units in s (contract.TextUnits).
func (l *docLang) units(s string) int { return contract.TextUnits(l.tag, s) }

// unit names the language's text unit, for findings: "Chinese character",
// "English word".
func (l *docLang) unit() string { return contract.TextUnit(l.tag) }
