package diag

import (
	"cmp"
	"slices"
	"strings"
)

// List collects findings. The zero value is ready to use.
type List struct {
	items []Diagnostic
}

// Add appends findings.
func (l *List) Add(ds ...Diagnostic) { l.items = append(l.items, ds...) }

// Merge appends every finding of other.
func (l *List) Merge(other *List) {
	if other != nil {
		l.items = append(l.items, other.items...)
	}
}

// Len reports how many findings were added.
func (l *List) Len() int { return len(l.items) }

// Counts reports the number of errors and warnings among the findings.
func (l *List) Counts() (errors, warnings int) {
	for _, d := range l.items {
		switch d.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		}
	}
	return errors, warnings
}

// HasErrors reports whether any finding is an error.
func (l *List) HasErrors() bool {
	e, _ := l.Counts()
	return e > 0
}

// Has reports whether a finding of the given rule was added.
func (l *List) Has(rule *Rule) bool {
	return slices.ContainsFunc(l.items, func(d Diagnostic) bool { return d.Rule == rule.ID })
}

// RuleIDs returns the distinct rule IDs of the findings, sorted (nil when
// there are none): what a test compares to say which rules fired.
func (l *List) RuleIDs() []string {
	var ids []string
	for _, d := range l.items {
		ids = append(ids, d.Rule)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// Sorted returns the findings without duplicates, ordered by file, line,
// column, pointer, rule and message, so that output does not depend on the
// order in which checks ran. The result is never nil.
func (l *List) Sorted() []Diagnostic {
	out := slices.Clone(l.items)
	if out == nil {
		out = []Diagnostic{}
	}
	slices.SortStableFunc(out, compare)
	return slices.CompactFunc(out, func(a, b Diagnostic) bool { return a == b })
}

func compare(a, b Diagnostic) int {
	return cmp.Or(
		strings.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		strings.Compare(a.Pointer, b.Pointer),
		strings.Compare(a.Rule, b.Rule),
		strings.Compare(a.Message, b.Message),
		strings.Compare(a.Detail, b.Detail),
	)
}

// Relocate returns ds with every finding about the file from said to be
// about the file to instead: a check written for one runtime's entry
// point, reused for another's.
func Relocate(ds []Diagnostic, from, to string) []Diagnostic {
	out := make([]Diagnostic, len(ds))
	for i, d := range ds {
		if d.File == from {
			d.File = to
		}
		out[i] = d
	}
	return out
}
