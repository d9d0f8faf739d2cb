package strict

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// The statements a document makes about the contract's values: the bounds
// of a field ("`body` 最多 1024 个字符"), the values of a static domain
// ("`visibility` 只接受 `public` 和 `members`"), an error code and a Tool
// name. Each must hold for the contract the document is bound to: a stale
// statement is an error at its line, whatever the document's marker says,
// so that refreshing the marker never makes a document that disagrees with
// the contract look current.

// fieldFacts are the JSON Schema facts of one property of a Tool's input or
// output schema, at any depth: what a document may restate about it.
type fieldFacts struct {
	typ    string
	bounds map[string]float64 // maxLength, minLength, maximum, minimum, maxItems, minItems
	enum   []string           // the static values, as the document writes them
}

// boundKeywords are the schema keywords a bound statement restates.
var boundKeywords = []string{"maxLength", "minLength", "maximum", "minimum", "maxItems", "minItems"}

// schemaFields collects the properties of a schema, at any depth, by name.
func schemaFields(schema canonjson.Value, into map[string][]fieldFacts) {
	s, ok := schema.(*canonjson.Object)
	if !ok {
		return
	}
	if props, ok := s.At("properties").(*canonjson.Object); ok {
		for name, prop := range props.All() {
			into[name] = append(into[name], propertyFacts(prop))
			schemaFields(prop, into)
		}
	}
	schemaFields(s.At("items"), into)
	for _, key := range []string{"anyOf", "oneOf"} {
		subs, _ := s.At(key).(canonjson.Array)
		for _, sub := range subs {
			schemaFields(sub, into)
		}
	}
}

// propertyFacts reads the bounds and static values of one property.
func propertyFacts(prop canonjson.Value) fieldFacts {
	ff := fieldFacts{bounds: map[string]float64{}}
	o, _ := prop.(*canonjson.Object)
	if o == nil {
		return ff
	}
	if t, ok := o.At("type").(canonjson.String); ok {
		ff.typ = string(t)
	}
	for _, k := range boundKeywords {
		if n, ok := o.At(k).(canonjson.Number); ok {
			if v, ok := n.Float64(); ok {
				ff.bounds[k] = v
			}
		}
	}
	if items, ok := o.At("items").(*canonjson.Object); ok && items.Has("enum") {
		// The values of an array of static values are its items' enum.
		ff.enum = enumValues(items.At("enum"))
	}
	if o.Has("enum") {
		ff.enum = enumValues(o.At("enum"))
	}
	return ff
}

// enumValues writes the values of an enum the way a document names them:
// a string as it is, anything else as its JSON.
func enumValues(v canonjson.Value) []string {
	vs, ok := v.(canonjson.Array)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(vs))
	for _, e := range vs {
		if s, ok := e.(canonjson.String); ok {
			out = append(out, string(s))
		} else {
			out = append(out, string(canonjson.Compact(e)))
		}
	}
	return out
}

// number is how a bound statement writes its number: in digits; a
// statement in words ("最多两百个字符", "at most two hundred characters")
// is not recognised.
const number = `(\d[\d,]*(?:\.\d+)?)`

// boundForms are the forms of a bound statement in one language: a schema
// keyword with its number, a range and a phrase, each with an optional
// unit; and what the unit and the phrase's word say about the bound.
type boundForms struct {
	// keyword: "`maxLength` 为 1024", "maxLength: 1024", "maxLength=1024".
	keyword *regexp.Regexp
	// rangeOf: "1 到 14", "1–1024 个字符", "1 to 14 characters".
	rangeOf *regexp.Regexp
	// phrase: "最多 1024 个字符", "at most 1024 characters", "不大于 100".
	phrase *regexp.Regexp
	// chars reports whether a unit counts characters (any other unit
	// counts items).
	chars func(unit string) bool
	// upper reports whether a phrase's word states an upper bound;
	// unitless whether, without a unit, it says nothing about which bound
	// ("最多 3", "at most 3": items or a number).
	upper, unitless func(word string) bool
}

