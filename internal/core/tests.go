package core

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// TestCounts summarises a node --test run.
type TestCounts struct {
	Tests     int `json:"tests"`
	Passed    int `json:"passed"`
	Failed    int `json:"failed"`
	Cancelled int `json:"cancelled"`
	Skipped   int `json:"skipped"`
	Todo      int `json:"todo"`
}

// testEnv is what the package's tests see besides the sandbox allowlist: no
// real request may leave, and a write Tool must stay in dry-run even if a
// test forgets its fetch mock.
var testEnv = []string{contract.DefaultDryRunVariable + "=1", "CI=1", "NO_COLOR=1"}

// tailLines is how much of a failing run's output a finding shows.
const tailLines = 40

// runTests runs the package's test files with node --test in the sandbox.
func (c *checker) runTests(ctx context.Context, files []string) {
	cov, err := newCoverageDir()
	if err != nil {
		c.failure(err)
		return
	}
	defer cov.remove()
	argv := append([]string{"node", "--test", "--test-reporter=tap"}, files...)
	res, err := sandbox.Run(ctx, argv, sandbox.Options{
		Dir:     c.pkg.Dir(),
		Env:     append(slices.Clip(testEnv), cov.env()),
		Timeout: c.opts.testTimeout(),
		Binds:   append(c.binds(), cov.bind()),
	})
	if err != nil {
		c.failure(fmt.Errorf("running the package tests: %w", err))
		return
	}
	c.noteIsolation(res.Isolation)
	c.mu.Lock()
	// node --test starts one child per test file besides itself.
	c.result.NodeProcesses += 1 + len(files)
	c.mu.Unlock()

	tap := parseTAP(res.Stdout)
	counts := tap.Counts
	// Node 20 reports a test file that ran no test as one passing test
	// named by the file's path: a file that defines none, or one that
	// exited (process.exit(0)) before the tests it declares ran. Neither
	// is a test.
	declared, exited := 0, false
	for _, f := range files {
		declared += c.declared[f]
		abs := filepath.Join(c.pkg.Dir(), filepath.FromSlash(f))
		for _, r := range tap.Results {
			if r.Indent != 0 || !r.OK || r.Name != abs {
				continue
			}
			counts.Tests--
			counts.Passed--
			if n := c.declared[f]; n > 0 {
				exited = true
				c.add(RuleTestsNotRun.New(f, "the file declares %s, but node --test reported none of them: it ended before they ran (an early process.exit?)", plural(n, "test")))
			} else {
				c.add(RuleTestsEmptyFile.New(f, "the file defines no test"))
			}
		}
	}
	c.mu.Lock()
	c.result.TestCounts = &counts
	c.mu.Unlock()

	stderr := ""
	if len(res.Stderr) > 0 {
		stderr = "stderr:\n" + tail(res.Stderr, tailLines)
	}
	switch {
	case res.TimedOut:
		c.add(RuleTestsTimeout.New("tests", "node --test did not finish within %s and was stopped; raise the limit with %s", c.opts.testTimeout().Round(time.Second), timeoutFlag).
			WithDetail(joinNonEmpty(tail(res.Stdout, tailLines), stderr)))
	case res.ExitCode != 0 || counts.Failed > 0 || counts.Cancelled > 0:
		failed := tap.failures()
		var names, blocks []string
		for _, f := range failed {
			names = append(names, strings.TrimPrefix(f.Name, c.pkg.Dir()+string(filepath.Separator)))
			blocks = append(blocks, "not ok - "+f.Name)
			blocks = append(blocks, f.Block...)
		}
		msg := fmt.Sprintf("node --test exited with status %d: %d of %d tests failed", res.ExitCode, counts.Failed+counts.Cancelled, counts.Tests)
		if len(names) > 0 {
			msg += ": " + summarizeNames(names)
		}
		detail := tail(res.Stdout, tailLines)
		if len(blocks) > 0 {
			detail = tail([]byte(strings.Join(blocks, "\n")), 3*tailLines)
		}
		c.add(RuleTestsFailed.New("tests", "%s", msg).WithDetail(joinNonEmpty(detail, stderr)))
	case counts.Tests <= 0:
		c.add(RuleTestsNone.New("tests", "the test files ran no test; a green run that tests nothing proves nothing"))
	case counts.Tests == counts.Skipped+counts.Todo:
		c.add(RuleTestsNone.New("tests", "all %s were skipped or marked todo; a green run that tests nothing proves nothing", plural(counts.Tests, "test")))
	case !exited && counts.Tests < declared:
		c.add(RuleTestsNotRun.New("tests", "node --test reported %s, but the test files declare at least %d; some stopped before their tests ran", plural(counts.Tests, "test"), declared))
	}
	if !c.hasFindings(RuleTestsTimeout, RuleTestsFailed, RuleTestsNone, RuleTestsNotRun) {
		// What passing tests executed: coverage findings say what they
		// never did.
		c.judgeCoverage(cov)
	}
	if c.hasFindings(RuleTestsTimeout, RuleTestsFailed, RuleTestsNone, RuleTestsNotRun, RuleTestsFunctionNotRun, RuleTestsRequestNotAnswered) {
		c.result.Tests = StageFailed
	} else {
		c.result.Tests = StagePassed
	}
}

// plural renders a count and a noun: "1 test", "2 tests".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// summarizeNames joins test names, naming at most five.
func summarizeNames(names []string) string {
	const most = 5
	if len(names) > most {
		names = append(names[:most:most], fmt.Sprintf("and %d more", len(names)-most))
	}
	return strings.Join(names, "; ")
}

func joinNonEmpty(parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, "\n")
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
