package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
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
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/testnode"
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
		Backend: func() http.Handler { return voucherBackend(counts.add) },
		Origin:  "https://vouchers.example:8443",
		Writes:  []string{"redeem-voucher"},
		LiveCases: map[string][]byte{
			"quote-voucher":  []byte(`{"name": "quote_voucher", "arguments": {"voucherCode": "AB12CD34"}, "trusted": {"headers": {"Authorization": "Bearer voucher-token"}}}`),
			"redeem-voucher": []byte(redeemLiveCase),
		},
	}, counts, nil
}

const redeemLiveCase = `{
  "name": "redeem_voucher",
  "arguments": {
    "voucherCode": "AB12CD34",
    "quote": {"quoteId": "quote-7", "payloadDigest": "2f5d4ac38b3d0b1d6e9f53a0a4e1c7b3b8e3b0a25c2b57e3d7c0a7d1f6e8a9b0", "credit": 5},
    "confirmation": {"grantId": "confirm-3", "quoteId": "quote-7"}
  },
  "trusted": {
    "runtimeContext": {"subjectId": "holder-1", "sessionId": "session-1", "expiresAt": "2099-01-01T00:00:00Z"},
    "protectedValues": {
      "subject": "holder-1", "session": "session-1",
      "payloadDigest": "e29d2e582319414e6e720557dd2b88821ebf1e9fdc21acdc8917ac5f090d172a",
      "quoteId": "quote-7", "confirmationGrantId": "confirm-3", "expiresAt": "2099-01-01T00:00:00Z"
    },
    "headers": {"Authorization": "Bearer voucher-token"}
  }
}`

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
// compile, the vectors and finalize faked: the live calls of the read and
// of the authorised write reach the sample backend the demo serves, the
// backend is stopped, and the table shows it.
func TestStrictDemo(t *testing.T) {
	testnode.Node(t)
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
	code := Run(context.Background(), []string{"demo", "--strict", dir}, &Stdio{Out: &out, Err: &errOut})
	if code != ExitPassed {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if q, r := counts.get("/api/quotes"), counts.get("/api/redemptions"); q != 1 || r != 1 {
		t.Errorf("the sample backend got %d quote and %d redemption request(s), want 1 each", q, r)
	}
	// The fake vectors prove one behaviour check of each capability, so
	// neither is behaviour-verified; the read is runtime-verified, the
	// write's declared runtime check (a guard vector) has no evidence.
	for _, want := range []string{
		`(?m)^quote-voucher +yes +no +yes +no `,
		`(?m)^redeem-voucher +yes +no +no +no `,
		`decision: requires-review; host verification: not done by the pipeline`,
	} {
		if !regexp.MustCompile(want).MatchString(out.String()) {
			t.Errorf("the demo's output lacks %s:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "stopped the sample backend") {
		t.Errorf("stderr:\n%s", errOut.String())
	}
	for _, f := range []string{"source/service/vouchers/quotes", "voucher/canonical-contract.json", "voucher/capability-bundle.json",
		"voucher.producer-state/verification/live/redeem-voucher.result.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// BenchmarkStrictDemo measures the strict demo on the voucher sample: the
// first run (demo --strict: write the sample, serve its backend, init,
// every stage, real live calls through one node process), then, against a
// backend serving the package, a one-field change of the contract and an
// unchanged re-run, both with runtime verification enabled and the write
// authorised: the change runs every stage again, live calls included; the
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
	live := []string{"pipeline", "run", pkg, "--enable-runtime-verify", "--authorize-write", "redeem-voucher",
		"--runtime-origin", sample.Origin + "=" + srv.URL}
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
