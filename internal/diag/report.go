package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// SchemaVersion is the version of the JSON report format. It changes only
// when a field is removed or changes meaning.
const SchemaVersion = 1

// Report statuses.
const (
	StatusPassed = "passed" // the command did its job and found no error
	StatusFailed = "failed" // the command did its job and found errors
	StatusError  = "error"  // the command could not do its job
)

// Report is what a command prints: its findings and one summary.
type Report struct {
	Command string // subcommand name, e.g. "validate"
	Status  string // StatusPassed, StatusFailed or StatusError
	List    *List
	// Summary is the command-specific summary object of the JSON form. It
	// should embed Counts so that every report carries the same counters.
	Summary any
	// Line is the one summary line of the text form.
	Line string
	// Where the findings' files are, for the printers that open them (the
	// SARIF form locates a JSON Pointer in its file). Roots are the
	// directories a finding's relative File may be relative to, tried in
	// order: the package first, then, for commands that also report on
	// files outside it, their directories ("." for a path as given on the
	// command line). Anchor is the file, relative to the first root, that
	// stands for the package when a finding concerns it as a whole
	// (package.json, canonical-contract.json).
	Roots  []string
	Anchor string
}

// Counts are the counters every summary carries.
type Counts struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// CountsOf returns the counters of a list.
func CountsOf(l *List) Counts {
	e, w := l.Counts()
	return Counts{Errors: e, Warnings: w}
}

// WriteText prints one line per finding, then the summary line. Whatever
// came from a package is escaped (see Escape): a finding is one line, its
// detail lines stay indented under it, and no control character reaches
// the terminal.
func (r *Report) WriteText(w io.Writer) error {
	var b bytes.Buffer
	for _, d := range r.list().Sorted() {
		b.WriteString(d.String())
		b.WriteByte('\n')
		if d.Detail != "" {
			for _, line := range strings.Split(strings.TrimRight(d.Detail, "\n"), "\n") {
				b.WriteString("    | ")
				b.WriteString(Escape(line))
				b.WriteByte('\n')
			}
		}
	}
	if r.Line != "" {
		b.WriteString(Escape(r.Line))
		b.WriteByte('\n')
	}
	_, err := w.Write(b.Bytes())
	return err
}

// jsonDiagnostic is the external form of a Diagnostic: the JSON keys are part
// of the report format and do not follow Go field names.
type jsonDiagnostic struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	File     string   `json:"file,omitempty"`
	Pointer  string   `json:"pointer,omitempty"`
	Line     int      `json:"line,omitempty"`
	Column   int      `json:"column,omitempty"`
	Detail   string   `json:"detail,omitempty"`
}

type jsonReport struct {
	SchemaVersion int              `json:"schemaVersion"`
	Command       string           `json:"command"`
	Status        string           `json:"status"`
	Diagnostics   []jsonDiagnostic `json:"diagnostics"`
	Summary       any              `json:"summary"`
}

// WriteJSON prints the report as one versioned JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	ds := r.list().Sorted()
	out := jsonReport{
		SchemaVersion: SchemaVersion,
		Command:       r.Command,
		Status:        r.Status,
		Diagnostics:   make([]jsonDiagnostic, 0, len(ds)),
		Summary:       r.Summary,
	}
	if out.Summary == nil {
		out.Summary = CountsOf(r.list())
	}
	for _, d := range ds {
		out.Diagnostics = append(out.Diagnostics, jsonDiagnostic{
			Rule: d.Rule, Severity: d.Severity, Message: d.Message,
			File: d.File, Pointer: d.Pointer, Line: d.Line, Column: d.Column,
			Detail: d.Detail,
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encoding %s report: %w", r.Command, err)
	}
	return nil
}

func (r *Report) list() *List {
	if r.List == nil {
		return &List{}
	}
	return r.List
}