var (
	chineseBounds = boundForms{
		keyword: regexp.MustCompile("(maxLength|minLength|maximum|minimum|maxItems|minItems)`?\\s*(?:[:：=]|为|是)?\\s*" + number),
		rangeOf: regexp.MustCompile(number + `\s*(?:到|至|~|～|–|—|-)\s*` + number + `\s*(个字符|字符|个元素|项|个条目)?`),
		phrase:  regexp.MustCompile(`(最多|至多|不超过|不能超过|不得超过|至少|最少|不少于|不大于|不小于|最大值为?|最小值为?|≤|≥|<=|>=)\s*` + number + `\s*(个字符|字符|个元素|项|个条目)?`),
		chars:   func(unit string) bool { return strings.Contains(unit, "字符") },
		upper: func(word string) bool {
			return !strings.ContainsAny(word, "少小≥>") && !strings.HasPrefix(word, "至少")
		},
		unitless: func(word string) bool {
			return strings.HasPrefix(word, "最多") || strings.HasPrefix(word, "至多") || word == "至少" || word == "最少" || word == "不少于"
		},
	}
	englishUnit   = `\s*(characters?|chars|items?|elements?|entries|entry|values?)?\b`
	englishBounds = boundForms{
		keyword: regexp.MustCompile("(maxLength|minLength|maximum|minimum|maxItems|minItems)`?\\s*(?:[:=]|(?i:is|of))?\\s*" + number),
		rangeOf: regexp.MustCompile(`(?i:between\s+)?` + number + `\s*(?:(?i:to|and)|~|–|—|-)\s*` + number + englishUnit),
		phrase: regexp.MustCompile(`(?i)(at most|up to|no more than|not more than|maximum of|at least|no fewer than|no less than|not less than|minimum of|≤|≥|<=|>=)\s*` +
			number + englishUnit),
		chars: func(unit string) bool { return strings.HasPrefix(strings.ToLower(unit), "char") },
		upper: func(word string) bool {
			w := strings.ToLower(word)
			return strings.Contains(w, "most") || strings.HasPrefix(w, "up") || strings.Contains(w, "more") ||
				strings.HasPrefix(w, "maximum") || w == "≤" || w == "<="
		},
		unitless: func(word string) bool {
			w := strings.ToLower(word)
			return w == "at most" || w == "up to" || w == "at least"
		},
	}
)

// A bound statement: which keyword it states and the number.
type boundClaim struct {
	at      span
	keyword string
	value   float64
	text    string
}

// claims finds the bound statements of a line (code spans masked but for
// keywords written as code).
func (bf *boundForms) claims(line []rune) []boundClaim {
	s := string(line)
	var out []boundClaim
	add := func(loc []int, keyword, num string) {
		v, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
		if err != nil {
			return
		}
		out = append(out, boundClaim{at: runeSpan(s, loc[0], loc[1]), keyword: keyword, value: v, text: s[loc[0]:loc[1]]})
	}
	for _, m := range bf.keyword.FindAllStringSubmatchIndex(s, -1) {
		add(m, s[m[2]:m[3]], s[m[4]:m[5]])
	}
	for _, m := range bf.rangeOf.FindAllStringSubmatchIndex(s, -1) {
		if partOfDate(s, m[0], m[1]) {
			continue
		}
		unit := ""
		if m[6] >= 0 {
			unit = s[m[6]:m[7]]
		}
		lo, hi := "minimum", "maximum"
		switch {
		case unit != "" && bf.chars(unit):
			lo, hi = "minLength", "maxLength"
		case unit != "":
			lo, hi = "minItems", "maxItems"
		}
		add([]int{m[0], m[1]}, lo, s[m[2]:m[3]])
		add([]int{m[0], m[1]}, hi, s[m[4]:m[5]])
	}
	for _, m := range bf.phrase.FindAllStringSubmatchIndex(s, -1) {
		word, unit := s[m[2]:m[3]], ""
		if m[6] >= 0 {
			unit = s[m[6]:m[7]]
		}
		upper := bf.upper(word)
		var keyword string
		switch {
		case unit != "" && bf.chars(unit):
			keyword = map[bool]string{true: "maxLength", false: "minLength"}[upper]
		case unit != "":
			keyword = map[bool]string{true: "maxItems", false: "minItems"}[upper]
		case bf.unitless(word):
			continue
		default:
			keyword = map[bool]string{true: "maximum", false: "minimum"}[upper]
		}
		add(m, keyword, s[m[4]:m[5]])
	}
	return out
}

