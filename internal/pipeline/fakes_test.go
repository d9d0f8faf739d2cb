package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostverify"
	"github.com/code2skill/code2skill/internal/livecall"
)

// ruleFake is the finding fake steps report when told to fail.
var ruleFake = diag.Register("PIPELINE_TEST_FAKE_FINDING", diag.Error, "a finding a fake step of the pipeline tests reports")

// fakes are steps that do what the real packages do, as far as the
// pipeline can tell, without node or the packages themselves: compile
// writes fixed files, the vectors pass every expected check, live calls
// answer from a table, finalize writes final files from the report. They
// count their calls and can be told to fail.
type fakes struct {
	mu    sync.Mutex
	calls map[string]int
	// fail names steps that report an error finding.
	fail map[string]bool
	// failVectors names "<capabilityId>/<checkId>" vectors that fail,
	// uncovered those no vector proves (a workflow's ID for its checks).
	failVectors, uncovered map[string]bool
	// declared are the variables the package declares.
	declared []string
	// liveCalls are the calls LiveCalls was asked to make, last run.
	liveCalls []livecall.Call
	liveOpts  livecall.Options
	// liveResults maps a Tool to the result it answers with; default a
	// success whose data echoes nothing secret.
	liveResults map[string]string
	// hostOpts are the options HostVerify last got; skipHost and failHost
	// name "<scope>/<checkId>" Host-phase checks it skips or fails.
	hostOpts           hostverify.Options
	skipHost, failHost map[string]bool
	// finalized is the request Finalize last got, and the report it read.
	finalized FinalizeRequest
	report    *canonjson.Object
	// during runs inside the vectors step, while verify is running.
	during func()
	// validation are findings the validator reports; preFinalize what it
	// was last asked.
	validation  []diag.Diagnostic
	preFinalize bool
}

func newFakes() *fakes {
	return &fakes{calls: map[string]int{}, fail: map[string]bool{}, failVectors: map[string]bool{}, uncovered: map[string]bool{}, liveResults: map[string]string{},
		skipHost: map[string]bool{}, failHost: map[string]bool{}}
}

func (f *fakes) count(step string) {
	f.mu.Lock()
	f.calls[step]++
	f.mu.Unlock()
}

func (f *fakes) n(step string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[step]
}

func (f *fakes) findings(step string) *diag.List {
	l := &diag.List{}
	if f.fail[step] {
		l.Add(ruleFake.New("function-core/index.mjs", "%s was told to fail", step))
	}
	return l
}

// fakeCompiled are what the fake compile writes.
var fakeCompiled = []string{"function-core/index.mjs", "mcp-tool/index.mjs", "mcp-tool/runtime.mjs", "portable-error-normalizer.mjs"}

func (f *fakes) steps() Steps {
	return Steps{
		CheckContract: func(in *derive.Inputs, sources contract.Sources) *diag.List {
			f.count("check-contract")
			l := derive.Check(in)
			l.Merge(f.findings("check-contract"))
			return l
		},
		Compile: func(ctx context.Context, dir string, in *derive.Inputs) (*CompileResult, error) {
			f.count("compile")
			res := &CompileResult{Findings: f.findings("compile")}
			if res.Findings.HasErrors() {
				return res, nil
			}
			var files []atomicfile.File
			for _, p := range fakeCompiled {
				files = append(files, atomicfile.File{Path: p, Data: []byte("// compiled " + in.Contract.ContractID + "\n"), Perm: 0o644})
				res.Files = append(res.Files, p)
			}
			return res, atomicfile.WriteAll(dir, files)
		},
		Validate: func(ctx context.Context, dir string, core *derive.Core, pre bool, sources contract.Sources) (*ValidateResult, error) {
			f.count("validate")
			l := f.findings("validate")
			l.Add(f.validation...)
			f.preFinalize = pre
			return &ValidateResult{Findings: l, Summary: "validated (fake)"}, nil
		},
		Probe: func(ctx context.Context, dir string, core *derive.Core, cases []string) (*ProbeResult, error) {
			f.count("probe")
			return &ProbeResult{Findings: f.findings("probe"), Summary: fmt.Sprintf("probed with %d dry-run case(s) (fake)", len(cases))}, nil
		},
		Vectors: f.vectors,
		DeclaredVariables: func(dir, dry string) ([]string, error) {
			f.count("declared-variables")
			return f.declared, nil
		},
		LiveCalls:  f.live,
		HostVerify: f.host,
		Finalize:   f.finalize,
	}
}

