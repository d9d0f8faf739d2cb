package compile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// ToolDocsFile is where a package's authored Tool prose lives.
const ToolDocsFile = "authoring/tool-docs.json"

// ToolDoc is the authored prose of one Tool: the title and description
// tools/list shows. Compile copies them; it never writes prose of its own.
type ToolDoc struct {
	Title       string
	Description string
	At          string // JSON Pointer of the entry in authoring/tool-docs.json
}

// ToolDocs maps Tool names to their prose.
type ToolDocs map[string]ToolDoc

// ReadToolDocs reads authoring/tool-docs.json of the package in dir. An
// absent file gives nil docs and no finding (every Tool then lacks its
// prose, which Compile reports); a file that is not a regular file, too
// large or malformed gives findings. err is for failures of the tool.
func ReadToolDocs(dir string) (ToolDocs, *diag.List, error) {
	data, err := pkgdir.ReadFile(filepath.Join(dir, filepath.FromSlash(ToolDocsFile)), 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &diag.List{}, nil
		}
		if d, ok := pkgdir.ReadFinding(ToolDocsFile, err); ok {
			l := &diag.List{}
			l.Add(d)
			return nil, l, nil
		}
		return nil, &diag.List{}, fmt.Errorf("reading %s: %w", ToolDocsFile, err)
	}
	docs, l := DecodeToolDocs(ToolDocsFile, data)
	return docs, l, nil
}

// DecodeToolDocs decodes tool-docs JSON: an object mapping each Tool name
// to {"title": …, "description": …}. Entries that break that shape are
// findings and are left out; the docs are nil only when the JSON itself
// cannot be read.
func DecodeToolDocs(file string, data []byte) (ToolDocs, *diag.List) {
	l := &diag.List{}
	v, err := canonjson.Decode(data)
	if err != nil {
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			l.Add(se.Diagnostic(file))
		} else {
			l.Add(canonjson.RuleSyntax.New(file, "%v", err))
		}
		return nil, l
	}
	root, ok := v.(*canonjson.Object)
	if !ok {
		l.Add(RuleToolDocsInvalid.New(file, "must be an object mapping each Tool name to {title, description}, not %s", canonjson.TypeName(v)))
		return nil, l
	}
	docs := ToolDocs{}
	for tool, e := range root.All() {
		at := diag.Pointer(tool)
		entry, ok := e.(*canonjson.Object)
		if !ok {
			l.Add(RuleToolDocsInvalid.New(file, "the entry of %q must be an object {title, description}, not %s", tool, canonjson.TypeName(e)).AtPointer(at))
			continue
		}
		doc := ToolDoc{At: at}
		for key, fv := range entry.All() {
			s, isString := fv.(canonjson.String)
			switch {
			case key != "title" && key != "description":
				l.Add(RuleToolDocsInvalid.New(file, "unknown member %q: an entry holds only title and description", key).AtPointer(diag.Pointer(tool, key)))
			case !isString:
				l.Add(RuleToolDocsInvalid.New(file, "%s must be a string, not %s", key, canonjson.TypeName(fv)).AtPointer(diag.Pointer(tool, key)))
			case key == "title":
				doc.Title = string(s)
			default:
				doc.Description = string(s)
			}
		}
		docs[tool] = doc
	}
	return docs, l
}
