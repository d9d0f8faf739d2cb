package strict

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

// FuzzDocumentRules runs the rules of every document over arbitrary text:
// they must not panic, and every finding must carry a registered rule and a
// line inside the document.
func FuzzDocumentRules(f *testing.F) {
	for i, file := range documentFiles {
		f.Add(i, referenceDoc(f, file))
	}
	f.Add(0, "---\nname: x\n---\n## `save_sample_draft`\n`requestData` 可选 ``` ` 只读 `submit_sample_request` 会自动重试")
	facts := referenceFacts(f)
	f.Fuzz(func(t *testing.T, which int, text string) {
		if len(text) > 64<<10 {
			return
		}
		file := documentFiles[(which%len(documentFiles)+len(documentFiles))%len(documentFiles)]
		lines := strings.Count(strings.ReplaceAll(text, "\r\n", "\n"), "\n") + 1
		for _, d := range checkDoc(file, text, facts) {
			if _, ok := diag.Lookup(d.Rule); !ok {
				t.Errorf("unregistered rule %s", d.Rule)
			}
			if d.Line < 0 || d.Line > lines {
				t.Errorf("%s: line %d outside the document's %d lines", d.Rule, d.Line, lines)
			}
		}
	})
}
