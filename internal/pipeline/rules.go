package pipeline

import "github.com/code2skill/code2skill/internal/diag"

// Rules of the pipeline's own findings. Findings of the steps (contract
// rules, validator, probe, vectors, finalize) keep their own rules.
var (
	RuleStepUnavailable   = diag.Register("PIPELINE_STEP_UNAVAILABLE", diag.Error, "a stage needs a step whose package is not part of this build")
	RuleFileMissing       = diag.Register("PIPELINE_FILE_MISSING", diag.Error, "a file the strict flow needs is missing after generate")
	RuleLinkInTheWay      = diag.Register("PIPELINE_LINK_IN_THE_WAY", diag.Error, "a file the pipeline writes into the package, or a directory on the way, is a symbolic link")
	RuleCheckFailed       = diag.Register("PIPELINE_CHECK_FAILED", diag.Error, "a verification check failed: a global check, a behaviour vector or a live call")
	RuleCheckUncovered    = diag.Register("PIPELINE_CHECK_UNCOVERED", diag.Warning, "a behaviour check the contract expects could not be proven by any vector")
	RuleLiveCase          = diag.Register("PIPELINE_LIVE_CASE", diag.Error, "a live case file is malformed, names another Tool, or its arguments break the input schema")
	RuleLiveReference     = diag.Register("PIPELINE_LIVE_REFERENCE", diag.Error, "a live case passes on the result of a capability the contract does not have, one called at or after it, or through a pointer that is not a JSON Pointer")
	RuleLiveSkipped       = diag.Register("PIPELINE_LIVE_SKIPPED", diag.Warning, "runtime verification did not call a capability: write not authorised, no live case, no trusted value")
	RuleEvidence          = diag.Register("PIPELINE_EVIDENCE", diag.Error, "a check record's evidence is missing, changed since it was recorded, or outside the state's verification directory")
	RuleRecordUnattested  = diag.Register("PIPELINE_RECORD_UNATTESTED", diag.Error, "a check record's tag does not verify with the evidence key (written or edited by hand, or tagged on another machine), or it was recorded by a stage other than the one that runs its phase")
	RuleRecordReused      = diag.Register("PIPELINE_RECORD_REUSED", diag.Error, "a check record lies in the file of another check, row or phase than the one it records: one result copied to stand for another, in any phase (global, behaviour, bypass, runtime, host)")
	RuleRecordForeign     = diag.Register("PIPELINE_RECORD_FOREIGN", diag.Error, "a check record is about another contract or another version of the package than the one being finalized")
	RuleGeneratedReplaced = diag.Register("PIPELINE_GENERATED_REPLACED", diag.Warning, "generate replaced a generated file that was edited since the pipeline wrote it (or that it did not write)")
	RuleFinalization      = diag.Register("PIPELINE_FINALIZATION_UNVERIFIED", diag.Warning, "the finalization run-state.json remembers does not verify (edited, tagged with another key) or the final files changed since; its decision is not shown")
	RuleGlobalChecks      = diag.Register("PIPELINE_GLOBAL_CHECKS", diag.Error, "finalize needs the static validation, offline probe and behaviour vector checks, passed")
)
