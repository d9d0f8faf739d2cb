package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// voucherSample is a sample application for the strict demo's tests: the
// voucher fixture package with the reviewed assets and a bundled runtime,
// a source tree with the topology's four roots, and the voucher backend,
// which counts what reaches it.
func voucherSample(repo string) (*strictSample, *requestCount, error) {
	runtime := assets.MCPRuntime.Bytes()
	pkg := fstest.MapFS{
		"mcp-tool/runtime.mjs":          {Data: runtime},
		"portable-error-normalizer.mjs": {Data: assets.ErrorNormalizer.Bytes()},
		"portable-workflow-guard.mjs":   {Data: assets.WorkflowGuard.Bytes()},
	}
	fixture := filepath.Join(repo, "internal", "cli", "testdata", "pipeline", "voucher")
	err := filepath.WalkDir(fixture, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(fixture, p)
		pkg[filepath.ToSlash(rel)] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	counts := &requestCount{paths: map[string]int{}}
	return &strictSample{
		Name:    "voucher",
		Package: pkg,
		// One file for each path the evidence locators name, in the root
		// of its source, declaring the locators' symbols, so that
		// check-contract resolves every locator.
		Source: fstest.MapFS{
			"client/features/vouchers/api":    {Data: []byte("function quote() {}\nfunction quoteBody() {}\nfunction redeem() {}\nfunction redeemBody() {}\n")},
			"client/features/vouchers/redeem": {Data: []byte("function open() {}\n")},
			"contract/contracts/vouchers":     {Data: []byte("quote:\n  post: /quotes\nredeem:\n  post: /redemptions\nerrorEnvelope:\n  code: string\n")},
			"service/security/vouchers":       {Data: []byte("def holderOnly(subject):\n    return subject.holds\n")},
			"service/vouchers/commands":       {Data: []byte("func redeemOnce() {}\nfunc bindQuote() {}\nfunc atMostOnce() {}\n")},
			"service/vouchers/quotes":         {Data: []byte("func issueQuote() {}\n")},
			"service/vouchers/rules":          {Data: []byte("const quoteMustMatch = true\n")},
			"tests/vouchers/redeem.test":      {Data: []byte("test rejectsBypass() {}\n")},
		},
		Backend:         func() http.Handler { return voucherBackend(counts.add) },
		Origin:          "https://vouchers.example:8443",
		BaseURLVariable: "VOUCHER_BASE_URL",
		// The voucher's write binds an expiry claim and a confirmation
		// input that the host runtime cannot provide: it is not authorised.
		LiveCases: map[string][]byte{
			"quote-voucher": []byte(`{"name": "quote_voucher", "arguments": {"voucherCode": "AB12CD34"}}`),
		},
		Env: map[string]string{"VOUCHER_TOKEN": "voucher-token"},
	}, counts, nil
}

type requestCount struct {
	mu    sync.Mutex
	paths map[string]int
}

func (c *requestCount) add(path string) {
	c.mu.Lock()
	c.paths[path]++
	c.mu.Unlock()
}

func (c *requestCount) get(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.paths[path]
}

// TestStrictDemo runs demo --strict end to end on the voucher sample, with
// compile, the vectors and finalize faked: the live call of the read
// reaches the sample backend the demo serves, through the package's host
// runtime with the member's token of its variable, the backend is stopped,
// and the table shows it. The run, every stage and step, builds on one load
// of the Portable Core.
func TestStrictDemo(t *testing.T) {
	testnode.Node(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the demo makes an evidence key
	repo, _ := filepath.Abs("../..")
	sample, counts, err := voucherSample(repo)
	if err != nil {
		t.Fatal(err)
	}
	oldSample, oldSteps := strictSampleApp, pipelineSteps
	strictSampleApp, pipelineSteps = func() *strictSample { return sample }, fakePipelineSteps
	defer func() { strictSampleApp, pipelineSteps = oldSample, oldSteps }()

	dir := filepath.Join(t.TempDir(), "demo")
	var out, errOut bytes.Buffer
	loads := derive.Loads()
	code := Run(context.Background(), []string{"demo", "--strict", dir}, &Stdio{Out: &out, Err: &errOut})
	if code != ExitPassed {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if n := derive.Loads() - loads; n != 1 {
		t.Errorf("the demo loaded the Portable Core %d times, want once", n)
	}
	if q, r := counts.get("/api/quotes"), counts.get("/api/redemptions"); q != 1 || r != 0 {
		t.Errorf("the sample backend got %d quote and %d redemption request(s), want 1 and 0", q, r)
	}
	// The fake vectors prove one behaviour check of each capability, so
	// neither is behaviour-verified; the read is runtime-verified, the
	// write is not called.
	for _, want := range []string{
		`(?m)^quote-voucher +yes +no +yes +no `,
		`(?m)^redeem-voucher +yes +no +no +no `,
		`decision: requires-review; host verification: not run`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("the demo's output lacks %s:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "stopped the sample backend") {
		t.Errorf("stderr:\n%s", errOut.String())
	}
	for _, f := range []string{"source/service/vouchers/quotes", "voucher/canonical-contract.json", "voucher/capability-bundle.json",
		"voucher/portable-host-runtime.mjs", "voucher.producer-state/verification/live/quote-voucher.result.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// BenchmarkStrictDemo measures the strict demo on the voucher sample: the
// first run (demo --strict: write the sample, serve its backend, init,
// every stage, a real live call through one node process), then, against
// a backend serving the package, a one-field change of the contract and an
// unchanged re-run, both with runtime verification enabled: the change
// runs every stage again, the live call included; the
// unchanged run fingerprints every stage and skips it, starting no node.
// Compile, the vectors and finalize are faked; so is the probe, which a
// full build runs in one or two more node processes. node-processes/op
// counts the node processes the stages started.
func BenchmarkStrictDemo(b *testing.B) {
	testnode.Node(b)
	repo, _ := filepath.Abs("../..")
	sample, _, err := voucherSample(repo)
	if err != nil {
		b.Fatal(err)
	}
	oldSample, oldSteps := strictSampleApp, pipelineSteps
	strictSampleApp, pipelineSteps = func() *strictSample { return sample }, fakePipelineSteps
	defer func() { strictSampleApp, pipelineSteps = oldSample, oldSteps }()
	run := func(b *testing.B, args ...string) int {
		var out bytes.Buffer
		if code := Run(context.Background(), append(args, "--format", "json"), &Stdio{Out: &out, Err: io.Discard}); code != ExitPassed {
			b.Fatalf("%v: exit %d\n%s", args, code, out.String())
		}
		var rep struct {
			Summary struct {
				Stages []struct {
					NodeProcesses int    `json:"nodeProcesses"`
					LastAction    string `json:"lastAction"`
				} `json:"stages"`
			} `json:"summary"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			b.Fatal(err)
		}
		nodes := 0
		for _, s := range rep.Summary.Stages {
			if s.LastAction == "executed" {
				nodes += s.NodeProcesses
			}
		}
		return nodes
	}
	b.Run("first-run", func(b *testing.B) {
		nodes := 0
		for b.Loop() {
			jsmod.ForgetParses() // a cold parse, as in a process of its own
			nodes += run(b, "demo", "--strict", "--force", filepath.Join(b.TempDir(), "demo"))
		}
		b.ReportMetric(float64(nodes)/float64(b.N), "nodeProcesses/op")
	})
	dir := filepath.Join(b.TempDir(), "demo")
	run(b, "demo", "--strict", dir)
	pkg := filepath.Join(dir, "voucher")
	srv := httptest.NewServer(sample.Backend())
	defer srv.Close()
	live := []string{"pipeline", "run", pkg, "--enable-runtime-verify", "--runtime-origin", sample.Origin + "=" + srv.URL,
		"--env", "VOUCHER_TOKEN=voucher-token"}
	b.Run("one-field-change", func(b *testing.B) {
		path := filepath.Join(pkg, "canonical-contract.json")
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		variants := [2]string{string(data), strings.Replace(string(data), `"description": "`, `"description": "Changed: `, 1)}
		nodes, i := 0, 0
		for b.Loop() {
			jsmod.ForgetParses() // a cold parse, as in a process of its own
			b.StopTimer()
			i++
			if err := os.WriteFile(path, []byte(variants[i%2]), 0o644); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			nodes += run(b, live...)
		}
		b.ReportMetric(float64(nodes)/float64(b.N), "nodeProcesses/op")
	})
	b.Run("unchanged-rerun", func(b *testing.B) {
		run(b, live...)
		nodes := 0
		for b.Loop() {
			jsmod.ForgetParses() // a cold parse, as in a process of its own
			nodes += run(b, live...)
		}
		b.ReportMetric(float64(nodes)/float64(b.N), "nodeProcesses/op")
	})
}

// overlay is fsys with some files replaced.
type overlay struct {
	fs.FS
	files fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if _, ok := o.files[name]; ok {
		return o.files.Open(name)
	}
	return o.FS.Open(name)
}

// TestSlowStrictDemoWithoutElicitation runs the real demo on the strict
// sample under its second Host profile, a host whose client declares no
// elicitation: degradation is precise. The reads and the loan are approved;
// the return and the removal, which need the member's confirmation (the
// removal's by the deployer's policy), are disabled by the Host, verified
// to be refused, and not approved. The fast tier runs the demo under the
// sample's own profile (demo_strict.txtar); hostverify's
// TestWithoutElicitation verifies this profile's refusals.
func TestSlowStrictDemoWithoutElicitation(t *testing.T) {
	testtier.Slow(t)
	testnode.Node(t)
	profile, err := os.ReadFile(filepath.Join(testnode.Root(), "examples", "equipment-lending", "host-profiles", "without-elicitation.json"))
	if err != nil {
		t.Fatal(err)
	}
	loads := derive.Loads()
	out, dir := demoOf(t, func(s *strictSample) {
		s.Package = overlay{s.Package, fstest.MapFS{"host-profile.json": {Data: profile}}}
	})
	// Every stage and step of the run, the real ones, builds on one load
	// of the Portable Core.
	if n := derive.Loads() - loads; n != 1 {
		t.Errorf("the demo loaded the Portable Core %d times, want once", n)
	}
	for _, want := range []string{
		`(?m)^list-lendable-equipment +yes +yes +yes +yes$`,
		`(?m)^quote-equipment-loan +yes +yes +yes +yes$`,
		`(?m)^create-equipment-loan +yes +yes +yes +yes$`,
		`(?m)^return-equipment-loan +yes +yes +yes +no +requires review; Host profile: disabled \(trusted-confirmation\)$`,
		`(?m)^remove-returned-loan +yes +yes +yes +no +requires review; Host profile: disabled \(trusted-confirmation\)$`,
		`decision: partially-approved; host verification: \d+ of \d+ checks passed by the code2skill reference MCP host \(go-sdk v[0-9.]+\) and the typescript-sdk Client v1\.32\.2 \(no elicitation, as the Host profile says\)`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("the demo's output lacks %s:\n%s", want, out.String())
		}
	}
	pkg := filepath.Join(dir, "equipment-lending")
	compat, err := os.ReadFile(filepath.Join(pkg, "host-compatibility-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := canonjson.Decode(compat)
	for i, want := range []string{"enabled", "enabled", "enabled", "disabled", "disabled"} {
		if got, _ := canonjson.Resolve(doc, fmt.Sprintf("/capabilityAssessments/%d/status", i)); got != canonjson.String(want) {
			t.Errorf("capability %d: %v, want %s", i, got, want)
		}
	}
	matrix, _ := os.ReadFile(filepath.Join(pkg, "verification-matrix.json"))
	if !strings.Contains(string(matrix), "host-not-fully-compatible") {
		t.Errorf("the final matrix gives no Host reason:\n%s", matrix)
	}
}

// TestSlowStrictDemoInEnglish runs the real demo on the strict sample
// declared in English (documentationLanguage "en"): its documents, MCP.en.md
// and Tool prose pass the English rules, the host runtime asks the member in
// English, and every capability is verified live and in the host, so the
// package is approved. In the fast tier, examples' TestStrictSampleInEnglish
// validates the English package and hostruntime's
// TestQuestionsInTheDocumentationLanguage its English questions.
func TestSlowStrictDemoInEnglish(t *testing.T) {
	testtier.Slow(t)
	testnode.Node(t)
	out, dir := demoOf(t, func(s *strictSample) { s.Package = examples.StrictSampleEnglish() })
	if !regexp.MustCompile(`decision: approved; host verification: (\d+) of \d+ checks passed`).MatchString(out.String()) {
		t.Errorf("the English package is not approved:\n%s", out.String())
	}
	pkg := filepath.Join(dir, "equipment-lending")
	if _, err := os.Stat(filepath.Join(pkg, "MCP.zh-CN.md")); !os.IsNotExist(err) {
		t.Errorf("the English package carries MCP.zh-CN.md: %v", err)
	}
	// The host asked the member in English.
	log, err := os.ReadFile(filepath.Join(dir, "equipment-lending.producer-state", "verification", "logs",
		"host--remove-returned-loan--host-confirmation-decline-zero-dispatch.log"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), `is about to make a write (delete); nothing is sent unless you confirm it here`) {
		t.Errorf("the confirmation was not asked in English:\n%s", log)
	}
	if strings.ContainsFunc(string(log), func(r rune) bool { return r >= 0x3400 && r <= 0x9fff }) {
		t.Errorf("the English host asked in Chinese:\n%s", log)
	}
}

// demoOf runs the real strict demo on the bundled sample changed by edit,
// and returns its output and directory.
func demoOf(t *testing.T, edit func(*strictSample)) (out bytes.Buffer, dir string) {
	t.Helper()
	old := strictSampleApp
	strictSampleApp = func() *strictSample {
		s := equipmentLendingSample()
		edit(s)
		return s
	}
	defer func() { strictSampleApp = old }()
	// The steps run for real, with what the test's deadline leaves.
	floor := limitFloor
	limitFloor = testtier.Budget(t)
	defer func() { limitFloor = floor }()
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the demo makes an evidence key
	dir = filepath.Join(t.TempDir(), "demo")
	var errOut bytes.Buffer
	if code := Run(context.Background(), []string{"demo", "--strict", dir}, &Stdio{Out: &out, Err: &errOut}); code != ExitPassed {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	return out, dir
}
