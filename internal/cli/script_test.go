package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/code2skill/code2skill/internal/diag"
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
		"code2skill": func() {
			keepReports(os.Getenv(reportsVariable))
			os.Exit(Main())
		},
		// The pipeline with compile, the vectors and finalize faked
		// (pipeline_fakes_test.go), for the scripts that test the
		// pipeline's own semantics.
		"code2skill-fakesteps": func() {
			pipelineSteps = fakePipelineSteps
			os.Exit(Main())
		},
	})
}

// reportsVariable, set in a script to a path PREFIX, makes each command the
// script runs keep its report as --format json and --format sarif would
// print it, in PREFIX.json and PREFIX.sarif, whatever format it prints: a
// script checks the text of a run that starts node and the JSON and SARIF
// of that same run, instead of running it once per format.
const reportsVariable = "CODE2SKILL_TEST_REPORTS"

// keepReports makes printReport keep every report under prefix
// (reportsVariable); nothing when prefix is empty.
func keepReports(prefix string) {
	if prefix == "" {
		return
	}
	alsoReport = func(r *diag.Report) error {
		for _, f := range []formatFlag{formatJSON, formatSARIF} {
			var b bytes.Buffer
			if err := writeReport(&b, f, r); err != nil {
				return err
			}
			if err := os.WriteFile(prefix+"."+string(f), b.Bytes(), 0o644); err != nil {
				return err
			}
		}
		return nil
	}
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
// examples).
func TestSlowScript(t *testing.T) {
	testtier.Slow(t)
	testscript.Run(t, scriptParams(t, "testdata/slow"))
}
