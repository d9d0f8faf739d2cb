package core

import (
	"bufio"
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// tapReport is what code2skill reads from node --test's TAP output.
type tapReport struct {
	Counts  TestCounts
	Results []tapResult // every "ok"/"not ok" line, in output order
}

// tapResult is one test point.
type tapResult struct {
	Indent int    // nesting: 0 for a top-level test
	OK     bool   // "ok" rather than "not ok"
	Name   string // the description after " - ", without a directive
	Block  []string
}

var (
	tapPoint = regexp.MustCompile(`^( *)(not ok|ok) \d+(?: - (.*?))?(?: # (?:SKIP|TODO)\b.*)?$`)
	tapCount = regexp.MustCompile(`^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$`)
)

// parseTAP reads node's TAP reporter output: the test points with their
// YAML diagnostic blocks, and the summary counters it prints last.
func parseTAP(out []byte) tapReport {
	var r tapReport
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var inBlock bool
	for sc.Scan() {
		line := sc.Text()
		if inBlock {
			last := &r.Results[len(r.Results)-1]
			last.Block = append(last.Block, line)
			if strings.TrimSpace(line) == "..." {
				inBlock = false
			}
			continue
		}
		if m := tapPoint.FindStringSubmatch(line); m != nil {
			r.Results = append(r.Results, tapResult{Indent: len(m[1]), OK: m[2] == "ok", Name: m[3]})
			continue
		}
		if strings.TrimSpace(line) == "---" && len(r.Results) > 0 {
			inBlock = true
			last := &r.Results[len(r.Results)-1]
			last.Block = append(last.Block, line)
			continue
		}
		if m := tapCount.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[2])
			switch m[1] {
			case "tests":
				r.Counts.Tests = n
			case "pass":
				r.Counts.Passed = n
			case "fail":
				r.Counts.Failed = n
			case "cancelled":
				r.Counts.Cancelled = n
			case "skipped":
				r.Counts.Skipped = n
			case "todo":
				r.Counts.Todo = n
			}
		}
	}
	return r
}

// failures returns the failing test points. A failing suite repeats the
// failure of its subtests, so only the innermost failures are kept.
func (r tapReport) failures() []tapResult {
	var out []tapResult
	for i, res := range r.Results {
		if res.OK {
			continue
		}
		// TAP prints subtests before their parent, deeper indented.
		parentOfFailure := i > 0 && !r.Results[i-1].OK && r.Results[i-1].Indent > res.Indent
		if !parentOfFailure {
			out = append(out, res)
		}
	}
	return out
}
