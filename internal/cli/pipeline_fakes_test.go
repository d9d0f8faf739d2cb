package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/pipeline"
)

// fakePipelineSteps are the steps of code2skill-fakesteps, the test program
// the pipeline scripts run to exercise the pipeline's own semantics
// (fingerprints, skipping, invalidation, crash recovery, --only, --force,
// authorisation, sanitisation) while compile, the vectors and finalize are
// not part of this build. Everything but those is real: derive, the
// markers, the strict validator is replaced by a pass (the stand-in
// JavaScript would not be judged), the probe by a pass, and the live calls
// are real: real node, the package's own server, a real backend.
//
// FAKE_FAIL (comma-separated: compile, validate, probe) makes a step report
// an error.
func fakePipelineSteps() pipeline.Steps {
	fail := strings.Split(os.Getenv("FAKE_FAIL"), ",")
	failing := func(step string) *diag.List {
		l := &diag.List{}
		if slices.Contains(fail, step) {
			l.Add(pipeline.RuleCheckFailed.New("", "the fake %s was told to fail", step))
		}
		return l
	}
	steps := realPipelineSteps()
	steps.Compile = func(ctx context.Context, dir string, in *derive.Inputs) (*pipeline.CompileResult, error) {
		// The package's Function core and adapter are written by hand:
		// report them as compiled, and write what compile copies and
		// derives besides them, the host runtime and its binding.
		res := &pipeline.CompileResult{Findings: failing("compile")}
		for _, f := range []string{"function-core/index.mjs", "mcp-tool/index.mjs"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				res.Files = append(res.Files, f)
			}
		}
		if binding, _ := hostruntime.Binding(in); binding != nil && !res.Findings.HasErrors() {
			files := []atomicfile.File{
				{Path: hostruntime.BindingFile, Data: binding, Perm: 0o644},
				{Path: hostruntime.RuntimeFile, Data: assets.HostRuntime.Bytes(), Perm: 0o644},
				{Path: assets.HTTPDispatch.Name(), Data: assets.HTTPDispatch.Bytes(), Perm: 0o644},
			}
			for _, f := range files {
				res.Files = append(res.Files, f.Path)
			}
			return res, atomicfile.WriteAll(dir, files)
		}
		return res, nil
	}
	steps.Validate = func(ctx context.Context, dir string, core *derive.Core, pre bool, sources contract.Sources) (*pipeline.ValidateResult, error) {
		return &pipeline.ValidateResult{Findings: failing("validate"), Summary: "fake validation"}, nil
	}
	steps.Probe = func(ctx context.Context, dir string, core *derive.Core, cases []string) (*pipeline.ProbeResult, error) {
		return &pipeline.ProbeResult{Findings: failing("probe"), Summary: fmt.Sprintf("fake probe, %d dry-run case(s)", len(cases))}, nil
	}
	steps.Vectors = func(ctx context.Context, dir string, core *derive.Core, out string) (*pipeline.VectorsResult, error) {
		in := core.Inputs
		res := &pipeline.VectorsResult{Findings: &diag.List{}, Summary: "fake vectors"}
		for _, cp := range in.Contract.Capabilities {
			data := []byte(`{"checkId": "valid-input-and-output-contract", "capabilityId": "` + cp.ID + `"}` + "\n")
			rel := "vector-evidence/behavior--" + cp.ID + "--valid-input-and-output-contract.json"
			if err := atomicfile.WriteFile(filepath.Join(out, rel), data, 0o644); err != nil {
				return nil, err
			}
			res.Checks = append(res.Checks, pipeline.VectorCheck{CheckID: "valid-input-and-output-contract", CapabilityID: cp.ID,
				Phase: pipeline.PhaseBehavior, Status: pipeline.VectorPassed, Evidence: rel, EvidenceHash: canonjson.SHA256(data)})
		}
		return res, nil
	}
	steps.Finalize = func(ctx context.Context, dir string, req pipeline.FinalizeRequest) (*pipeline.FinalizeResult, error) {
		// The final matrix takes each capability's behaviour and runtime
		// flags from the report's phases; nothing is Host-verified.
		data, err := os.ReadFile(req.Report)
		if err != nil {
			return nil, err
		}
		report, err := canonjson.Decode(data)
		if err != nil {
			return nil, err
		}
		passed := func(row canonjson.Value, phase string) canonjson.Bool {
			v, _ := canonjson.Resolve(row, "/"+phase+"/status")
			return canonjson.Bool(v == canonjson.String(pipeline.OutcomePassed))
		}
		rows := canonjson.Array{}
		caps, _ := canonjson.Resolve(report, "/capabilities")
		for _, row := range caps.(canonjson.Array) {
			id, _ := canonjson.Resolve(row, "/capabilityId")
			rows = append(rows, canonjson.NewObject(
				canonjson.Member{Key: "capabilityId", Value: id},
				canonjson.Member{Key: "status", Value: canonjson.NewObject(
					canonjson.Member{Key: "generated", Value: canonjson.Bool(true)},
					canonjson.Member{Key: "behaviorVerified", Value: passed(row, "behavior")},
					canonjson.Member{Key: "runtimeVerified", Value: passed(row, "runtime")},
					canonjson.Member{Key: "hostVerified", Value: canonjson.Bool(false)},
					canonjson.Member{Key: "requiresReview", Value: canonjson.Bool(true)},
					canonjson.Member{Key: "blocked", Value: canonjson.Bool(false)},
				)},
			))
		}
		matrix := canonjson.NewObject(
			canonjson.Member{Key: "delivery", Value: &canonjson.Object{}},
			canonjson.Member{Key: "capabilities", Value: rows},
			canonjson.Member{Key: "workflows", Value: canonjson.Array{}},
		)
		files := []atomicfile.File{
			{Path: "verification-matrix.json", Data: canonjson.Encode(matrix)},
			{Path: "approval-audit.json", Data: []byte(`{"decision": "requires-review"}` + "\n")},
		}
		for _, f := range []string{"function-core/validation-receipt.json", "preflight-report.json", "live-verification.json", "export-manifest.json"} {
			files = append(files, atomicfile.File{Path: f, Data: []byte("{}\n")})
		}
		res := &pipeline.FinalizeResult{Findings: &diag.List{}}
		for i := range files {
			files[i].Perm = 0o644
			res.Files = append(res.Files, files[i].Path)
		}
		return res, atomicfile.WriteAll(dir, files)
	}
	return steps
}