// host passes every Host-phase check host verification expects, but those
// named in skipHost ("<scope>/<checkId>") which it skips and those in
// failHost which fail.
func (f *fakes) host(ctx context.Context, opts hostverify.Options) (*hostverify.Result, error) {
	f.count("host")
	f.mu.Lock()
	f.hostOpts = opts
	f.mu.Unlock()
	res := &hostverify.Result{Diagnostics: &diag.List{}, NodeProcesses: 5, Host: canonjson.NewObject(),
		Clients: []string{hostverify.GoClientName(), "typescript-sdk Client v1.32.2"}}
	exp := hostverify.ExpectedChecks(opts.Inputs)
	add := func(capID, wfID string, ids []string) {
		for _, id := range ids {
			scope := capID + wfID
			c := &hostverify.Check{CheckID: id, CapabilityID: capID, WorkflowID: wfID, Passed: true,
				Evidence: canonjson.NewObject(canonjson.Member{Key: "checkId", Value: canonjson.String(id)},
					canonjson.Member{Key: "scope", Value: canonjson.String(scope)})}
			switch {
			case f.skipHost[scope+"/"+id]:
				c.Passed, c.Skipped = false, "told to skip"
			case f.failHost[scope+"/"+id]:
				c.Passed, c.Rule, c.Detail = false, hostverify.RuleCall, "told to fail"
				res.Diagnostics.Add(hostverify.RuleCall.New("", "%s: %s: told to fail", scope, id))
			}
			res.Checks = append(res.Checks, c)
		}
	}
	for _, cp := range opts.Inputs.Contract.Capabilities {
		if opts.Scope == nil || opts.Scope.Capabilities[cp.ID] {
			add(cp.ID, "", exp.Capabilities[cp.ID])
		}
	}
	for _, w := range opts.Inputs.Contract.Workflows {
		if opts.Scope == nil || opts.Scope.Workflows[w.ID] {
			add("", w.ID, exp.Workflows[w.ID])
		}
	}
	return res, nil
}

// vectors passes every behaviour and bypass check the baseline expects,
// writing an evidence file for each.
func (f *fakes) vectors(ctx context.Context, dir string, core *derive.Core, out string) (*VectorsResult, error) {
	f.count("vectors")
	if f.during != nil {
		f.during()
	}
	if f.fail["vectors-unavailable"] {
		return nil, ErrNotAvailable
	}
	exp := expectedChecks(core.Views())
	res := &VectorsResult{Findings: &diag.List{}, NodeProcesses: 1}
	var files []atomicfile.File
	add := func(capID, wfID, phase, checkID string) error {
		scope := capID + wfID
		status := VectorPassed
		switch {
		case f.failVectors[scope+"/"+checkID]:
			status = VectorFailed
		case f.uncovered[scope+"/"+checkID]:
			status = VectorUncovered
		}
		data := []byte(fmt.Sprintf("{\"checkId\": %q, \"scope\": %q, \"status\": %q}\n", checkID, scope, status))
		rel := "vector-evidence/" + phase + "--" + scope + "--" + checkID + ".json"
		files = append(files, atomicfile.File{Path: rel, Data: data, Perm: 0o644})
		res.Checks = append(res.Checks, VectorCheck{CheckID: checkID, CapabilityID: capID, WorkflowID: wfID, Phase: phase,
			Status: status, Detail: "fake " + status, Evidence: rel, EvidenceHash: canonjson.SHA256(data)})
		return nil
	}
	for _, sc := range exp.capabilities {
		for _, id := range sc.phases[PhaseBehavior] {
			if err := add(sc.id, "", PhaseBehavior, id); err != nil {
				return nil, err
			}
		}
	}
	for _, sc := range exp.workflows {
		for _, id := range sc.phases[PhaseBypass] {
			if err := add("", sc.id, PhaseBypass, id); err != nil {
				return nil, err
			}
		}
	}
	return res, atomicfile.WriteAll(out, files)
}

const defaultLiveResult = `{"content":[{"type":"text","text":"{\"status\":200,\"data\":{\"ok\":true}}"}],"structuredContent":{"status":200,"data":{"ok":true}},"isError":false}`

// toolResult is a successful Tool result whose structuredContent is
// {status, data} and whose text block carries the same JSON, as the MCP
// runtime answers.
func toolResult(status int, data string) string {
	sc := fmt.Sprintf(`{"status":%d,"data":%s}`, status, data)
	return `{"content":[{"type":"text","text":` + jsonString(sc) + `}],"structuredContent":` + sc + `,"isError":false}`
}

