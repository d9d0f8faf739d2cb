package symbol

import (
	"regexp"
	"slices"
	"sort"
	"strings"
)

// The language-neutral reading of declarations. Each pattern's first group
// is the declared name; NAME stands for it.
var declarationPatterns = []string{
	// A declaring keyword: function f, def f, class C, const X, fn f, ...
	`(?m)(?:^|[^\w$.])(?:function\*?|func|def|fn|fun|sub|class|interface|trait|struct|enum|union|type|typedef|module|namespace|object|record|protocol|extension|impl|const|let|var|val|static)[ \t]+\*?[ \t]*(NAME)(?:[^\w$]|$)`,
	// A method at the start of a line whose body opens on it: f(a) {, async f() =>.
	`(?m)^[ \t]*(?:(?:` + modifiers + `)[ \t]+)*(NAME)[ \t]*(?:<[^>\n]*>)?[ \t]*\(.*(?:\{|=>)[ \t]*$`,
	// A property, field, key or assignment at the start of a line:
	// f: ..., "f": ..., X = ...
	`(?m)^[ \t]*(?:(?:` + modifiers + `)[ \t]+)*(?:this\.|self\.|exports\.|module\.exports\.)?["']?(NAME)["']?[ \t]*(?:\??:(?:[^:=]|$)|=(?:[^=>]|$))`,
	// A typed method or function: public Result f(Request r) {.
	`(?m)^[ \t]*(?:[\w$<>\[\],.?@]+[ \t]+)+(NAME)[ \t]*\([^;\n]*$`,
}

// modifiers may precede a declared name.
const modifiers = `export|default|public|private|protected|internal|static|async|override|final|abstract|readonly|virtual|declare|get|set|pub|open|inline|suspend|@[\w.]+`

// notDeclaring are words that precede a name in a statement, not in a
// declaration: "return f(x)" calls f.
var notDeclaring = []string{"return", "await", "new", "throw", "yield", "if", "else", "while", "for", "case", "typeof", "delete", "echo", "print", "go", "defer", "do", "not", "and", "or", "in", "is"}

// locateText finds a symbol by the language-neutral reading.
func locateText(src []byte, segs []string) Result {
	text := string(src)
	name := segs[len(segs)-1]
	if !word(name).MatchString(text) {
		return Result{Status: Missing}
	}
	decls := declarations(text, name)
	if len(segs) > 1 {
		container := segs[len(segs)-2]
		var inside []int
		for _, c := range declarations(text, container) {
			end := blockEnd(text, after(text, c, container))
			for _, d := range decls {
				if d > c && d <= end {
					inside = append(inside, d)
				}
			}
		}
		qualified := regexp.MustCompile(`(?:^|[^\w$])` + regexp.QuoteMeta(container) + `\.(?:prototype\.)?(` + regexp.QuoteMeta(name) + `)[ \t]*=(?:[^=]|$)`)
		for _, m := range qualified.FindAllStringSubmatchIndex(text, -1) {
			inside = append(inside, m[2])
		}
		if len(inside) > 0 {
			slices.Sort(inside)
			decls = slices.Compact(inside)
		}
	}
	if len(decls) == 0 {
		return Result{Status: Unrecognised}
	}
	starts := lineStarts(text)
	var spans []Span
	for _, d := range decls {
		s := Span{lineOf(starts, d), lineOf(starts, blockEnd(text, after(text, d, name)))}
		if len(spans) == 0 || spans[len(spans)-1] != s {
			spans = append(spans, s)
		}
	}
	return Result{Status: Declared, Spans: spans}
}

