package diag

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Rule is a registered check: a stable ID, the severity of its findings and a
// one-line purpose shown by "code2skill rules".
type Rule struct {
	ID       string
	Severity Severity
	Purpose  string
}

// New returns a finding of this rule about file. The message is formatted
// with fmt.Sprintf semantics.
func (r *Rule) New(file, format string, args ...any) Diagnostic {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return Diagnostic{Rule: r.ID, Severity: r.Severity, File: file, Message: msg}
}

var (
	registryMu sync.RWMutex
	registry   = map[string]*Rule{}
	ruleIDRE   = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`)
)

// Register declares a rule. It is meant for package-level var blocks and
// panics on a malformed or duplicate ID, or an empty purpose, so that a
// mistake fails every test at start-up.
func Register(id string, severity Severity, purpose string) *Rule {
	if !ruleIDRE.MatchString(id) {
		panic(fmt.Sprintf("diag: malformed rule ID %q (want UPPER_SNAKE with a domain prefix)", id))
	}
	if severity < Error || severity > Info {
		panic(fmt.Sprintf("diag: rule %s has no valid severity", id))
	}
	if strings.TrimSpace(purpose) == "" || strings.Contains(purpose, "\n") {
		panic(fmt.Sprintf("diag: rule %s needs a one-line purpose", id))
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[id]; dup {
		panic(fmt.Sprintf("diag: rule %s registered twice", id))
	}
	r := &Rule{ID: id, Severity: severity, Purpose: purpose}
	registry[id] = r
	return r
}

// Lookup returns the registered rule with the given ID.
func Lookup(id string) (*Rule, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	r, ok := registry[id]
	return r, ok
}

// Rules returns every registered rule, sorted by ID.
func Rules() []*Rule {
	registryMu.RLock()
	out := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	registryMu.RUnlock()
	slices.SortFunc(out, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
	return out
}
