package derive

import (
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/diag"
)

// derive judges no rule of the Portable Core itself: it refuses inputs
// with the findings of contractcheck.Structure, the rules views need, and
// reports its own failures.
var (
	RuleIOFailure = diag.Register("DERIVE_IO_FAILURE", diag.Error, "derive could not read an input or write the derived views")

	RuleLegacyIgnoredInput = diag.Register("DERIVE_LEGACY_INPUT_IGNORED", diag.Warning, "a legacy package (capability-bundle.json, no canonical contract) holds a Portable Core input derive does not read")
)

// Check reports what keeps views from being derived from the inputs: the
// findings of contractcheck.Structure. A contract Check accepts may still
// break deeper rules, which contractcheck.Check judges.
func Check(in *Inputs) *diag.List { return contractcheck.Structure(in) }

// CheckBundle reports what keeps the views of a legacy package (the mirror
// and the draft) from being derived from its capability bundle: the
// findings of contractcheck.Bundle, which point into capability-bundle.json.
func CheckBundle(b *contract.Bundle) *diag.List { return contractcheck.Bundle(b) }

// Rules returns the rules derive reports for a vNext package: those of
// contractcheck.Structure, the reader's missing input and its own I/O
// rule. RuleLegacyIgnoredInput, which concerns legacy packages only, is not
// among them.
func Rules() []*diag.Rule {
	return append(contractcheck.StructureRules(), contractcheck.RuleInputMissing, RuleIOFailure)
}
