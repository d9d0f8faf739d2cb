package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/vectors"
)

func vectorsCmd() *command {
	c := &command{
		name:    "vectors",
		summary: "prove each capability's behaviour offline with vectors derived from the contract",
		args:    "<pkg> --out DIR",
		about: `Derives the behaviour checks of every capability of a strict package from
its canonical-contract.json (the minimum the contract implies plus the
checks it declares) and the bypass checks of every workflow, and runs the
vectors that prove them: all in one node process, in the sandbox, in a
detached copy of the package, where each Function only sees a counted mock
context.dispatch. Nothing reaches a network.

Per capability it checks valid and invalid calls (zero dispatches), the
error envelope through the package's normaliser, the exact request of
every HTTP step and the response mapping, non-accepted statuses, unknown
write outcomes, backend business errors, dynamic values, conditional
rules (each branch active and inactive), optional-upstream omission,
attachment resolution and the attachment request field, derived
compositions, goal state, and that the MCP adapter's dry-run dispatches
nothing and promises exactly the request the real call sends. A check no
vector can prove is reported as uncovered, with its reason: it is never
counted as passed.

It writes, under DIR (which must not be inside the package: evidence is
not part of the portable package):

  vector-evidence/<phase>--<capabilityId|workflowId>--<checkId>.json
  vector-summary.json

Both are replaced on each run; DIR may hold other files, but
vector-evidence/ must hold nothing else than evidence.`,
		exits: `Exit codes:
  0  every check that could be run passed
  1  a check failed, or the contract or a module has errors
  2  usage error (bad flags or arguments, --out inside the package or holding
     files code2skill did not write, a core-export-v1 package)
  3  the tool could not do its job (node missing, I/O failure)
`,
		topics: []string{"formats"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		out := fs.String("out", "", "the `DIR` the evidence and the summary are written to, outside the package (required)")
		callTimeout := addDurationFlag(fs, "call-timeout", vectors.DefaultTimeout, "each call of a Function")
		format := addFindingsFormatFlag(fs)
		fs.deprecate("timeout", "call-timeout")
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		dir, code, ok := packageDir(stdio, c, pos)
		if !ok {
			return code
		}
		if code, ok := strictPackage(stdio, c, dir); !ok {
			return code
		}
		if *out == "" {
			return usageError(stdio, c, "--out DIR is required")
		}
		if err := checkVectorsOut(dir, *out); err != nil {
			return usageError(stdio, c, "%v", err)
		}

		res, err := vectors.Run(ctx, dir, vectors.Options{Timeout: *callTimeout, Progress: stdio.Progress})
		switch {
		case errors.Is(err, sandbox.ErrNotFound):
			fmt.Fprintf(stdio.Err, "code2skill vectors: node is not installed or not on PATH: %v\n", err)
			return ExitFailure
		case err != nil:
			fmt.Fprintf(stdio.Err, "code2skill vectors: %v\n", err)
			return ExitFailure
		}
		if len(res.Files) > 0 {
			if err := writeVectors(*out, res.Files); err != nil {
				fmt.Fprintf(stdio.Err, "code2skill vectors: writing %s: %v\n", *out, err)
				return ExitFailure
			}
		}
		status := diag.StatusPassed
		if res.Diagnostics.HasErrors() {
			status = diag.StatusFailed
		}
		report := &diag.Report{Command: "vectors", Status: status, List: res.Diagnostics,
			Summary: vectorsSummaryOf(res, *out), Line: vectorsLine(dir, *out, res, status), Roots: []string{dir}, Anchor: contractAnchor}
		return printReport(stdio, format, report)
	}
	return c
}

// evidenceName matches the files vectors writes into vector-evidence/.
var evidenceName = regexp.MustCompile(`^(behavior|bypass)--[^/]+--[^/]+\.json$`)

// checkVectorsOut refuses an output directory inside the package, and one
// whose vector-evidence/ or vector-summary.json code2skill would replace
// without having written it.
func checkVectorsOut(pkg, out string) error {
	p, err := resolveExisting(pkg)
	if err != nil {
		return err
	}
	o, err := resolveExisting(out)
	if err != nil {
		return err
	}
	if rel, err := filepath.Rel(p, o); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
		return fmt.Errorf("--out %s is inside the package %s: vectors evidence is not part of the portable package; write it elsewhere", out, pkg)
	}
	evidence := filepath.Join(out, vectors.EvidenceDir)
	if fi, err := os.Lstat(evidence); err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory code2skill wrote; choose another --out", evidence)
		}
		entries, err := os.ReadDir(evidence)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if !e.Type().IsRegular() || !evidenceName.MatchString(e.Name()) {
				return fmt.Errorf("%s holds %s, which code2skill did not write; choose another --out", evidence, e.Name())
			}
		}
	}
	summary := filepath.Join(out, vectors.SummaryFile)
	if fi, err := os.Lstat(summary); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file; choose another --out", summary)
	}
	return nil
}

