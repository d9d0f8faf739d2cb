package pipeline

import (
	"context"
	"errors"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostverify"
	"github.com/code2skill/code2skill/internal/livecall"
)

// Steps are the work the stages do through other packages: judging the
// contract, compiling, validating, probing, running vectors, making live
// calls, finalizing. Every step runs in-process; the ones that must run the
// package (probe, vectors, live calls) start node through the sandbox. The
// command line wires them to the real packages; tests wire fakes.
//
// A step whose package is not part of the build returns ErrNotAvailable,
// and the stage that needs it fails saying so.
type Steps struct {
	// CheckContract judges the Portable Core, with the authorised sources
	// located for evidence resolution (analyze).
	CheckContract func(in *derive.Inputs, sources contract.Sources) *diag.List
	// Compile builds the package's runtime from its Portable Core and
	// writes it into dir (generate).
	Compile func(ctx context.Context, dir string, in *derive.Inputs) (*CompileResult, error)
	// Validate runs the strict validator on dir, whose Portable Core is
	// core, before finalization (preFinalize) or after it (verify,
	// diagnose).
	Validate func(ctx context.Context, dir string, core *derive.Core, preFinalize bool, sources contract.Sources) (*ValidateResult, error)
	// Probe probes dir, whose Portable Core is core, offline: protocol
	// surface and dry-run, with the given dry-run case files (verify).
	Probe func(ctx context.Context, dir string, core *derive.Core, dryRunCases []string) (*ProbeResult, error)
	// Vectors runs the behaviour vectors of dir, whose Portable Core is
	// core, writing their evidence under out (verify).
	Vectors func(ctx context.Context, dir string, core *derive.Core, out string) (*VectorsResult, error)
	// DeclaredVariables names the environment variables the package's
	// modules read, without the dry-run variable (runtime-verify).
	DeclaredVariables func(dir, dryRunVariable string) ([]string, error)
	// LiveCalls makes authorised live calls against dir's server, started
	// through the package's own host runtime (runtime-verify).
	LiveCalls func(ctx context.Context, dir string, calls []livecall.Call, opts livecall.Options) (*livecall.Result, error)
	// HostVerify verifies the package under its Host profile, code2skill
	// playing the reference MCP host (host-verify).
	HostVerify func(ctx context.Context, opts hostverify.Options) (*hostverify.Result, error)
	// Finalize finalizes dir from the verification report and live
	// evidence (finalize).
	Finalize func(ctx context.Context, dir string, req FinalizeRequest) (*FinalizeResult, error)
}

// ErrNotAvailable reports a step whose package is not part of this build.
var ErrNotAvailable = errors.New("not available in this build")

// CompileResult is what compile did.
type CompileResult struct {
	// Files are the files compile wrote, relative to the package.
	Files []string
	// Findings say why capabilities require review; with an error among
	// them nothing was written.
	Findings *diag.List
	// Compiled is what compile made, when the step compiled in process:
	// the run's scope digests slice it instead of compiling again. nil
	// leaves them to compile.
	Compiled *compile.Result
}

// ValidateResult is what the strict validator found.
type ValidateResult struct {
	Findings *diag.List
	// Summary is the validator's one-line verdict, saying what it did not
	// run.
	Summary string
}

// ProbeResult is what the offline probe found.
type ProbeResult struct {
	Findings      *diag.List
	Summary       string
	NodeProcesses int
}

// Vector check statuses.
const (
	VectorPassed    = "passed"
	VectorFailed    = "failed"
	VectorUncovered = "uncovered"
)

// VectorsResult is what the behaviour vectors found.
type VectorsResult struct {
	Checks        []VectorCheck
	Findings      *diag.List
	Summary       string
	NodeProcesses int
}

// VectorCheck is the outcome of one behaviour or bypass check.
type VectorCheck struct {
	CheckID      string
	CapabilityID string // "" for a workflow check
	WorkflowID   string // "" for a capability check
	Phase        string // behavior or bypass
	Status       string // VectorPassed, VectorFailed or VectorUncovered
	Detail       string
	// Evidence is the check's evidence file, relative to the output
	// directory given to Vectors; EvidenceHash its SHA-256.
	Evidence, EvidenceHash string
}

// FinalizeRequest is what finalize is given.
type FinalizeRequest struct {
	// Report is the verification report; EvidenceDir the directory holding
	// the evidence its checks hash.
	Report, EvidenceDir string
	// Live are the live evidence files, in pairs.
	Live []LivePair
	// Sources locate the authorised sources for the contamination gate.
	Sources contract.Sources
	// Key is the evidence key the records are tagged with: finalize
	// attests the checks whose records verify.
	Key *attest.Key
	// Core is the package's Portable Core, as the run loaded it.
	Core *derive.Core
}

// LivePair is a live input file and its result file.
type LivePair struct {
	Input, Result string
}

// FinalizeResult is what finalize did.
type FinalizeResult struct {
	// Findings: with an error among them nothing was written (or the
	// previous final files were put back).
	Findings *diag.List
	// Files are the final files written, relative to the package.
	Files []string
}