// defaultLiveResults are the results each Tool answers with unless told
// otherwise: successes that meet the voucher contract's output contract,
// as finalize judges live evidence.
var defaultLiveResults = map[string]string{
	"quote_voucher":  quotedResult,
	"redeem_voucher": toolResult(201, `{"redemptionId":"redemption-1","credited":5}`),
}

func (f *fakes) live(ctx context.Context, dir string, calls []livecall.Call, opts livecall.Options) (*livecall.Result, error) {
	f.count("live")
	f.mu.Lock()
	f.liveCalls, f.liveOpts = slices.Clone(calls), opts
	f.mu.Unlock()
	res := &livecall.Result{Diagnostics: &diag.List{}, NodeProcesses: 1}
	results := livecall.Results{}
	for _, c := range calls {
		out, send := c.Begin(results)
		res.Outcomes = append(res.Outcomes, out)
		if !send {
			continue
		}
		raw, ok := f.liveResults[c.Tool]
		if !ok {
			raw = defaultLiveResults[c.Tool]
		}
		out.Result = json.RawMessage(raw)
		results.Record(c.CapabilityID, out.Result)
	}
	return res, nil
}

// finalize writes the six final files: a matrix whose flags follow the
// report's phase statuses, and an approval audit with a decision.
func (f *fakes) finalize(ctx context.Context, dir string, req FinalizeRequest) (*FinalizeResult, error) {
	f.count("finalize")
	if f.fail["finalize-unavailable"] {
		return nil, ErrNotAvailable
	}
	data, err := os.ReadFile(req.Report)
	if err != nil {
		return nil, err
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.finalized, f.report = req, doc.(*canonjson.Object)
	f.mu.Unlock()
	res := &FinalizeResult{Findings: f.findings("finalize")}
	if res.Findings.HasErrors() {
		return res, nil
	}
	status := func(row canonjson.Value, phase string) string {
		v, _ := canonjson.Resolve(row, "/"+phase+"/status")
		return stringOf(v)
	}
	// As the real finalize: a failed phase blocks the row, a blocked row
	// counts no phase as verified, and its reasons say which phases
	// failed and which still await verification.
	caps := canonjson.Array{}
	rows, _ := canonjson.Resolve(doc, "/capabilities")
	for _, row := range rows.(canonjson.Array) {
		id, _ := canonjson.Resolve(row, "/capabilityId")
		blocked := false
		for _, ph := range []string{"behavior", "runtime", "host"} {
			blocked = blocked || status(row, ph) == OutcomeFailed
		}
		reasons := canonjson.Array{}
		for _, ph := range []string{"behavior", "runtime", "host"} {
			switch s := status(row, ph); {
			case s == OutcomeFailed:
				reasons = append(reasons, canonjson.String(ph+"-verification-failed"))
			case s != OutcomePassed:
				reasons = append(reasons, canonjson.String(ph+"-verification-pending"))
			}
		}
		caps = append(caps, canonjson.NewObject(
			canonjson.Member{Key: "capabilityId", Value: id},
			canonjson.Member{Key: "status", Value: canonjson.NewObject(
				canonjson.Member{Key: "generated", Value: canonjson.Bool(true)},
				canonjson.Member{Key: "behaviorVerified", Value: canonjson.Bool(status(row, "behavior") == OutcomePassed && !blocked)},
				canonjson.Member{Key: "runtimeVerified", Value: canonjson.Bool(status(row, "runtime") == OutcomePassed && !blocked)},
				canonjson.Member{Key: "hostVerified", Value: canonjson.Bool(false)},
				canonjson.Member{Key: "requiresReview", Value: canonjson.Bool(!blocked)},
				canonjson.Member{Key: "blocked", Value: canonjson.Bool(blocked)},
			)},
			canonjson.Member{Key: "reasons", Value: reasons},
		))
	}
	files := map[string][]byte{
		"verification-matrix.json": canonjson.Encode(canonjson.NewObject(
			canonjson.Member{Key: "delivery", Value: canonjson.NewObject(
				canonjson.Member{Key: "runtime", Value: canonjson.NewObject(canonjson.Member{Key: "status", Value: canonjson.String("partially-verified")})},
			)},
			canonjson.Member{Key: "capabilities", Value: caps},
			canonjson.Member{Key: "workflows", Value: canonjson.Array{}},
		)),
		"approval-audit.json": []byte(`{"decision": "requires-review"}` + "\n"),
	}
	var out []atomicfile.File
	for _, p := range finalFiles {
		d, ok := files[p]
		if !ok {
			d = []byte("{\"final\": \"" + p + "\"}\n")
		}
		out = append(out, atomicfile.File{Path: p, Data: d, Perm: 0o644})
		res.Files = append(res.Files, p)
	}
	if err := atomicfile.WriteAll(dir, out); err != nil {
		return nil, err
	}
	if f.fail["finalize-after-write"] {
		// A finalize that fails once it has written its files, as when
		// its validator could not put the previous ones back.
		res.Findings.Add(ruleFake.New(finalFiles[0], "finalize was told to fail after writing"))
		res.Files = nil
	}
	return res, nil
}

// clock is a fake clock that advances a millisecond per reading.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Millisecond)
	return c.t
}

