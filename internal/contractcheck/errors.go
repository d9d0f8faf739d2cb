package contractcheck

import (
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family O: the error contract, where a structured failure keeps what a
// caller needs to recover. Decoding checks its shape and paths.
var (
	RuleErrorRecovery  = diag.Register("CONTRACT_ERROR_RECOVERY", diag.Error, "an error contract does not preserve the recovery context (preservesRecoveryContext is false)")
	RuleErrorRetryable = diag.Register("CONTRACT_ERROR_RETRYABLE", diag.Error, "an error contract defaults to retryable without a retryabilityPath that says when")
)

func (k *checker) errorContract(cp *contract.Capability) {
	e := &cp.ErrorContract
	if e.Raw == nil {
		return
	}
	if !e.PreservesRecoveryContext && e.Raw.Has("preservesRecoveryContext") {
		k.contractf(RuleErrorRecovery, child(e.At, "preservesRecoveryContext"),
			"the error contract of %q must preserve the recovery context: codes, messages and details reach the caller", cp.ID)
	}
	if e.DefaultRetryable && len(e.RetryabilityPath) == 0 {
		k.contractf(RuleErrorRetryable, child(e.At, "defaultRetryable"),
			"the error contract of %q has no retryabilityPath, so nothing says an error is retryable: defaultRetryable must be false", cp.ID)
	}
	k.cited(e.At, e.EvidenceRefs, "the error contract of "+cp.ID)
}
