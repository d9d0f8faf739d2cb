package cli

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/code2skill/code2skill/internal/diag"
)

func rulesCmd() *command {
	c := &command{
		name:    "rules",
		summary: "list every rule ID with its severity and purpose",
		args:    "[PREFIX]",
		about: `Lists every registered rule: its stable ID, the severity of its findings and
its one-line purpose. With PREFIX, only the rules whose ID starts with it
(case-insensitive), e.g. "code2skill rules CORE_"; a PREFIX no rule ID starts
with is a usage error. docs/rules.md lists them too.`,
		exits: `Exit codes:
  0  the rules were listed
  2  usage error (bad flags, a PREFIX no rule ID starts with)
`,
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		format := addFormatFlag(fs)
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		if len(pos) > 1 {
			return usageError(stdio, c, "at most one PREFIX")
		}
		var rules []*diag.Rule
		for _, r := range diag.Rules() {
			if len(pos) == 0 || strings.HasPrefix(r.ID, strings.ToUpper(pos[0])) {
				rules = append(rules, r)
			}
		}
		if len(rules) == 0 {
			return usageError(stdio, c, "no rule ID starts with %q; run code2skill rules to list them all", strings.ToUpper(pos[0]))
		}
		if *format == formatJSON {
			type jsonRule struct {
				ID       string        `json:"id"`
				Severity diag.Severity `json:"severity"`
				Purpose  string        `json:"purpose"`
			}
			out := struct {
				SchemaVersion int        `json:"schemaVersion"`
				Rules         []jsonRule `json:"rules"`
			}{SchemaVersion: diag.SchemaVersion, Rules: []jsonRule{}}
			for _, r := range rules {
				out.Rules = append(out.Rules, jsonRule{r.ID, r.Severity, r.Purpose})
			}
			return printJSON(stdio, "rules", out)
		}
		tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
		for _, r := range rules {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Severity, r.Purpose)
		}
		tw.Flush()
		return ExitPassed
	}
	return c
}
