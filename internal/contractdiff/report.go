package contractdiff

import (
	"fmt"
	"io"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Rules of the diff's findings: one per change, of the severity its class
// implies, for printers that report findings (SARIF, editors).
var (
	RuleBreaking   = diag.Register("DIFF_CHANGE_BREAKING", diag.Error, "the new contract breaks what a consumer of the old one relies on: a call, a result, a protection or a proof")
	RuleCompatible = diag.Register("DIFF_CHANGE_COMPATIBLE", diag.Warning, "the new contract means something else, compatibly: a capability, input, source or relaxation was added")
	RuleCosmetic   = diag.Register("DIFF_CHANGE_COSMETIC", diag.Info, "the new contract differs only in prose, presentation order or where evidence lives")
)

// Findings returns one finding per change, at its place in the new
// contract's file (the old one's for a removal): the files as the caller
// names them.
func (d *Diff) Findings(oldFile, newFile string) *diag.List {
	var l diag.List
	for _, c := range d.Changes {
		rule := map[Class]*diag.Rule{Breaking: RuleBreaking, Compatible: RuleCompatible, Cosmetic: RuleCosmetic}[c.Class]
		file := newFile
		if c.InOld {
			file = oldFile
		}
		l.Add(rule.New(file, "%s: %s (%s: %s)", c.Where, c.Summary(), c.Rule, c.Why).AtPointer(c.Pointer))
	}
	return &l
}

// Summary says what happened, with the values when they are short:
// "changed: false → true", "added", "moved: a.go#F → b.go#F".
func (c *Change) Summary() string {
	s := string(c.Kind)
	switch c.Kind {
	case Changed, Renamed, Moved:
		if b, a := brief(c.Before), brief(c.After); b != "" && a != "" {
			s += ": " + b + " → " + a
		}
	case Added:
		if a := brief(c.After); a != "" {
			s += ": " + a
		}
	case Removed:
		if b := brief(c.Before); b != "" {
			s += ": " + b
		}
	}
	return s
}

// brief renders a value when it is short enough to read inline.
func brief(v canonjson.Value) string {
	switch v.(type) {
	case nil:
		return ""
	case *canonjson.Object:
		return ""
	}
	s := string(canonjson.DigestForm(v))
	if len(s) > 60 {
		return ""
	}
	return s
}

// Side names one of the two contracts compared.
type Side struct {
	// Source says where the contract was read: a package, a file or
	// REV:PATH, as the user named it.
	Source     string `json:"source"`
	ContractID string `json:"contractId"`
}

// jsonChange is a change in the JSON report.
type jsonChange struct {
	Change
	Before canonjson.Value `json:"before,omitempty"`
	After  canonjson.Value `json:"after,omitempty"`
}

// Summary is the summary object of the JSON report.
type Summary struct {
	diag.Counts
	Old        Side   `json:"old"`
	New        Side   `json:"new"`
	Semantic   bool   `json:"semantic"`
	Breaking   int    `json:"breaking"`
	Compatible int    `json:"compatible"`
	Cosmetic   int    `json:"cosmetic"`
	Digest     string `json:"digest"`
	// Changes are every change, breaking first.
	Changes []jsonChange `json:"changes"`
}

// ReportSummary returns the JSON summary of the diff of old and new.
func (d *Diff) ReportSummary(old, new Side) *Summary {
	b, c, k := d.Counts()
	s := &Summary{Old: old, New: new, Semantic: d.Semantic(), Breaking: b, Compatible: c, Cosmetic: k,
		Digest: d.Digest(), Changes: []jsonChange{}}
	for _, ch := range d.Changes {
		s.Changes = append(s.Changes, jsonChange{Change: ch, Before: ch.Before, After: ch.After})
	}
	return s
}

// Line is the one summary line of the text report.
func (d *Diff) Line() string {
	b, c, k := d.Counts()
	if !d.Semantic() {
		if k == 0 {
			return fmt.Sprintf("diff %s: no change", d.ContractID)
		}
		return fmt.Sprintf("diff %s: no semantic change (%s)", d.ContractID, plural(k, "cosmetic change"))
	}
	return fmt.Sprintf("diff %s: %s (%d breaking, %d compatible), %d cosmetic; digest %s",
		d.ContractID, plural(b+c, "semantic change"), b, c, k, d.Digest())
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// WriteText prints one block per change, breaking first, then the
// summary line. Values from the contracts are escaped (diag.Escape).
func (d *Diff) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, c := range d.Changes {
		fmt.Fprintf(&b, "%-10s %s: %s\n", strings.ToUpper(string(c.Class)), diag.Escape(c.Where), diag.Escape(c.Summary()))
		fmt.Fprintf(&b, "%-10s %s [%s]\n", "", c.Why, c.Rule)
	}
	b.WriteString(diag.Escape(d.Line()))
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdown prints the diff as a Markdown section for a pull-request
// comment: a heading with the counts, then one table row per change.
func (d *Diff) WriteMarkdown(w io.Writer, old, new Side) error {
	var b strings.Builder
	br, co, cs := d.Counts()
	fmt.Fprintf(&b, "### Contract diff: `%s`\n\n", mdCode(d.ContractID))
	fmt.Fprintf(&b, "`%s` → `%s`\n\n", mdCode(old.Source), mdCode(new.Source))
	switch {
	case len(d.Changes) == 0:
		b.WriteString("No change.\n")
	case !d.Semantic():
		fmt.Fprintf(&b, "No semantic change; %s.\n\n", plural(cs, "cosmetic change"))
	default:
		fmt.Fprintf(&b, "**%d breaking**, %d compatible, %d cosmetic · digest `%s`\n\n", br, co, cs, d.Digest())
	}
	if len(d.Changes) > 0 {
		b.WriteString("| class | where | change | why |\n|---|---|---|---|\n")
		for _, c := range d.Changes {
			class := string(c.Class)
			if c.Class == Breaking {
				class = "**breaking**"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s (`%s`) |\n", class, mdCell(c.Where), mdCell(c.Summary()), mdCell(c.Why), c.Rule)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteMarkdownFindings says, as a Markdown section for a pull-request
// comment, why two contracts were not compared.
func WriteMarkdownFindings(w io.Writer, l *diag.List) error {
	var b strings.Builder
	b.WriteString("### Contract diff: not compared\n\n")
	for _, d := range l.Sorted() {
		loc := d.Location()
		if loc != "" {
			loc = "`" + mdCode(loc) + "`: "
		}
		fmt.Fprintf(&b, "- **%s** %s%s (`%s`)\n", d.Severity, loc, mdCell(d.Message), d.Rule)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCell makes text safe in a Markdown table cell: no line break, no
// unescaped pipe, and no markup from the contract taking effect.
func mdCell(s string) string {
	s = diag.Escape(s)
	r := strings.NewReplacer("|", `\|`, "\n", " ", "`", "'", "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`)
	return r.Replace(s)
}

// mdCode makes text safe inside a code span.
func mdCode(s string) string { return strings.ReplaceAll(diag.Escape(s), "`", "'") }
