package skillmd

import (
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

// FuzzParse checks Parse and Check on arbitrary input: no panic, every
// finding registered and positioned on a line of the file, and the same
// answer twice.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		validSkill,
		strings.ReplaceAll(validSkill, "\n", "\r\n"),
		skill("name: a\ndescription: b: c\n", ""),
		skill("name: [a\ndescription: b\n", ""),
		skill("? [a]\n: b\n<<: {x: 1}\nname: &n x\ndescription: *n\n", "[a](../b.md) ../c <img src='../d'>\n[e]: ../f\n"),
		skill("metadata:\n  v: 1.0\nallowed-tools: [1]\ncompatibility: ''\nlicense: 2\n", strings.Repeat("x\n", 501)),
		"---\n---\n",
		"\ufeff---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<14 {
			t.Skip("inputs are capped at 16 KiB to keep the fuzzer fast")
		}
		file := "skills/fuzz/SKILL.md"
		check := func() []diag.Diagnostic {
			s, diags := Parse(file, src)
			if s == nil && len(diags) != 1 {
				t.Fatalf("no Skill and %d findings", len(diags))
			}
			if s != nil {
				diags = append(diags, s.Check()...)
				diags = append(diags, CheckUnique([]*Skill{s, s})...)
			}
			return diags
		}
		diags := check()
		lines := len(splitLines(src)) + 1
		for _, d := range diags {
			if _, ok := diag.Lookup(d.Rule); !ok || d.File != file || d.Message == "" {
				t.Fatalf("malformed finding %+v", d)
			}
			if d.Line < 1 || d.Line > lines || d.Column < 0 {
				t.Fatalf("%s at %d:%d, file has %d lines", d.Rule, d.Line, d.Column, lines)
			}
		}
		if again := check(); !slices.Equal(diags, again) {
			t.Fatalf("not deterministic: %v then %v", diags, again)
		}
	})
}
