package compile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/condition"
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

// FuzzConditionJS: any JSON value translates or is refused, never a panic;
// and whatever translates is decided, true or false, by internal/condition
// for every set of arguments, which is what lets the Function treat it as
// an ordinary boolean.
func FuzzConditionJS(f *testing.F) {
	for _, c := range agreementConditions {
		f.Add([]byte(c))
	}
	f.Add([]byte(`{"operator": "and", "conditions": []}`))
	f.Add([]byte(`{"operator": "not", "condition": {"operator": "or", "operands": [{"path": ["a"], "operator": "in", "value": 1}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cond, err := canonjson.Decode(data)
		if err != nil {
			return
		}
		if _, err := conditionJS(cond, "input"); err != nil {
			return
		}
		for _, as := range agreementArguments {
			args, _ := canonjson.Decode([]byte(as))
			if got := condition.Eval(cond, condition.Values(args.(*canonjson.Object))); got == condition.Unknown {
				t.Fatalf("%s translates, but is Unknown over %s", data, as)
			}
		}
	})
}