// fixture is a package of the voucher example with its documents and
// state directory, and a pipeline over fake steps.
type fixture struct {
	t     testing.TB
	root  string // holds the package, its sources and the state
	dir   string // the package
	f     *fakes
	p     *Pipeline
	clock *clock
	env   map[string]string
}

// voucherDocuments are the hand-written documents, each with a stale
// marker for generate to refresh.
var voucherDocuments = map[string]string{
	"SKILL.md":                      "---\nname: voucher\n---\n" + derive.MarkerPrefix + strings.Repeat("0", 64) + derive.MarkerSuffix + "\n# Voucher\n",
	"MCP.zh-CN.md":                  derive.MarkerPrefix + strings.Repeat("0", 64) + derive.MarkerSuffix + "\n# MCP\n",
	"MCP-SETUP.md":                  "# Setup\n",
	"references/feature-context.md": derive.MarkerPrefix + strings.Repeat("0", 64) + derive.MarkerSuffix + "\n# Context\n",
}

// testKey is the evidence key of the tests: never the user's.
var testKey = func() *attest.Key {
	k, err := attest.NewKey([]byte("code2skill pipeline tests key 32"))
	if err != nil {
		panic(err)
	}
	return k
}()

func newFixture(t testing.TB) *fixture {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "voucher")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "voucher"))); err != nil {
		t.Fatal(err)
	}
	for name, text := range voucherDocuments {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), text)
	}
	for _, src := range []string{"client", "service", "contract", "tests"} {
		writeFile(t, filepath.Join(root, "sources", src, "main.go"), "package "+src+"\n")
	}
	fx := &fixture{t: t, root: root, dir: dir, f: newFakes(), clock: newClock(), env: map[string]string{}}
	fx.p = fx.pipeline()
	return fx
}

// pipeline returns a fresh Pipeline over the fixture, as each command
// invocation makes one.
func (fx *fixture) pipeline() *Pipeline {
	return &Pipeline{Dir: fx.dir, Steps: fx.f.steps(), Version: "code2skill test", Now: fx.clock.now,
		Getenv: func(k string) string { return fx.env[k] }, Key: testKey}
}

func (fx *fixture) init(opts InitOptions) *InitResult {
	fx.t.Helper()
	res, err := fx.pipeline().Init(opts)
	if err != nil {
		fx.t.Fatalf("Init: %v", err)
	}
	return res
}

func (fx *fixture) run(opts RunOptions) *Report {
	fx.t.Helper()
	rep, err := fx.pipeline().Run(context.Background(), opts)
	if err != nil {
		fx.t.Fatalf("Run: %v", err)
	}
	return rep
}

func (fx *fixture) state() *State {
	fx.t.Helper()
	st, err := readState(DefaultStateDir(fx.dir))
	if err != nil {
		fx.t.Fatal(err)
	}
	return st
}

func (fx *fixture) statePath(rel string) string {
	return filepath.Join(DefaultStateDir(fx.dir), filepath.FromSlash(rel))
}

// actions returns each stage's last action, "-" for none.
func (fx *fixture) actions() map[string]string {
	out := map[string]string{}
	for name, s := range fx.state().Stages {
		out[name] = s.LastAction
		if out[name] == "" {
			out[name] = "-"
		}
	}
	return out
}

func (fx *fixture) statuses() map[string]string {
	out := map[string]string{}
	for name, s := range fx.state().Stages {
		out[name] = s.Status
	}
	return out
}

func writeFile(t testing.TB, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
