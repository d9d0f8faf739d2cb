package probe

import (
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

// TestProjection: a success of a strict package carries structuredContent
// as an object, with the same JSON as text. The TypeScript SDK server
// refuses to send any other structuredContent, so a server cannot be made
// to send one; the check is fed the results directly.
func TestProjection(t *testing.T) {
	for _, tc := range []struct {
		name, raw string
		want      []string
	}{
		{"an object and its text", `{"structuredContent": {"a": 1}, "content": [{"type": "text", "text": "{\"a\":1}"}], "isError": false}`, nil},
		{"an array", `{"structuredContent": [{"a": 1}], "content": [{"type": "text", "text": "[{\"a\":1}]"}], "isError": false}`, []string{RuleStructured.ID}},
		{"none", `{"content": [{"type": "text", "text": "{\"a\":1}"}], "isError": false}`, []string{RuleStructured.ID}},
		{"another text", `{"structuredContent": {"a": 1}, "content": [{"type": "text", "text": "{\"a\":2}"}], "isError": false}`, []string{RuleText.ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &prober{exp: &expectations{strict: true}, result: &Result{Diagnostics: &diag.List{}}}
			r, err := parseResult([]byte(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			ok := p.projection(&Case{File: "calls.json", Name: "list_sample_notes"}, r)
			if got := p.result.Diagnostics.RuleIDs(); !slices.Equal(got, tc.want) || ok != (len(tc.want) == 0) {
				t.Errorf("ok %v, rules %v, want %v", ok, got, tc.want)
			}
		})
	}
}
