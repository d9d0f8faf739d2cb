package strict

import (
	"testing"

	"github.com/code2skill/code2skill/internal/jsmod"
)

// BenchmarkDocumentRules runs every document rule over the four reference
// documents, without reading files: the in-process share of Validate that
// grows with the documents.
func BenchmarkDocumentRules(b *testing.B) {
	f := referenceFacts(b)
	docs := map[string][]byte{}
	for _, file := range documentFiles {
		docs[file] = []byte(referenceDoc(b, file))
	}
	read := func(file string) ([]byte, bool) { data, ok := docs[file]; return data, ok }
	b.ReportAllocs()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		if ds := checkDocuments(f, read); len(ds) > 0 {
			b.Fatalf("the reference documents do not pass: %v", ds)
		}
	}
}
