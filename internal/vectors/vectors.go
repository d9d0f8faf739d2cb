// Package vectors proves, capability by capability, what the behaviour of a
// strict package's Function core can be shown to be offline: it derives the
// behaviour checks from the Canonical Contract (the minimum spec §8.1
// implies, plus the declared ones), runs the vectors that prove them in one
// node process, and judges the outcome in Go against the contract and the
// derived schemas, with a real JSON Schema library.
//
// # What runs
//
// Run copies the package into a temporary directory (without node_modules)
// and starts node once, in the sandbox (scrubbed environment, no network
// where the OS allows), with a small driver. The driver imports the
// package's function-core/index.mjs, portable-error-normalizer.mjs,
// portable-workflow-guard.mjs and mcp-tool/index.mjs, and makes the planned
// calls in order. A Function only ever sees a mock context.dispatch that
// records each call and answers from the planned responses. The adapter's
// mcp-tool/runtime.mjs is replaced, in the copy, by a stand-in that
// re-exports the package's own zod and records each registerTool, so that
// the Tool callbacks (dry-run branch included) run in the same process. A
// call that hangs is stopped after the time limit; a package that ends the
// process gets that call failed and node restarted for the rest, so one
// capability cannot take its neighbours' results with it.
//
// # What is checked
//
// For every capability (each a Function with the contract's §4 shape,
// async (input, context) returning {status, data} or throwing an error with
// code, details, retryable, outcomeKnown):
//
//	valid-input-and-output-contract   minimal valid arguments (sampled from the derived
//	                                  inputSchema, static value domains and conditional
//	                                  rules honoured) are accepted, each step dispatched
//	                                  once; the result has the accepted status, no
//	                                  forbidden key, every required path, and is valid
//	                                  against the derived outputSchema
//	invalid-input-is-rejected         an unexpected argument, each required input missing,
//	                                  each input breaking one keyword of its schema, each
//	                                  Function-enforced constraint broken: refused with zero
//	                                  dispatches (and valid arguments accepted, so that a
//	                                  Function refusing everything fails)
//	structured-error-recovery         the refusal, through the package's normaliser, has
//	                                  the error contract's envelope; a write refused before
//	                                  dispatch keeps a known outcome
//	exact-request-binding-and-        each step sends exactly the request its bindings build
//	success-status                    (method, URL with path bindings, headers, query, body,
//	                                  multipart); the output step's response is the result;
//	                                  a non-accepted status stops after one dispatch with a
//	                                  structured, non-retryable error
//	dynamic-values-are-not-frozen     two calls with different dynamic inputs and responses
//	                                  each carry their own values through
//	conditional-rules-cover-active-   each requiredWhen/forbiddenWhen condition, true and
//	and-inactive-branches             false, with the input present and missing
//	optional-upstream-omission-...    an input of unproven target requiredness left out is
//	                                  not sent, and the target's refusal is structured
//	attachment-resolution-failure-    without the Host's resolution nothing is dispatched
//	zero-dispatch
//	attachment-request-field-and-     the resolved content, never the raw grant, reaches each
//	metadata-contract                 content binding's field; metadata breaches are refused
//	unknown-write-outcome-is-non-     a write failing in transit is UNKNOWN_DISPATCH_OUTCOME,
//	retryable                         not retryable, not retried
//	backend-business-error-is-        a business refusal keeps a known outcome, not retryable,
//	structured                        and its category (business, or the contract's own)
//	goal-<g>-…                        goal state evaluated in Go (internal/goalstate)
//	derived-composition-preserves-…   the target of a derived composition still refuses an
//	                                  unexpected argument and, when guarded, dispatches
//	                                  nothing without its protected operation
//	dry-run-request-equals-real-      the adapter's dry-run dispatches nothing and returns
//	request                           the contract's envelope with validatedInput equal to
//	                                  the arguments, and the real callback dispatches exactly
//	                                  what the Function dispatches for them
//
// Every workflow gets bypass checks (phase bypass) on its entry Function; see
// workflows.go for what they prove and what they cannot.
//
// A deterministic-workflow write is called with a simulated trusted side: a
// guard from the package's own portable-workflow-guard.mjs protecting one
// operation whose expected values are the call's own. When such a Function
// hands context.dispatch to the guard (the guard's documented shape), the
// request is built by the runtime's dispatcher, not by the Function, and the
// request-level checks are uncovered, with that reason.
//
// A check no vector can prove (a declared check with a free-form name, a
// shape the sampler cannot satisfy) is uncovered, with its reason; it is
// never counted as passed.
package vectors

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/scratch"
)

