package jsmod

import "github.com/tdewolff/parse/v2/js"

// AST returns the module's syntax tree (github.com/tdewolff/parse/v2/js),
// for rule packages that read facts of their own from it. The tree belongs
// to the Module: read it, do not change it. Token bytes in it (literals,
// property names) are slices of the source, which Position locates.
func (m *Module) AST() *js.AST { return m.ast }

// Position returns where a token of the tree starts in the source, or the
// zero Pos when its bytes are not a slice of the source (a variable
// reference's bytes are those of its declaration).
func (m *Module) Position(tok []byte) Pos { return m.pos(tok) }

// StringValue returns the value of a string literal token, quotes included
// ("…" or '…'), with its escape sequences decoded.
func StringValue(tok []byte) (string, bool) { return stringValue(tok) }

// TemplateValue returns the value of a template literal token without
// substitutions (`…`), with its escape sequences decoded.
func TemplateValue(tok []byte) (string, bool) { return templateValue(tok) }