// partOfDate reports whether the range s[start:end] is part of a date or
// version (2025-11-25), not a range.
func partOfDate(s string, start, end int) bool {
	digit := func(b byte) bool { return b >= '0' && b <= '9' }
	return start > 0 && (digit(s[start-1]) || s[start-1] == '-' || s[start-1] == '.') ||
		end+1 < len(s) && (s[end] == '-' || s[end] == '.') && digit(s[end+1])
}

// runeSpan converts a byte range of s into rune offsets.
func runeSpan(s string, start, end int) span {
	a := len([]rune(s[:start]))
	return span{a, a + len([]rune(s[start:end]))}
}

// Error codes and Tool names as documents write them.
var (
	errorCodeForm = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)
	// A code of one word (UNAUTHENTICATED) is one only where the text says
	// it is: as a JSON "code", or on a line that speaks of error codes.
	wordCodeForm = regexp.MustCompile(`^[A-Z][A-Z0-9]{3,}$`)
	// "code": "X" in a JSON example, escaped or not.
	jsonCode = regexp.MustCompile(`\\?"code\\?"\s*:\s*\\?"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)\\?"`)
	// A Tool name's form: lower snake case.
	toolNameForm = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$`)
	// "name": "x" in a tools/call example.
	jsonToolName = regexp.MustCompile(`"name"\s*:\s*"([^"\\]+)"`)
	// An assignment of an environment variable: NAME=value.
	assignment = regexp.MustCompile(`\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=`)
)

// staleStatements checks what a document states about the contract's
// values, line by line.
func staleStatements(d *document, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	sections := sectionTools(d, f)
	assigned := map[string]bool{}
	for _, m := range assignment.FindAllStringSubmatch(d.Text, -1) {
		assigned[m[1]] = true
	}
	isField := map[string]bool{}
	for _, t := range f.tools {
		for name := range t.fields {
			isField[name] = true
		}
	}
	for i, text := range d.Lines {
		if strings.TrimSpace(text) == "" {
			continue
		}
		line := []rune(text)
		if d.Fenced[i] {
			out = append(out, fencedStatements(d, i, text, f)...)
			continue
		}
		masked := maskCode(line)
		spans := codeSpans(line)
		scope := lineScope{line: line, spans: spans, section: sections[i], all: f.tools}
		out = append(out, staleBounds(d, f.lang, i, line, masked, scope)...)
		out = append(out, staleEnums(d, f.lang, i, line, masked, scope)...)
		out = append(out, unknownCodes(d, i, line, masked, spans, f, assigned)...)
		out = append(out, unknownTools(d, i, line, masked, spans, f, isField)...)
	}
	return out
}

// fieldsOf returns what the Tools' schemas say about a field name.
func fieldsOf(name string, tools []*toolFacts) []fieldFacts {
	var out []fieldFacts
	for _, t := range tools {
		out = append(out, t.fields[name]...)
	}
	return out
}

// lineScope is what a statement of one line can be about: the Tools its
// section is about and every Tool of the contract.
type lineScope struct {
	line    []rune
	spans   []span // the code spans of line
	section []*toolFacts
	all     []*toolFacts
}

