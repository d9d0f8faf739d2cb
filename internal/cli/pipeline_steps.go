package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/hostverify"
	"github.com/code2skill/code2skill/internal/livecall"
	"github.com/code2skill/code2skill/internal/pipeline"
	"github.com/code2skill/code2skill/internal/probe"
	"github.com/code2skill/code2skill/internal/strict"
	"github.com/code2skill/code2skill/internal/vectors"
)

// pipelineSteps wires the pipeline's stages to the packages that do their
// work, all in-process. It is a variable so that the CLI tests can run the
// pipeline's semantics over fake steps.
var pipelineSteps = realPipelineSteps

func realPipelineSteps() pipeline.Steps {
	return pipeline.Steps{
		CheckContract: func(in *derive.Inputs, sources contract.Sources) *diag.List {
			return contractcheck.Check(in, contractcheck.Options{Sources: sources})
		},
		Compile: compileStep,
		Validate: func(ctx context.Context, dir string, core *derive.Core, pre bool, sources contract.Sources) (*pipeline.ValidateResult, error) {
			res := strict.Validate(ctx, dir, strict.Options{PreFinalize: pre, Sources: sources, Core: core})
			if res.Err != nil {
				return nil, res.Err
			}
			return &pipeline.ValidateResult{Findings: &res.Diagnostics, Summary: strictMessage(res, diag.CountsOf(&res.Diagnostics))}, nil
		},
		Probe: func(ctx context.Context, dir string, core *derive.Core, cases []string) (*pipeline.ProbeResult, error) {
			res, err := probe.Run(ctx, dir, probe.Options{Offline: true, DryRunCalls: cases, RequestTimeout: probeRequestLimit(), Core: core})
			var usage *probe.UsageError
			if errors.As(err, &usage) {
				l := &diag.List{}
				l.Add(pipeline.RuleCheckFailed.New("", "the offline probe cannot use the dry-run cases: %s", usage.Msg))
				return &pipeline.ProbeResult{Findings: l, Summary: "the probe did not run"}, nil
			}
			if err != nil {
				return nil, err
			}
			return &pipeline.ProbeResult{Findings: withoutOfflineNotice(res.Diagnostics), Summary: res.Line(dir), NodeProcesses: res.NodeProcesses}, nil
		},
		Vectors:           vectorsStep,
		DeclaredVariables: livecall.DeclaredVariables,
		LiveCalls:         livecall.Run,
		HostVerify:        hostverify.Run,
		Finalize:          finalizeStep,
	}
}

// compileStep compiles the package's runtime from its Portable Core and
// authored Tool prose, and writes it when every capability compiled.
func compileStep(_ context.Context, dir string, in *derive.Inputs) (*pipeline.CompileResult, error) {
	docs, list, err := compile.ReadToolDocs(dir)
	if err != nil {
		return nil, err
	}
	res := &pipeline.CompileResult{Findings: list}
	if list.HasErrors() {
		return res, nil
	}
	out, findings := compile.Compile(&compile.Inputs{Core: in, ToolDocs: docs})
	list.Merge(findings)
	res.Compiled = out
	if !out.Compiled() {
		return res, nil
	}
	ds, err := compile.Write(dir, out.Files)
	list.Add(ds...)
	if err != nil || len(ds) > 0 {
		return res, err
	}
	for _, f := range out.Files {
		res.Files = append(res.Files, f.Path)
	}
	return res, nil
}

// vectorsStep runs the behaviour vectors and writes their evidence under
// out, as code2skill vectors does.
func vectorsStep(ctx context.Context, dir string, core *derive.Core, out string) (*pipeline.VectorsResult, error) {
	res, err := vectors.Run(ctx, dir, vectors.Options{Timeout: vectorsCallLimit(), Core: core})
	if err != nil {
		return nil, err
	}
	if err := writeVectors(out, res.Files); err != nil {
		return nil, err
	}
	vr := &pipeline.VectorsResult{Findings: res.Diagnostics, NodeProcesses: res.NodeProcesses}
	passed, failed, uncovered := res.Counts()
	vr.Summary = fmt.Sprintf("%d passed, %d failed, %d uncovered in %d node process(es)", passed, failed, uncovered, res.NodeProcesses)
	for _, c := range res.Checks {
		vr.Checks = append(vr.Checks, pipeline.VectorCheck{
			CheckID: c.CheckID, CapabilityID: c.CapabilityID, WorkflowID: c.WorkflowID, Phase: c.Phase,
			Status: c.Status, Detail: c.Detail, Evidence: c.Evidence, EvidenceHash: c.EvidenceHash,
		})
	}
	return vr, nil
}

// finalizeStep finalizes the package from the pipeline's report and live
// evidence, judged by the full strict validator.
func finalizeStep(ctx context.Context, dir string, req pipeline.FinalizeRequest) (*pipeline.FinalizeResult, error) {
	opts := finalize.Options{Report: req.Report, EvidenceDir: req.EvidenceDir, Sources: req.Sources, Validator: finalValidator(req.Key), Key: req.Key, Core: req.Core}
	for _, p := range req.Live {
		opts.Live = append(opts.Live, finalize.LivePair{Input: p.Input, Result: p.Result})
	}
	res := finalize.Run(ctx, dir, opts)
	if res.Failed {
		return nil, fmt.Errorf("finalize could not do its job: %s", firstMessage(&res.List))
	}
	return &pipeline.FinalizeResult{Findings: &res.List, Files: res.Files}, nil
}

// firstMessage is the first error finding of a list, for an error line.
func firstMessage(l *diag.List) string {
	for _, d := range l.Sorted() {
		if d.Severity == diag.Error {
			return d.String()
		}
	}
	return "no finding"
}

// withoutOfflineNotice drops the offline probe's notice that runtime
// verification is still required: in a pipeline run the rows and next steps
// say whether it is, and the notice would contradict a run that verified at
// runtime.
func withoutOfflineNotice(l *diag.List) *diag.List {
	out := &diag.List{}
	for _, d := range l.Sorted() {
		if d.Rule != probe.RuleOffline.ID {
			out.Add(d)
		}
	}
	return out
}
