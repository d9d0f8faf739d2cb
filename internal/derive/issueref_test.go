package derive_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
)

// Every review item's issueRef is a pointer into the file it names, as the
// author wrote it: a missing-evidence item's points at the gap it details,
// whatever order the gaps are listed in (the canonical form keeps their
// order).
func TestIssueRefsPointIntoTheAuthorsContract(t *testing.T) {
	dirs, err := filepath.Glob("testdata/synthetic/*/input")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(filepath.Dir(dir)), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, contract.ContractFile))
			if err != nil {
				t.Fatal(err)
			}
			authored, err := canonjson.Decode(data)
			if err != nil {
				t.Fatal(err)
			}
			in, l := dirInputs(t, dir)
			requireNoFindings(t, l)
			var matrix canonjson.Value
			for _, v := range derive.Views(in) {
				if v.Path == derive.VerificationMatrixFile {
					matrix, _ = canonjson.Decode(v.Data)
				}
			}
			rows, _ := canonjson.Resolve(matrix, "/capabilities")
			n := 0
			for _, row := range rows.(canonjson.Array) {
				items, _ := canonjson.Resolve(row, "/reviewItems")
				for _, item := range items.(canonjson.Array) {
					kind, _ := canonjson.Resolve(item, "/kind")
					if kind != canonjson.String("missing-evidence") {
						continue
					}
					ref, _ := canonjson.Resolve(item, "/issueRef")
					file, pointer, _ := strings.Cut(string(ref.(canonjson.String)), "#")
					detail, _ := canonjson.Resolve(item, "/detail")
					got, ok := canonjson.Resolve(authored, pointer)
					if file != contract.ContractFile || !ok || got != detail {
						t.Errorf("%s points at %v, and its detail is %v", ref, got, detail)
					}
					n++
				}
			}
			t.Logf("%d missing-evidence item(s)", n)
		})
	}
}
