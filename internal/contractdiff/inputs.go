package contractdiff

import "github.com/code2skill/code2skill/internal/diag"

// Rules of what keeps two contracts from being compared. A diff is printed
// only when both contracts were read whole: never a partial one.
var (
	RuleInputMissing = diag.Register("DIFF_INPUT_MISSING", diag.Error, "an argument of diff names no contract: no such file, no package with canonical-contract.json, no REV:PATH")
	RuleInputLegacy  = diag.Register("DIFF_INPUT_LEGACY", diag.Error, "an argument of diff is a legacy package, which has no canonical contract to compare")
	RuleInputInvalid = diag.Register("DIFF_INPUT_INVALID", diag.Error, "a contract diff would compare is not valid JSON of the contract's format, so a diff of it could not be complete")
	RuleMismatch     = diag.Register("DIFF_CONTRACT_MISMATCH", diag.Error, "the two contracts are of different features (different contractId): there is nothing to compare field by field")
	RuleRevision     = diag.Register("DIFF_GIT_NOT_FOUND", diag.Error, "a REV:PATH names a git revision, or a path in it, that does not exist, or a directory in no repository")
	RuleCouldNotRead = diag.Register("DIFF_FAILED", diag.Error, "diff could not do its job: a file could not be read, or git could not run")
)