// DefaultTimeout bounds each call of a vector.
const DefaultTimeout = 10 * time.Second

// Files the command writes under its output directory.
const (
	EvidenceDir = "vector-evidence"
	SummaryFile = "vector-summary.json"
)

// Options configure a run.
type Options struct {
	Timeout  time.Duration // per call; 0 means DefaultTimeout
	TempDir  string        // where the detached copy is made; "" means the system's
	Progress io.Writer     // a line per capability and workflow; nil for none
	// Core is the package's Portable Core when the command already loaded
	// it (derive.Load); nil loads it here.
	Core *derive.Core
}

// CheckResult is the outcome of one check.
type CheckResult struct {
	CheckID      string
	CapabilityID string // "" for a workflow check
	WorkflowID   string // "" for a capability check
	Phase        string // behavior or bypass
	Status       string // passed, failed or uncovered
	Detail       string
	Evidence     string // path of the evidence file, relative to the output directory
	EvidenceHash string // SHA-256 of the evidence file
}

// Result is what a run found.
type Result struct {
	Candidate     string // the package directory's name
	ContractID    string
	Checks        []*CheckResult
	NodeProcesses int
	Calls         int
	// Elapsed is the wall time of the run; Node the part node ran for
	// (starting, loading the package, the calls). Neither reaches a file.
	Elapsed, Node time.Duration
	Diagnostics   *diag.List
	// Files are the evidence files and the summary, relative to the output
	// directory.
	Files []atomicfile.File
}

// Counts returns how many checks passed, failed and are uncovered.
func (r *Result) Counts() (passed, failed, uncovered int) {
	for _, c := range r.Checks {
		switch c.Status {
		case StatusPassed:
			passed++
		case StatusFailed:
			failed++
		default:
			uncovered++
		}
	}
	return
}

// Run derives and runs the behaviour vectors of the package at dir.
// Findings about the package are diagnostics: contract problems (nothing is
// run), modules that do not load, failed and uncovered checks. err means the
// tool could not do its job: node missing (it wraps sandbox.ErrNotFound),
// I/O failure, the driver itself failing, ctx ending.
func Run(ctx context.Context, dir string, opts Options) (*Result, error) {
	began := time.Now()
	s, res, err := prepare(dir, opts)
	if s == nil || err != nil {
		return res, err
	}
	defer s.cleanup()
	if len(s.p.calls) > 0 {
		if err := s.r.execute(ctx, s.p.calls); err != nil {
			return nil, err
		}
	}
	s.finish(res, opts.Progress)
	res.Elapsed, res.Node = time.Since(began), s.r.nodeTime
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "vectors: %d calls in %d node process(es): node %s, code2skill %s\n",
			res.Calls, res.NodeProcesses, res.Node.Round(time.Millisecond), (res.Elapsed - res.Node).Round(time.Millisecond))
	}
	return res, nil
}

// prepared is a run between planning and judging: the detached copy, its
// runner and the planned checks.
type prepared struct {
	r    *runner
	p    *planner
	tmp  string
	core bool // the package has a Function core
}

func (s *prepared) cleanup() { scratch.Remove(s.tmp) }

// prepare reads and checks the package, makes the detached copy and plans
// the checks. It returns nil when nothing is to be run (res says why).
func prepare(dir string, opts Options) (*prepared, *Result, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	res := &Result{Candidate: filepath.Base(abs), Diagnostics: &diag.List{}}
	pkg, ds, err := pkgdir.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	res.Diagnostics.Add(ds...)
	if pkg == nil || res.Diagnostics.Has(pkgdir.RuleSymlinkEscape) {
		return nil, res, nil
	}
	loaded := opts.Core
	if loaded == nil {
		loaded, _ = derive.Load(dir)
	}
	res.Diagnostics.Merge(loaded.Read())
	if err := loaded.Err(); err != nil {
		return nil, nil, err
	}
	in := loaded.Inputs
	res.Diagnostics.Merge(loaded.Structure())
	if res.Diagnostics.HasErrors() {
		return nil, res, nil
	}
	res.ContractID = in.Contract.ContractID

	r, tmp, err := detach(pkg, opts.TempDir)
	if err != nil {
		return nil, nil, err
	}
	r.timeout = opts.Timeout
	// Each capability may end node once (its remaining calls are then
	// skipped), and each module once while loading.
	r.maxRestarts = len(in.Contract.Capabilities) + len(moduleFiles)
	r.dryRun = in.Export.DryRunVariable()
	_, adapter := r.modules["adapter"]
	_, core := r.modules["functionCore"]
	s := &prepared{r: r, p: plan(in, adapter), tmp: tmp, core: core}
	res.Calls = len(s.p.calls)
	return s, res, nil
}

