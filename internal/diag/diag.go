// Package diag defines the findings every code2skill command reports: a
// Diagnostic carries a stable rule ID, a severity, the file it concerns and,
// where known, a line/column or an RFC 6901 JSON Pointer into that file.
//
// Rules are registered once, at package initialisation, by the package that
// checks them:
//
//	var RuleMissingFile = diag.Register("CORE_LAYOUT_MISSING_FILE", diag.Error,
//		"a file core-export-v1 requires is missing")
//
//	list.Add(RuleMissingFile.New("MCP-SETUP.md", "required file is missing"))
//
// Rule IDs are never renamed or reused; "code2skill rules" prints the registry.
package diag

import (
	"fmt"
	"strings"
)

// Severity says how much a finding weighs. Errors make a command fail;
// warnings and notes are reported but do not change the exit code.
type Severity uint8

const (
	Error Severity = iota + 1
	Warning
	Info
)

// String returns "error", "warning" or "info".
func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Info:
		return "info"
	}
	return fmt.Sprintf("severity(%d)", uint8(s))
}

// MarshalText encodes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Diagnostic is one finding.
type Diagnostic struct {
	Rule     string   // registered rule ID, e.g. "CORE_PACKAGE_JSON_TYPE"
	Severity Severity // copied from the rule
	File     string   // slash-separated, relative to the package root; "" for the package as a whole
	Pointer  string   // RFC 6901 JSON Pointer into File, "" when not applicable
	Line     int      // 1-based; 0 when unknown
	Column   int      // 1-based, in bytes; 0 when unknown
	Message  string   // one line: no location prefix, no trailing period
	// Detail is optional supporting text shown under the finding, such as
	// the tail of a failing test run. It may span several lines.
	Detail string
}

// WithDetail returns d with supporting text.
func (d Diagnostic) WithDetail(detail string) Diagnostic {
	d.Detail = detail
	return d
}

// At returns d with a line and column.
func (d Diagnostic) At(line, column int) Diagnostic {
	d.Line, d.Column = line, column
	return d
}

// AtPointer returns d with a JSON Pointer.
func (d Diagnostic) AtPointer(pointer string) Diagnostic {
	d.Pointer = pointer
	return d
}

// Location renders where the finding is: "file:line:col", "file#/pointer",
// "file", or "" when the finding concerns the package as a whole. Control
// characters in the file name or pointer are escaped (see Escape).
func (d Diagnostic) Location() string {
	var b strings.Builder
	b.WriteString(Escape(d.File))
	switch {
	case d.Line > 0:
		fmt.Fprintf(&b, ":%d", d.Line)
		if d.Column > 0 {
			fmt.Fprintf(&b, ":%d", d.Column)
		}
	case d.Pointer != "":
		b.WriteString("#")
		b.WriteString(Escape(d.Pointer))
	}
	return b.String()
}

// String renders the finding the way the text printer does:
// "file:line:col: error: message [RULE_ID]", on one line whatever the
// message holds: control characters are escaped (see Escape).
func (d Diagnostic) String() string {
	loc := d.Location()
	if loc != "" {
		loc += ": "
	}
	return fmt.Sprintf("%s%s: %s [%s]", loc, d.Severity, Escape(d.Message), d.Rule)
}
