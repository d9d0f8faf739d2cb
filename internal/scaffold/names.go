package scaffold

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// snake turns a hyphenated id into snake case ("find-orders" →
// "find_orders"), upper-cased when upper is true.
func snake(id string, upper bool) string {
	s := strings.ReplaceAll(id, "-", "_")
	if upper {
		return strings.ToUpper(s)
	}
	return s
}

// sentence turns a hyphenated id into a readable title ("find-orders" →
// "Find orders").
func sentence(id string) string {
	s := strings.ReplaceAll(id, "-", " ")
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + s[n:]
}

// jsReserved are the words a JavaScript function may not be named (reserved
// words in modules, where strict mode applies).
var jsReserved = map[string]bool{
	"arguments": true, "await": true, "break": true, "case": true, "catch": true, "class": true,
	"const": true, "continue": true, "debugger": true, "default": true, "delete": true, "do": true,
	"else": true, "enum": true, "eval": true, "export": true, "extends": true, "false": true,
	"finally": true, "for": true, "function": true, "if": true, "implements": true, "import": true,
	"in": true, "instanceof": true, "interface": true, "let": true, "new": true, "null": true,
	"package": true, "private": true, "protected": true, "public": true, "return": true,
	"static": true, "super": true, "switch": true, "this": true, "throw": true, "true": true,
	"try": true, "typeof": true, "var": true, "void": true, "while": true, "with": true, "yield": true,
}

// jsFunctionName turns a hyphenated id (which starts with a letter) into a
// camel-case JavaScript identifier ("find-orders" → "findOrders"), adding
// "Goal" to a reserved word ("delete" → "deleteGoal").
func jsFunctionName(id string) string {
	parts := strings.Split(id, "-")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	name := strings.Join(parts, "")
	if jsReserved[name] {
		name += "Goal"
	}
	return name
}

// quoteJS returns s as a single-quoted JavaScript string literal. It is the
// only way the templates write a value into JavaScript source.
func quoteJS(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch r {
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\u2028', '\u2029':
			// Line terminators inside a literal are legal since ES2019 but
			// break older tools; escape them.
			b.WriteString(jsonEscape(r))
		default:
			if r < 0x20 || r == 0x7f {
				b.WriteString(jsonEscape(r))
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// jsonEscape returns the \uXXXX escape of r (r is in the Basic Multilingual
// Plane).
func jsonEscape(r rune) string {
	const hex = "0123456789abcdef"
	return `\u` + string([]byte{hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf]})
}

// quoteYAML returns s as a YAML double-quoted scalar. A JSON string is one,
// and unlike a plain scalar it cannot be misread when s holds ": " or "#".
func quoteYAML(s string) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}