// finish reports the modules that did not load and judges every check.
func (s *prepared) finish(res *Result, progress io.Writer) {
	res.NodeProcesses = s.r.processes
	for _, m := range moduleFiles {
		if l := s.r.load[m.name]; l != nil && l.status != "loaded" && l.status != "absent" {
			res.Diagnostics.Add(RuleModuleLoad.New(m.file, "%s %s: %s", m.file, l.status, l.detail))
		}
	}
	if !s.core {
		res.Diagnostics.Add(RuleModuleLoad.New("function-core/index.mjs", "function-core/index.mjs is missing: no Function can be run"))
	}
	res.record(s.p, progress)
}

// record judges every check, writes its evidence and findings, and builds
// the summary.
func (res *Result) record(p *planner, progress io.Writer) {
	c := p.in.Contract
	for _, ch := range p.checks {
		judgeCheck(ch)
		scope, scopeID := "capabilityId", ch.capabilityID
		if ch.workflowID != "" {
			scope, scopeID = "workflowId", ch.workflowID
		}
		name := EvidenceDir + "/" + ch.phase + "--" + fileSafe(scopeID) + "--" + fileSafe(ch.id) + ".json"
		ev := evidence(c.ContractID, scope, scopeID, ch)
		data := canonjson.EncodeSorted(ev)
		res.Files = append(res.Files, atomicfile.File{Path: name, Data: data, Perm: 0o644})
		cr := &CheckResult{CheckID: ch.id, CapabilityID: ch.capabilityID, WorkflowID: ch.workflowID, Phase: ch.phase,
			Status: ch.status, Detail: ch.detail, Evidence: name, EvidenceHash: canonjson.SHA256(data)}
		res.Checks = append(res.Checks, cr)
		switch ch.status {
		case StatusFailed:
			res.Diagnostics.Add(RuleCheckFailed.New(contract.ContractFile, "%s %q: %s failed: %s", scopeWord(scope), scopeID, ch.id, ch.detail).AtPointer(ch.pointer))
		case StatusUncovered:
			res.Diagnostics.Add(RuleCheckUncovered.New(contract.ContractFile, "%s %q: %s is not covered: %s", scopeWord(scope), scopeID, ch.id, ch.detail).AtPointer(ch.pointer))
		}
	}
	res.Diagnostics.Add(p.clientFindings()...)
	res.Files = append(res.Files, atomicfile.File{Path: SummaryFile, Data: canonjson.EncodeSorted(res.summary()), Perm: 0o644})
	if progress != nil {
		res.progress(progress)
	}
}

func scopeWord(scope string) string {
	if scope == "workflowId" {
		return "workflow"
	}
	return "capability"
}

// progress prints one line per capability and workflow.
func (res *Result) progress(w io.Writer) {
	type tally struct{ passed, failed, uncovered int }
	var order []string
	counts := map[string]*tally{}
	for _, c := range res.Checks {
		key := "capability " + c.CapabilityID
		if c.WorkflowID != "" {
			key = "workflow " + c.WorkflowID
		}
		t, ok := counts[key]
		if !ok {
			t = &tally{}
			counts[key] = t
			order = append(order, key)
		}
		switch c.Status {
		case StatusPassed:
			t.passed++
		case StatusFailed:
			t.failed++
		default:
			t.uncovered++
		}
	}
	for _, key := range order {
		t := counts[key]
		fmt.Fprintf(w, "vectors: %s: %d passed, %d failed, %d uncovered\n", key, t.passed, t.failed, t.uncovered)
	}
}

