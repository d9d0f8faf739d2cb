package pipeline

import "github.com/code2skill/code2skill/internal/diag"

// Rules of the pipeline's own findings. Findings of the steps (contract
// rules, validator, probe, vectors, finalize) keep their own rules.
var (
	RuleStepUnavailable = diag.Register("PIPELINE_STEP_UNAVAILABLE", diag.Error, "a stage needs a step whose package is not part of this build")
	RuleFileMissing     = diag.Register("PIPELINE_FILE_MISSING", diag.Error, "a file the strict flow needs is missing after generate")
	RuleLinkInTheWay    = diag.Register("PIPELINE_LINK_IN_THE_WAY", diag.Error, "a file the pipeline writes into the package, or a directory on the way, is a symbolic link")
	RuleCheckFailed     = diag.Register("PIPELINE_CHECK_FAILED", diag.Error, "a verification check failed: a global check, a behaviour vector or a live call")
	RuleCheckUncovered  = diag.Register("PIPELINE_CHECK_UNCOVERED", diag.Warning, "a behaviour check the contract expects could not be proven by any vector")
	RuleLiveCase        = diag.Register("PIPELINE_LIVE_CASE", diag.Error, "a live case file is malformed, names another Tool, or its arguments break the input schema")
	RuleLiveSkipped     = diag.Register("PIPELINE_LIVE_SKIPPED", diag.Warning, "runtime verification did not call a capability: write not authorised, no live case, no trusted value")
	RuleEvidence        = diag.Register("PIPELINE_EVIDENCE", diag.Error, "a check record's evidence is missing, changed since it was recorded, or outside the state's verification directory")
	RuleGlobalChecks    = diag.Register("PIPELINE_GLOBAL_CHECKS", diag.Error, "finalize needs the static validation, offline probe and behaviour vector checks, passed")
)
