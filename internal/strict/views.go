package strict

import (
	"bytes"
	"errors"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// checkView compares a derived view on disk with what derive computes. The
// view must hold the same JSON value (the established validators compare
// values); a view with the right value but other bytes is a warning,
// because the documentation marker and the finalize hashes are computed
// over bytes.
func checkView(file string, got, want []byte) []diag.Diagnostic {
	return compareView(file, got, want, RuleViewStale, "the view is stale or was edited by hand; run code2skill derive")
}

// compareView reports the first difference between a view on disk and its
// derivation under rule, followed by advice.
func compareView(file string, got, want []byte, rule *diag.Rule, advice string) []diag.Diagnostic {
	if bytes.Equal(got, want) {
		return nil
	}
	gv, err := canonjson.Decode(got)
	if err != nil {
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			return []diag.Diagnostic{se.Diagnostic(file)}
		}
		return []diag.Diagnostic{canonjson.RuleSyntax.New(file, "%v", err)}
	}
	wv, err := canonjson.Decode(want)
	if err != nil {
		// derive encodes what it decodes: this cannot happen.
		panic("strict: derive wrote a view it cannot read back: " + err.Error())
	}
	if d := firstDifference(gv, wv); d != nil {
		return []diag.Diagnostic{rule.New(file, "%s %s: %s", describePointer(d.pointer), d.message, advice).AtPointer(d.pointer)}
	}
	return []diag.Diagnostic{RuleViewFormat.New(file,
		"holds the derived content but not the bytes derive writes (layout or key order); run code2skill derive so that hashes over it agree")}
}

// describePointer names a location for a message: the pointer, or "the
// document" for the empty pointer.
func describePointer(p string) string {
	if p == "" {
		return "the document"
	}
	return p
}

// viewsToCompare are the derived views that must equal their derivation
// at any time: every view except the verification matrix, which
// finalization replaces.
func viewsToCompare(views []derive.View) []derive.View {
	out := make([]derive.View, 0, len(views))
	for _, v := range views {
		if v.Path != derive.VerificationMatrixFile {
			out = append(out, v)
		}
	}
	return out
}

// checkMatrix checks the verification matrix of a package that has not been
// finalized: nothing has been verified yet, so it must be exactly the
// baseline derive writes (delivery pending, every row generated and
// unverified, the derived review items). A matrix that says more claims
// verification that did not happen.
func checkMatrix(got, baseline []byte) []diag.Diagnostic {
	return compareView(derive.VerificationMatrixFile, got, baseline, RuleMatrix,
		"before finalization nothing is verified, so the matrix is the baseline; run code2skill derive to restore it")
}
