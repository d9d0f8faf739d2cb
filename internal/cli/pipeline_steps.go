package cli

import (
	"context"
	"errors"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/livecall"
	"github.com/code2skill/code2skill/internal/pipeline"
	"github.com/code2skill/code2skill/internal/probe"
	"github.com/code2skill/code2skill/internal/strict"
)

// pipelineSteps wires the pipeline's stages to the packages that do their
// work, all in-process. It is a variable so that the CLI tests can run the
// pipeline's semantics over fake steps.
var pipelineSteps = realPipelineSteps

func realPipelineSteps() pipeline.Steps {
	return pipeline.Steps{
		// TODO(wire): contractcheck.Check(in, contractcheck.Options{Sources:
		// sources}), every semantic rule with evidence resolved; until
		// then derive's structural rules judge the Portable Core.
		CheckContract: func(in *derive.Inputs, sources contract.Sources) *diag.List {
			return derive.Check(in)
		},
		// TODO(wire): compile.DecodeToolDocs(authoring/tool-docs.json),
		// compile.Compile and compile.Write.
		Compile: func(context.Context, string, *derive.Inputs) (*pipeline.CompileResult, error) {
			return nil, pipeline.ErrNotAvailable
		},
		Validate: func(ctx context.Context, dir string, pre bool, sources contract.Sources) (*pipeline.ValidateResult, error) {
			res := strict.Validate(ctx, dir, strict.Options{PreFinalize: pre, Sources: sources})
			if res.Err != nil {
				return nil, res.Err
			}
			return &pipeline.ValidateResult{Findings: &res.Diagnostics, Summary: strictMessage(res, diag.CountsOf(&res.Diagnostics))}, nil
		},
		Probe: func(ctx context.Context, dir string, cases []string) (*pipeline.ProbeResult, error) {
			res, err := probe.Run(ctx, dir, probe.Options{Offline: true, DryRunCalls: cases})
			var usage *probe.UsageError
			if errors.As(err, &usage) {
				l := &diag.List{}
				l.Add(pipeline.RuleCheckFailed.New("", "the offline probe cannot use the dry-run cases: %s", usage.Msg))
				return &pipeline.ProbeResult{Findings: l, Summary: "the probe did not run"}, nil
			}
			if err != nil {
				return nil, err
			}
			return &pipeline.ProbeResult{Findings: res.Diagnostics, Summary: res.Line(dir), NodeProcesses: res.NodeProcesses}, nil
		},
		// TODO(wire): vectors.Run(ctx, dir, vectors.Options{}), its Files
		// written under out, each CheckResult as a pipeline.VectorCheck.
		Vectors: func(context.Context, string, string) (*pipeline.VectorsResult, error) {
			return nil, pipeline.ErrNotAvailable
		},
		DeclaredVariables: livecall.DeclaredVariables,
		LiveCalls:         livecall.Run,
		// TODO(wire): finalize.Run(ctx, dir, finalize.Options{Report,
		// EvidenceDir, Live, Sources, Validator: the strict validator in
		// final mode}).
		Finalize: func(context.Context, string, pipeline.FinalizeRequest) (*pipeline.FinalizeResult, error) {
			return nil, pipeline.ErrNotAvailable
		},
	}
}
