// Package verdict computes the final verdict of a vNext package: the status
// of every capability and hard workflow, and the approval decisions, from
// the evidence verification produced. It is the one judge of those facts:
// finalize computes the final files with it, and the final-files
// cross-check recomputes them with it from what the files record.
//
// Everything here is pure: no file system, no clock. The inputs are
//
//   - a Baseline: what the contract and the Host profile say about each
//     capability and workflow before any evidence, derived with the derive
//     library (reasons, review items, expected checks, Host compatibility);
//   - the Evidence: per capability its behavior, runtime and host phases,
//     per workflow its bypass, runtime and host phases, each a status and
//     the executed checks, and per capability the digests of its live
//     input and result.
//
// Compute turns them into a Matrix (verification-matrix.json), whose
// decisions give approval-audit.json; the other final files record hashes
// (Receipt, Preflight, LiveVerification, Manifest).
//
// A status is scoped to its row: a green result of one Tool never vouches
// for another. The only dependencies between rows are the ones the contract
// declares: a write guarded by a deterministic workflow needs that workflow
// verified, and a workflow needs every member capability enabled by the
// Host.
//
// Every status flag is a function of evidence that the final matrix itself
// records (the checks of each row, the phase failures and pending reasons
// among its reasons, live-verification.json), so that FromMatrix can
// rebuild the evidence and Compute give the same matrix again. That is how
// the cross-check recomputes, rather than trusts, a finalized package.
package verdict

// Phases of verification. A capability is verified in the behavior,
// runtime and host phases; a workflow in the bypass, runtime and host
// phases.
const (
	PhaseBehavior = "behavior"
	PhaseRuntime  = "runtime"
	PhaseHost     = "host"
	PhaseBypass   = "bypass"
)

// CapabilityPhases and WorkflowPhases are the phases of a record, in the
// order records, rows and reasons list them.
var (
	CapabilityPhases = [3]string{PhaseBehavior, PhaseRuntime, PhaseHost}
	WorkflowPhases   = [3]string{PhaseBypass, PhaseRuntime, PhaseHost}
)

// Phase statuses of a verification report.
const (
	StatusPassed         = "passed"
	StatusFailed         = "failed"
	StatusNotRun         = "not-run"
	StatusRequiresReview = "requires-review"
	StatusBlocked        = "blocked"
)

// Approval decisions, per row and for the package.
const (
	DecisionApproved          = "approved"
	DecisionPartiallyApproved = "partially-approved"
	DecisionRequiresReview    = "requires-review"
	DecisionBlocked           = "blocked"
)

// Paths of the seven final files, relative to the package root, in the
// order finalize computes them: each later file hashes the earlier ones
// (AttestationFile, computed after the matrix, is declared with the
// attestation).
const (
	ReceiptFile   = "function-core/validation-receipt.json"
	PreflightFile = "preflight-report.json"
	LiveFile      = "live-verification.json"
	MatrixFile    = "verification-matrix.json"
	ApprovalFile  = "approval-audit.json"
	ManifestFile  = "export-manifest.json"
)

// FinalFiles lists the final files in the order finalize computes them.
var FinalFiles = []string{ReceiptFile, PreflightFile, LiveFile, MatrixFile, AttestationFile, ApprovalFile, ManifestFile}

// Paths of the derived views the receipt and the preflight report hash.
const (
	contractFile = "canonical-contract.json"
	bundleFile   = "capability-bundle.json"
	draftFile    = "capability-draft.json"
)

// Host compatibility status under which a capability can be Host-verified.
const hostEnabled = "enabled"
