package compile

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzDecodeToolDocs: any bytes decode to docs or findings, never a panic;
// the docs are nil only when the JSON itself is unreadable.
func FuzzDecodeToolDocs(f *testing.F) {
	seed, err := os.ReadFile(filepath.Join("testdata", "reference", "authoring", "tool-docs.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"a": {"title": 1}, "b": []}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, list := DecodeToolDocs(ToolDocsFile, data)
		if docs == nil && !list.HasErrors() {
			t.Fatal("no docs and no finding saying why")
		}
		for name, d := range docs {
			if d.At == "" {
				t.Fatalf("entry %q has no pointer", name)
			}
		}
	})
}
