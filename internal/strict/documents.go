package strict

import "github.com/code2skill/code2skill/internal/diag"

// maxDocumentSize bounds how much of one document is read: the largest
// documents of a package are a few tens of kilobytes.
const maxDocumentSize = 4 << 20

// checkDocuments checks the four documents of a package against the facts.
// read returns a document's bytes, or ok false when it could not be read
// (the reader reports why).
func checkDocuments(f *facts, read func(file string) ([]byte, bool)) []diag.Diagnostic {
	var out []diag.Diagnostic
	if data, ok := read(SkillFile); ok {
		out = append(out, checkSkill(parseDocument(SkillFile, data), data, f)...)
	}
	if data, ok := read(MCPDocFile); ok {
		out = append(out, checkMCPDoc(parseDocument(MCPDocFile, data), f)...)
	}
	if data, ok := read(SetupFile); ok {
		out = append(out, checkSetup(parseDocument(SetupFile, data), f)...)
	}
	if data, ok := read(ContextFile); ok {
		out = append(out, checkContext(parseDocument(ContextFile, data), f)...)
	}
	return out
}