// toolsBefore returns the Tools of the contract the line names as code
// before the rune offset at.
func (s lineScope) toolsBefore(at int) []*toolFacts {
	var out []*toolFacts
	for _, cs := range s.spans {
		if cs.end > at {
			break
		}
		name := string(s.line[cs.start+1 : cs.end-1])
		for _, t := range s.all {
			if t.name == name && !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// toolsOf returns the Tools a statement about a field written at the
// rune offset at is judged against: the nearest Tool the line names
// before the field ("`create_post` 的 `title` 最多 200 个字符"), else the
// Tool of the line's section (a Tool named after the field, "与
// `create_post` 相同", is not its subject), else the Tools the line names,
// else every Tool.
func (s lineScope) toolsOf(at int) []*toolFacts {
	if before := s.toolsBefore(at); len(before) > 0 {
		return before[len(before)-1:]
	}
	if len(s.section) > 0 {
		return s.section
	}
	if named := s.toolsBefore(len(s.line)); len(named) > 0 {
		return named
	}
	return s.all
}

// subjectField returns the field a statement at span c is about, the
// Tools it is judged against and what their schemas say about it: the
// nearest name written as code before it, when that is a field of one of
// the Tools; "" when the nearest one is something else or there is none.
func (s lineScope) subjectField(c span) (string, []*toolFacts, []fieldFacts) {
	prev := -1
	for k, cs := range s.spans {
		if cs.end <= c.start {
			prev = k
		}
	}
	if prev < 0 {
		return "", nil, nil
	}
	name := string(s.line[s.spans[prev].start+1 : s.spans[prev].end-1])
	if slices.Contains(boundKeywords, name) && prev > 0 {
		// "`note` 的 `maxLength` 为 200": the keyword names the bound,
		// the field comes before it.
		prev--
		name = string(s.line[s.spans[prev].start+1 : s.spans[prev].end-1])
	}
	tools := s.toolsOf(s.spans[prev].start)
	return name, tools, fieldsOf(name, tools)
}

// ofTools names a field with the Tools it was judged against that have
// it.
func ofTools(name string, tools []*toolFacts) string {
	var names []string
	for _, t := range tools {
		if len(t.fields[name]) > 0 {
			names = append(names, code(t.name))
		}
	}
	return code(name) + " of " + strings.Join(names, ", ")
}

// staleBounds reports a bound a line states for a field that the contract
// does not declare with that value.
func staleBounds(d *document, l *docLang, i int, line, masked []rune, scope lineScope) []diag.Diagnostic {
	// Keywords written as code are part of the statement.
	unmasked := slices.Clone(masked)
	for _, cs := range scope.spans {
		if inner := string(line[cs.start+1 : cs.end-1]); slices.Contains(boundKeywords, inner) {
			copy(unmasked[cs.start:cs.end], line[cs.start:cs.end])
		}
	}
	claims := l.stale.bounds.claims(unmasked)
	if len(claims) == 0 {
		return nil
	}
	var out []diag.Diagnostic
	reported := map[string]bool{}
	for _, c := range claims {
		name, tools, ffs := scope.subjectField(c.at)
		if len(ffs) == 0 {
			continue
		}
		numeric := false
		var declared []string
		holds := false
		for _, ff := range ffs {
			numeric = numeric || ff.typ == "integer" || ff.typ == "number"
			if v, ok := ff.bounds[c.keyword]; ok {
				declared = append(declared, formatNumber(v))
				holds = holds || v == c.value
			}
		}
		if (c.keyword == "minimum" || c.keyword == "maximum") && !numeric {
			continue // "第 1 到 3 步" about a string is not a bound
		}
		key := ofTools(name, tools) + "\x00" + c.keyword + "\x00" + formatNumber(c.value)
		if holds || reported[key] {
			continue
		}
		reported[key] = true
		if len(declared) == 0 {
			out = append(out, RuleDocStaleBound.New(d.file, "states %s %s for %s (%q), but the contract declares no %s for it",
				c.keyword, formatNumber(c.value), ofTools(name, tools), strings.TrimSpace(c.text), c.keyword).At(lineOf(i), 0))
			continue
		}
		out = append(out, RuleDocStaleBound.New(d.file, "states %s %s for %s (%q), but the contract says %s %s: update the document",
			c.keyword, formatNumber(c.value), ofTools(name, tools), strings.TrimSpace(c.text), c.keyword, strings.Join(declared, " or ")).At(lineOf(i), 0))
	}
	return out
}

func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// staleEnums reports values a line lists for a field that its static
// domain does not hold, and, when the line says the list is the whole
// domain, the values it leaves out.
func staleEnums(d *document, l *docLang, i int, line, masked []rune, scope lineScope) []diag.Diagnostic {
	var out []diag.Diagnostic
	spans := scope.spans
	for _, c := range runeMatches(l.stale.enumClaim, masked) {
		name, tools, ffs := scope.subjectField(c)
		var domain []string
		for _, ff := range ffs {
			for _, v := range ff.enum {
				if !slices.Contains(domain, v) {
					domain = append(domain, v)
				}
			}
		}
		if len(domain) == 0 {
			continue
		}
		end := listEnd(masked, c.end, l.listBreaks)
		if end == c.end { // "取值：`a`、`b`" may follow a colon
			end = len(masked)
		}
		var listed []string
		for _, cs := range spans {
			if cs.start >= c.end && cs.end <= end {
				listed = append(listed, string(line[cs.start+1:cs.end-1]))
			}
		}
		if len(listed) == 0 {
			continue
		}
		var unknown []string
		for _, v := range listed {
			if !slices.Contains(domain, v) {
				unknown = append(unknown, code(v))
			}
		}
		if len(unknown) > 0 {
			out = append(out, RuleDocStaleEnum.New(d.file, "lists %s among the values of %s, which its static domain (%s) does not hold",
				strings.Join(unknown, ", "), ofTools(name, tools), strings.Join(domain, ", ")).At(lineOf(i), 0))
			continue
		}
		claim := string(masked[c.start:c.end])
		if l.stale.exhaustiveEnum.MatchString(claim) && !l.stale.partial.MatchString(string(masked[max(0, c.start-l.stale.partialBefore):end])) {
			var left []string
			for _, v := range domain {
				if !slices.Contains(listed, v) {
					left = append(left, code(v))
				}
			}
			if len(left) > 0 {
				out = append(out, RuleDocStaleEnum.New(d.file, "gives the values of %s as the whole domain but leaves out %s, which the contract allows",
					ofTools(name, tools), strings.Join(left, ", ")).At(lineOf(i), 0))
			}
		}
	}
	return out
}

// unknownCodes reports error codes a line names that neither the contract
// nor the package's runtime knows (masked is the line with code masked).
func unknownCodes(d *document, i int, line, masked []rune, spans []span, f *facts, assigned map[string]bool) []diag.Diagnostic {
	if f.errorCodes == nil || !f.lang.stale.errorContext.MatchString(string(line)) {
		return nil
	}
	var names []codeName
	words := f.lang.stale.codeContext.MatchString(string(line))
	for _, cs := range spans {
		if settingNear(masked, cs) {
			continue // "服务端需配置 `SECRET_KEY`": a setting, not a code
		}
		names = append(names, codeName{string(line[cs.start+1 : cs.end-1]), words})
	}
	for _, m := range jsonCode.FindAllStringSubmatch(string(line), -1) {
		names = append(names, codeName{m[1], true})
	}
	return codeFindings(d, i, names, f, assigned)
}

// settingWord is a word that makes the name written as code next to it a
// setting of a server or the environment (SECRET_KEY, DATABASE_URL).
var settingWord = regexp.MustCompile(`配置|环境变量|变量|设置|(?i:\bconfig|\bsettings?\b|\benv\b|\benvironment\b|\bvariables?\b)`)

// settingNear reports whether a setting word stands within a few
// characters of the code span cs (masked is the line with code masked).
func settingNear(masked []rune, cs span) bool {
	return settingWord.MatchString(around(masked, cs, 8))
}

// around returns the reach characters of masked on each side of the code
// span cs, joined by a space.
func around(masked []rune, cs span, reach int) string {
	return string(masked[max(0, cs.start-reach):cs.start]) + " " + string(masked[cs.end:min(len(masked), cs.end+reach)])
}

// codeName is a name a line may use as an error code; word says whether
// a code of one word counts where it stands.
type codeName struct {
	name string
	word bool
}

// notCodes are the words of one part that documents write as code next to
// error codes without being one.
var notCodes = map[string]bool{"HTTP": true, "HTTPS": true, "JSON": true, "POST": true, "PATCH": true, "DELETE": true,
	"HEAD": true, "OPTIONS": true, "UUID": true, "TRUE": true, "FALSE": true, "NULL": true, "UTF8": true, "ASCII": true}

func codeFindings(d *document, i int, names []codeName, f *facts, assigned map[string]bool) []diag.Diagnostic {
	var out []diag.Diagnostic
	seen := map[string]bool{}
	for _, c := range names {
		n := c.name
		form := errorCodeForm.MatchString(n) || c.word && wordCodeForm.MatchString(n) && !notCodes[n]
		if !form || seen[n] || f.errorCodes[n] || f.isVariable(n) || assigned[n] {
			continue
		}
		seen[n] = true
		out = append(out, RuleDocUnknownErrorCode.New(d.file,
			"names the error code %s, which neither the contract nor the package's runtime produces: name a code the contract records or the runtime returns", code(n)).At(lineOf(i), 0))
	}
	return out
}

// unknownTools reports a name written as code that the line calls a Tool
// (a heading's, or next to Tool/工具/调用) but the contract has no Tool of.
func unknownTools(d *document, i int, line, masked []rune, spans []span, f *facts, isField map[string]bool) []diag.Diagnostic {
	heading := slices.ContainsFunc(d.Headings, func(h heading) bool { return h.Line == i })
	var out []diag.Diagnostic
	for _, cs := range spans {
		name := string(line[cs.start+1 : cs.end-1])
		if !toolNameForm.MatchString(name) || f.tool(name) != nil || isField[name] {
			continue
		}
		if !heading && !f.lang.stale.toolWords.MatchString(around(masked, cs, 6)) {
			continue
		}
		out = append(out, unknownTool(d, i, name, f))
	}
	return out
}

func unknownTool(d *document, i int, name string, f *facts) diag.Diagnostic {
	return RuleDocUnknownTool.New(d.file, "names the Tool %s, which the contract does not declare (its Tools: %s)",
		code(name), strings.Join(f.toolNames(), ", ")).At(lineOf(i), 0)
}

// fencedStatements checks the lines of code blocks: the error codes and
// the Tool of a JSON example.
func fencedStatements(d *document, i int, text string, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	if f.errorCodes != nil {
		var names []codeName
		for _, m := range jsonCode.FindAllStringSubmatch(text, -1) {
			names = append(names, codeName{m[1], true})
		}
		out = append(out, codeFindings(d, i, names, f, nil)...)
	}
	if argumentsKey.MatchString(text) {
		for _, m := range jsonToolName.FindAllStringSubmatch(text, -1) {
			if f.tool(m[1]) == nil && toolNameForm.MatchString(m[1]) {
				out = append(out, unknownTool(d, i, m[1], f))
			}
		}
	}
	return out
}

// isVariable reports whether name is an environment variable the package
// reads.
func (f *facts) isVariable(name string) bool {
	return name == f.dryRunVariable || slices.Contains(f.host, name)
}

// addSchemas records the properties of each Tool's input and output
// schemas from the derived schema contract.
func (f *facts) addSchemas(schemaContract *canonjson.Object) {
	entries, _ := schemaContract.At("capabilities").(canonjson.Array)
	for _, e := range entries {
		c, _ := e.(*canonjson.Object)
		if c == nil {
			continue
		}
		name, _ := c.At("toolName").(canonjson.String)
		if t := f.tool(string(name)); t != nil {
			schemaFields(c.At("inputSchema"), t.fields)
			schemaFields(c.At("outputSchema"), t.fields)
		}
	}
}
