package sarif

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// BenchmarkBuild builds the log of a report with a finding at every
// member of the reference contract (a few thousand JSON Pointers, each
// resolved in the file's bytes): the worst case of a contract that breaks
// every rule.
func BenchmarkBuild(b *testing.B) {
	dir := b.TempDir()
	data, err := os.ReadFile("../contract/testdata/reference/canonical-contract.json")
	if err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "canonical-contract.json"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	var l diag.List
	var walk func(v canonjson.Value, p string)
	walk = func(v canonjson.Value, p string) {
		l.Add(ruleMember.New("canonical-contract.json", "value at %s breaks a rule", p).AtPointer(p))
		switch c := v.(type) {
		case *canonjson.Object:
			for k, m := range c.All() {
				walk(m, p+"/"+diag.EscapeToken(k))
			}
		case canonjson.Array:
			for i, e := range c {
				walk(e, p+"/"+diag.Pointer(i)[1:])
			}
		}
	}
	walk(doc, "")
	r := &diag.Report{Command: "check-contract", Status: diag.StatusFailed, List: &l, Roots: []string{dir}}
	for b.Loop() {
		Build(r, Producer{Version: "devel"})
	}
	b.ReportMetric(float64(l.Len()), "findings/op")
}
