package skillmd

import (
	"strings"
	"testing"
)

// BenchmarkCheck measures Parse and Check on a SKILL.md with a full
// frontmatter and a 300-line body of prose, links and code.
func BenchmarkCheck(b *testing.B) {
	var body strings.Builder
	for i := range 60 {
		body.WriteString("## Step\n\nCall `reserve_plot` with the plot the member chose; see [the rules](references/rules.md).\n")
		if i%10 == 0 {
			body.WriteString("```sh\nnode mcp-tool/index.mjs\n```\n")
		} else {
			body.WriteString("Then confirm the reservation number with the member.\n\n")
		}
	}
	src := []byte(strings.Replace(validSkill, "# Reserve a plot\n", "# Reserve a plot\n"+body.String(), 1))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s, diags := Parse("skills/reserve-plot/SKILL.md", src)
		if s == nil || len(diags) > 0 {
			b.Fatal(diags)
		}
		if diags := s.Check(); len(diags) > 0 {
			b.Fatal(diags)
		}
	}
}