// word matches name as a whole word.
func word(name string) *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^\w$])` + regexp.QuoteMeta(name) + `(?:[^\w$]|$)`)
}

// declarations returns the offsets of the declarations of name, in order.
func declarations(text, name string) []int {
	var out []int
	for _, p := range declarationPatterns {
		re := regexp.MustCompile(strings.Replace(p, "NAME", regexp.QuoteMeta(name), 1))
		for _, m := range re.FindAllStringSubmatchIndex(text, -1) {
			at := m[2]
			if lastWord(text[:at]) != "" && slices.Contains(notDeclaring, lastWord(text[:at])) {
				continue
			}
			out = append(out, at)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// lastWord returns the word just before the end of s, on its line.
func lastWord(s string) string {
	s = strings.TrimRight(s, " \t")
	i := len(s)
	for i > 0 && (isWordByte(s[i-1])) {
		i--
	}
	return s[i:]
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// after returns the offset just after the declared name at i, and after
// the quote closing it when it is a quoted key.
func after(text string, i int, name string) int {
	end := i + len(name)
	if i > 0 && end < len(text) && (text[i-1] == '"' || text[i-1] == '\'') && text[end] == text[i-1] {
		end++
	}
	return end
}

// blockEnd returns the offset where the declaration whose name ends just
// before from ends: the brace closing its body, the end of its indented block
// (a line ending in a colon), or the end of its statement.
func blockEnd(text string, from int) int {
	depth, body := 0, false
	for i := from; i < len(text); i++ {
		switch c := text[i]; c {
		case '"', '\'', '`':
			i = stringEnd(text, i)
		case '/':
			switch {
			case strings.HasPrefix(text[i:], "//"):
				i = lineEnd(text, i) - 1
			case strings.HasPrefix(text[i:], "/*"):
				if j := strings.Index(text[i+2:], "*/"); j >= 0 {
					i += j + 3
				} else {
					return len(text) - 1
				}
			}
		case '{', '(', '[':
			depth++
			body = body || c == '{'
		case '}', ')', ']':
			depth--
			if depth < 0 || depth == 0 && body {
				return i
			}
		case ';':
			if depth == 0 && !body {
				return i
			}
		case '\n':
			if depth > 0 || body {
				continue
			}
			line := strings.TrimRight(text[lineStart(text, i-1):i], " \t\r")
			if strings.HasSuffix(line, ":") {
				return indentEnd(text, from, i)
			}
			if next := strings.TrimLeft(text[i+1:lineEnd(text, i+1)], " \t\r"); strings.HasPrefix(next, "{") {
				continue
			}
			return i - 1
		}
	}
	return len(text) - 1
}

// stringEnd returns the offset of the quote closing the string that opens
// at i; a single- or double-quoted string also ends at the end of its line.
func stringEnd(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch text[j] {
		case '\\':
			j++
		case q:
			return j
		case '\n':
			if q != '`' {
				return j - 1
			}
		}
	}
	return len(text) - 1
}

// indentEnd returns the end of the indented block of the declaration at
// from, whose header ends at nl: the last line before the first non-blank
// line indented no deeper than the declaration.
func indentEnd(text string, from, nl int) int {
	start := lineStart(text, from)
	indent := len(text[start:]) - len(strings.TrimLeft(text[start:], " \t"))
	end := nl - 1
	for i := nl + 1; i < len(text); {
		le := lineEnd(text, i)
		line := text[i:le]
		if strings.TrimSpace(line) != "" {
			if len(line)-len(strings.TrimLeft(line, " \t")) <= indent {
				break
			}
			end = le - 1
		}
		i = le + 1
	}
	return end
}

func lineStart(text string, i int) int {
	if i < 0 {
		return 0
	}
	return strings.LastIndexByte(text[:i+1], '\n') + 1
}

func lineEnd(text string, i int) int {
	if i >= len(text) {
		return len(text)
	}
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}

// lineStarts returns the offset of every line's first byte.
func lineStarts(text string) []int {
	out := []int{0}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			out = append(out, i+1)
		}
	}
	return out
}

// lineOf returns the 1-based line of offset i.
func lineOf(starts []int, i int) int {
	return sort.Search(len(starts), func(k int) bool { return starts[k] > i })
}
