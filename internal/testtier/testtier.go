// Package testtier splits the test suite into two tiers. The default
// `go test ./...` is the fast tier: everything a change must pass before it
// lands, in minutes on a small machine. The slow tier holds the end-to-end
// tests that install packages from a registry, cross-build, run third-party
// suites or sweep matrices of planted mistakes; it runs with
//
//	CODE2SKILL_TESTS=slow go test -timeout 30m -run '^TestSlow' ./...
//
// A slow test is a top-level test whose name starts with TestSlow and whose
// first statement is testtier.Slow(t), so that the one command above selects
// exactly the slow tier and the default run skips it, saying how to run it.
//
// The package also gives tests their time limits (budget.go): derived
// from the test's deadline, or a short wait scaled by a factor, never a
// constant, so that a busy machine makes the suite slower, not red; and
// the fixtures the tests of one binary share (shared.go), so that a costly
// run several tests judge is made once.
package testtier

import (
	"os"
	"strings"
	"testing"
)

// Variable names the environment variable that selects the slow tier.
const Variable = "CODE2SKILL_TESTS"

// Command is the command that runs the slow tier.
const Command = Variable + "=slow go test -timeout 30m -run '^TestSlow' ./..."

// Slow skips t unless the slow tier was asked for. It fails a test whose
// name does not start with TestSlow, which the tier's command would never
// select.
func Slow(t testing.TB) {
	t.Helper()
	if top, _, _ := strings.Cut(t.Name(), "/"); !strings.HasPrefix(top, "TestSlow") {
		t.Fatalf("%s is in the slow tier but its name does not start with TestSlow, so %q never runs it", top, Command)
	}
	if !SlowEnabled() {
		t.Skipf("slow tier: run with %s", Command)
	}
}

// SlowEnabled reports whether the slow tier was asked for.
func SlowEnabled() bool {
	return os.Getenv(Variable) == "slow"
}
