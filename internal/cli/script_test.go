package cli

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/code2skill/code2skill/internal/testtier"
)

func TestMain(m *testing.M) {
	// The tests never reach the user's evidence key: in-process, the
	// configuration directory does not exist (a test that needs a key
	// sets its own); the scripts' commands get their work directory's.
	switch filepath.Base(os.Args[0]) {
	case "code2skill", "code2skill-fakesteps":
	default:
		os.Setenv("XDG_CONFIG_HOME", filepath.Join(string(filepath.Separator), "nonexistent", "code2skill-test-config"))
	}
	raiseLimits()
	testscript.Main(m, map[string]func(){
		"code2skill": func() { os.Exit(Main()) },
		// The pipeline with compile, the vectors and finalize faked
		// (pipeline_fakes_test.go), for the scripts that test the
		// pipeline's own semantics.
		"code2skill-fakesteps": func() {
			pipelineSteps = fakePipelineSteps
			os.Exit(Main())
		},
	})
}

// budgetVariable carries a script's time budget, what the test's deadline
// leaves when the script starts, to the commands it runs: their default
// time limits are raised to it (limitFloor).
const budgetVariable = "CODE2SKILL_TEST_BUDGET"

// raiseLimits raises the default time limits of a command a script runs to
// the script's budget.
func raiseLimits() {
	if d, err := time.ParseDuration(os.Getenv(budgetVariable)); err == nil && d > 0 {
		limitFloor = d
	}
}

// TestScript runs the CLI scripts in testdata/script. Run one with
// go test ./internal/cli -run 'TestScript/^validate_layout$'; keep its work
// directory with -testwork. CODE2SKILL_UPDATE=1 rewrites failing cmp
// expectations in place.
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams(t, "testdata/script"))
}

// TestSlowScript runs the CLI scripts of the slow tier, in testdata/slow:
// demo's install from the npm registry, and the flows that run node over
// and over (probe of core and strict packages, validate across isolation
// levels, init to validate, the strict flow, compile of the synthetic
// examples, the pipeline's tamper evidence).
func TestSlowScript(t *testing.T) {
	testtier.Slow(t)
	testscript.Run(t, scriptParams(t, "testdata/slow"))
}