// resolveExisting returns the absolute path of p with symbolic links
// resolved, for as much of it as exists.
func resolveExisting(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for cur := abs; ; cur = filepath.Dir(cur) {
		// What cannot be resolved (absent, or below a file) is taken as
		// written; writing there fails later, as a failure of the tool.
		if resolved, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{resolved}, rest...)...), nil
		}
		if filepath.Dir(cur) == cur {
			return abs, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
	}
}

// writeVectors replaces vector-evidence/ whole, then writes the summary.
func writeVectors(out string, files []atomicfile.File) error {
	var evidence []atomicfile.File
	var summary atomicfile.File
	for _, f := range files {
		if rel, ok := strings.CutPrefix(f.Path, vectors.EvidenceDir+"/"); ok {
			evidence = append(evidence, atomicfile.File{Path: rel, Data: f.Data, Perm: f.Perm})
		} else {
			summary = f
		}
	}
	if err := atomicfile.ReplaceDir(filepath.Join(out, vectors.EvidenceDir), evidence); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(out, summary.Path), summary.Data, summary.Perm)
}

// vectorsSummary is the summary object of the JSON report.
type vectorsSummary struct {
	diag.Counts
	Candidate     string          `json:"candidate"`
	ContractID    string          `json:"contractId"`
	Passed        int             `json:"passed"`
	Failed        int             `json:"failed"`
	Uncovered     int             `json:"uncovered"`
	Calls         int             `json:"calls"`
	NodeProcesses int             `json:"nodeProcesses"`
	Out           string          `json:"out"`
	Checks        []vectorsResult `json:"checks"`
}

type vectorsResult struct {
	CheckID      string `json:"checkId"`
	CapabilityID string `json:"capabilityId,omitempty"`
	WorkflowID   string `json:"workflowId,omitempty"`
	Phase        string `json:"phase"`
	Status       string `json:"status"`
	Detail       string `json:"detail"`
	Evidence     string `json:"evidence"`
}

func vectorsSummaryOf(res *vectors.Result, out string) *vectorsSummary {
	s := &vectorsSummary{Counts: diag.CountsOf(res.Diagnostics), Candidate: res.Candidate, ContractID: res.ContractID,
		Calls: res.Calls, NodeProcesses: res.NodeProcesses, Out: filepath.ToSlash(out), Checks: []vectorsResult{}}
	s.Passed, s.Failed, s.Uncovered = res.Counts()
	for _, c := range res.Checks {
		s.Checks = append(s.Checks, vectorsResult{CheckID: c.CheckID, CapabilityID: c.CapabilityID, WorkflowID: c.WorkflowID,
			Phase: c.Phase, Status: c.Status, Detail: c.Detail, Evidence: c.Evidence})
	}
	return s
}

func vectorsLine(dir, out string, res *vectors.Result, status string) string {
	if len(res.Checks) == 0 {
		return fmt.Sprintf("%s: %s: nothing was run", dir, status)
	}
	passed, failed, uncovered := res.Counts()
	return fmt.Sprintf("%s: %s: %d checks passed, %d failed, %d uncovered (%d calls, %d node process(es)); evidence in %s",
		dir, status, passed, failed, uncovered, res.Calls, res.NodeProcesses, filepath.ToSlash(out))
}