// summary is vector-summary.json (spec §7): the checks attempted and the
// uncovered ones, each scoped to its capability or workflow.
func (res *Result) summary() *canonjson.Object {
	checks, uncovered := canonjson.Array{}, canonjson.Array{}
	for _, c := range res.Checks {
		o := &canonjson.Object{}
		o.Set("checkId", canonjson.String(c.CheckID))
		if c.WorkflowID != "" {
			o.Set("workflowId", canonjson.String(c.WorkflowID))
		} else {
			o.Set("capabilityId", canonjson.String(c.CapabilityID))
		}
		o.Set("phase", canonjson.String(c.Phase))
		o.Set("evidence", canonjson.String(c.Evidence))
		o.Set("evidenceHash", canonjson.String(c.EvidenceHash))
		if c.Status == StatusUncovered {
			o.Set("reason", canonjson.String(c.Detail))
			uncovered = append(uncovered, o)
			continue
		}
		o.Set("status", canonjson.String(c.Status))
		o.Set("detail", canonjson.String(c.Detail))
		if c.Phase == contract.PhaseBypass && c.Status == StatusPassed {
			o.Set("zeroExternalWrites", canonjson.Bool(true))
		}
		checks = append(checks, o)
	}
	passed, failed, unc := res.Counts()
	return canonjson.NewObject(
		canonjson.Member{Key: "candidate", Value: canonjson.String(res.Candidate)},
		canonjson.Member{Key: "contractId", Value: canonjson.String(res.ContractID)},
		canonjson.Member{Key: "checks", Value: checks},
		canonjson.Member{Key: "uncovered", Value: uncovered},
		canonjson.Member{Key: "counts", Value: canonjson.NewObject(
			canonjson.Member{Key: "passed", Value: canonjson.Int(passed)},
			canonjson.Member{Key: "failed", Value: canonjson.Int(failed)},
			canonjson.Member{Key: "uncovered", Value: canonjson.Int(unc)},
		)},
		canonjson.Member{Key: "nodeProcesses", Value: canonjson.Int(res.NodeProcesses)},
	)
}

// evidence is the evidence file of one check: every vector with its calls,
// what they observed, and what was asserted.
func evidence(contractID, scope, scopeID string, ch *check) *canonjson.Object {
	o := &canonjson.Object{}
	o.Set("contractId", canonjson.String(contractID))
	o.Set(scope, canonjson.String(scopeID))
	o.Set("checkId", canonjson.String(ch.id))
	o.Set("phase", canonjson.String(ch.phase))
	o.Set("status", canonjson.String(ch.status))
	o.Set("detail", canonjson.String(ch.detail))
	vs := canonjson.Array{}
	for _, v := range ch.vectors {
		vo := &canonjson.Object{}
		vo.Set("name", canonjson.String(v.name))
		calls := canonjson.Array{}
		for _, c := range v.calls {
			calls = append(calls, callEvidence(c))
		}
		vo.Set("calls", calls)
		if v.evidence != nil {
			vo.Set("goalState", v.evidence)
		}
		as := canonjson.Array{}
		for _, a := range v.assertions {
			ao := canonjson.NewObject(
				canonjson.Member{Key: "assertion", Value: canonjson.String(a.what)},
				canonjson.Member{Key: "held", Value: canonjson.Bool(a.ok)},
			)
			if !a.ok && a.detail != "" {
				ao.Set("detail", canonjson.String(a.detail))
			}
			as = append(as, ao)
		}
		vo.Set("assertions", as)
		if v.uncovered != "" {
			vo.Set("uncovered", canonjson.String(v.uncovered))
		}
		vs = append(vs, vo)
	}
	o.Set("vectors", vs)
	return o
}

// callEvidence records a call: what was sent, the context it had, and what
// each run observed.
func callEvidence(c *call) *canonjson.Object {
	o := c.encode()
	o.Delete("id")
	runs := canonjson.Array{}
	for _, r := range c.runs {
		ro := r.raw
		if ro == nil {
			ro = canonjson.NewObject(canonjson.Member{Key: "outcome", Value: canonjson.String(r.outcome)})
			if r.detail != "" {
				ro.Set("detail", canonjson.String(r.detail))
			}
		}
		runs = append(runs, ro)
	}
	o.Set("runs", runs)
	return o
}

// fileSafe makes an ID usable in a file name ("/" becomes "_").
func fileSafe(s string) string { return strings.ReplaceAll(s, "/", "_") }