// pipelineScriptCommands are the script commands of the pipeline scripts:
//
//   - "voucher-backend" starts the fictional voucher service in the test
//     process on a loopback port and sets $VOUCHER_BACKEND to its origin; it
//     wants "Authorization: Bearer voucher-token" and answers quotes (200)
//     and redemptions (201);
//   - "backend-requests PATH N" checks that the service got N requests to
//     PATH;
//   - "set-stage-running STATE-DIR STAGE" leaves run-state.json as a crash
//     during that stage would.
func pipelineScriptCommands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	var mu sync.Mutex
	requests := map[*testscript.TestScript]map[string]int{}
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"voucher-backend": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 0 {
				ts.Fatalf("usage: voucher-backend")
			}
			mu.Lock()
			requests[ts] = map[string]int{}
			mu.Unlock()
			srv := httptest.NewServer(voucherBackend(func(path string) {
				mu.Lock()
				requests[ts][path]++
				mu.Unlock()
			}))
			ts.Defer(srv.Close)
			ts.Setenv("VOUCHER_BACKEND", srv.URL)
		},
		"backend-requests": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: backend-requests PATH N")
			}
			want, err := strconv.Atoi(args[1])
			ts.Check(err)
			mu.Lock()
			got := requests[ts][args[0]]
			mu.Unlock()
			if got != want {
				ts.Fatalf("the backend got %d request(s) to %s, want %d", got, args[0], want)
			}
		},
		"set-stage-running": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) != 2 {
				ts.Fatalf("usage: set-stage-running STATE-DIR STAGE")
			}
			path := filepath.Join(ts.MkAbs(args[0]), pipeline.StateFile)
			data, err := os.ReadFile(path)
			ts.Check(err)
			doc, err := canonjson.Decode(data)
			ts.Check(err)
			stage, ok := canonjson.Resolve(doc, "/stages/"+args[1])
			if !ok {
				ts.Fatalf("no stage %s in %s", args[1], path)
			}
			stage.(*canonjson.Object).Set("status", canonjson.String(pipeline.StatusRunning))
			ts.Check(os.WriteFile(path, canonjson.Encode(doc), 0o644))
		},
	}
}

// voucherBackend is the fictional voucher service: it wants
// "Authorization: Bearer voucher-token", answers quotes (200) and
// redemptions (201), and reports the path of every request it gets.
func voucherBackend(seen func(path string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		seen(r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer voucher-token" {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(map[string]any{"code": "UNAUTHENTICATED", "message": "sign in"})
			return
		}
		switch r.URL.Path {
		case "/api/quotes":
			json.NewEncoder(w).Encode(map[string]any{"quote": map[string]any{"quoteId": "quote-7", "credit": 5,
				"payloadDigest": "e29d2e582319414e6e720557dd2b88821ebf1e9fdc21acdc8917ac5f090d172a"}})
		case "/api/redemptions":
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(map[string]any{"redemptionId": "redemption-1", "credited": 5})
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	})
}
