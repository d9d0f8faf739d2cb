package cli

import (
	"bytes"
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/livecall"
	"github.com/code2skill/code2skill/internal/pipeline"
	"github.com/code2skill/code2skill/internal/testnode"
)

// BenchmarkStrictReverify measures pipeline run --enable-runtime-verify on
// the strict sample (four capabilities, real node, real live calls against
// the sample's backend) after a change, with the real steps:
//
//	full                   --force: every capability is called again
//	one-capability-change  one capability's description changed: only that
//	                       capability is called again, the others keep
//	                       their live evidence
//
// Both time the same command, pipeline run --only runtime-verify, after
// the change was generated and verified (untimed); calls/op counts the
// live calls made.
func BenchmarkStrictReverify(b *testing.B) {
	testnode.Node(b)
	sample := equipmentLendingSample()
	var calls atomic.Int64
	old := pipelineSteps
	pipelineSteps = func() pipeline.Steps {
		s := realPipelineSteps()
		s.LiveCalls = func(ctx context.Context, dir string, cs []livecall.Call, opts livecall.Options) (*livecall.Result, error) {
			calls.Add(int64(len(cs)))
			return livecall.Run(ctx, dir, cs, opts)
		}
		return s
	}
	defer func() { pipelineSteps = old }()
	run := func(b *testing.B, args ...string) {
		var out bytes.Buffer
		if code := Run(context.Background(), args, &Stdio{Out: &out, Err: io.Discard}); code != ExitPassed {
			b.Fatalf("%v: exit %d\n%s", args, code, out.String())
		}
	}
	dir := filepath.Join(b.TempDir(), "demo")
	run(b, "demo", "--strict", dir)
	pkg := filepath.Join(dir, examples.StrictSampleName)
	srv := httptest.NewServer(sample.Backend())
	defer srv.Close()
	live := []string{"pipeline", "run", pkg, "--enable-runtime-verify",
		"--env", examples.StrictSampleBaseURLVariable + "=" + srv.URL,
		"--env", examples.StrictSampleTokenVariable + "=" + sample.Env[examples.StrictSampleTokenVariable]}
	for _, id := range examples.StrictSampleWrites() {
		live = append(live, "--authorize-write", id)
	}
	run(b, live...) // against this backend
	path := filepath.Join(pkg, "canonical-contract.json")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	const desc = `"description": "List the workshop's lendable equipment`
	if !strings.Contains(string(data), desc) {
		b.Fatal("the strict sample no longer describes its list as the benchmark expects")
	}
	variants := [2]string{string(data), strings.Replace(string(data), desc, `"description": "Changed: list the workshop's lendable equipment`, 1)}
	for _, bc := range []struct {
		name  string
		force bool
	}{{"full", true}, {"one-capability-change", false}} {
		b.Run(bc.name, func(b *testing.B) {
			args := append(append([]string{}, live...), "--only", "runtime-verify")
			if bc.force {
				args = append(args, "--rerun")
			}
			calls.Store(0)
			i := 0
			for b.Loop() {
				b.StopTimer()
				i++
				if !bc.force {
					if err := os.WriteFile(path, []byte(variants[i%2]), 0o644); err != nil {
						b.Fatal(err)
					}
					run(b, "pipeline", "run", pkg) // generate and verify the change
				}
				b.StartTimer()
				run(b, args...)
			}
			b.ReportMetric(float64(calls.Load())/float64(b.N), "calls/op")
		})
	}
}
