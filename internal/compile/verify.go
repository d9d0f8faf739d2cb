package compile

import (
	"bytes"

	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// RuleGeneratedEdited: the package's runtime is not what compile generates.
var RuleGeneratedEdited = diag.Register("COMPILE_GENERATED_EDITED", diag.Error,
	"a file compile generates (the Function core, the MCP adapter, a copied runtime asset) is missing or differs from what compile generates from the Portable Core and authoring/tool-docs.json")

// Verify compiles the Portable Core in memory and compares every file
// compile produces with the package's, read through read (false when the
// package has no such regular file). Compile is deterministic, so any
// difference is an edit: the finding names the file and the first line
// that differs. A package whose contract does not compile cannot hold what
// compile generates, and is one finding. toolDocs is
// authoring/tool-docs.json, nil when the package has none.
func Verify(in *derive.Inputs, toolDocs []byte, read func(path string) ([]byte, bool)) []diag.Diagnostic {
	var docs ToolDocs
	if toolDocs != nil {
		var list *diag.List
		docs, list = DecodeToolDocs(ToolDocsFile, toolDocs)
		if list.HasErrors() {
			return []diag.Diagnostic{RuleGeneratedEdited.New(ToolDocsFile,
				"%s is not valid (%d error(s); run code2skill compile), so the runtime cannot be compared with what compile generates", ToolDocsFile, errorCount(list))}
		}
	}
	res, list := Compile(&Inputs{Core: in, ToolDocs: docs})
	if !res.Compiled() {
		return []diag.Diagnostic{RuleGeneratedEdited.New(FunctionCoreFile,
			"the contract does not compile (%d reason(s); run code2skill compile), so the runtime cannot be what compile generates", errorCount(list))}
	}
	var out []diag.Diagnostic
	for _, f := range res.Files {
		data, ok := read(f.Path)
		switch {
		case !ok:
			out = append(out, RuleGeneratedEdited.New(f.Path, "%s is missing; compile generates it", f.Path))
		case !bytes.Equal(data, f.Data):
			line, col := firstDifference(data, f.Data)
			out = append(out, RuleGeneratedEdited.New(f.Path,
				"differs from what compile generates from the Portable Core from this line on; generated code is never edited by hand: change the contract or authoring/tool-docs.json and run code2skill compile").At(line, col))
		}
	}
	return out
}

// firstDifference returns the 1-based line and byte column of the first
// byte where got differs from want.
func firstDifference(got, want []byte) (line, col int) {
	n := min(len(got), len(want))
	i := 0
	for i < n && got[i] == want[i] {
		i++
	}
	start := bytes.LastIndexByte(got[:i], '\n') + 1
	return bytes.Count(got[:i], []byte{'\n'}) + 1, i - start + 1
}

func errorCount(l *diag.List) int {
	n, _ := l.Counts()
	return n
}
