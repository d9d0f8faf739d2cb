package verdict

import (
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsonschema"
)

// Rules about reading the evidence back from a final matrix.
var (
	RuleMatrixRow   = diag.Register("FINAL_MATRIX_ROW", diag.Error, "the final verification matrix does not have exactly one well-formed row per capability and workflow")
	RuleMatrixCheck = diag.Register("FINAL_MATRIX_CHECK", diag.Error, "a final matrix row records a check that is not a valid executed check of one of the row's phases")
)

// FromMatrix rebuilds the evidence a final verification matrix records: each
// row's executed checks, grouped by the phase they name, and each phase's
// outcome, read from the row's reasons the way Compute writes them (a
// "<phase>-verification-failed" or "-blocked" reason, else passed when no
// "<phase>-verification-pending" reason remains). live is the live evidence
// live-verification.json records.
//
// Compute applied to the rebuilt evidence gives back the matrix Compute
// wrote: that is what lets the cross-check recompute a finalized package
// instead of trusting it. Rows that cannot be read are findings; their
// records are left with phases that did not run.
func FromMatrix(b *Baseline, matrix canonjson.Value, live map[string]Live) (*Evidence, []diag.Diagnostic) {
	ev := &Evidence{File: MatrixFile, Live: live}
	var problems []diag.Diagnostic
	// Checks that break the definition of an executed check, by the
	// pointer of the check ("/capabilities/0/checks/3").
	invalid := map[string][]jsonschema.Violation{}
	for _, v := range validateMatrixChecks(matrix) {
		tok := diag.SplitPointer(v.Pointer)
		if len(tok) >= 4 {
			key := diag.Pointer(tok[0], tok[1], tok[2], tok[3])
			invalid[key] = append(invalid[key], v)
		}
	}
	add := func(rule *diag.Rule, pointer, format string, args ...any) {
		problems = append(problems, rule.New(MatrixFile, format, args...).AtPointer(pointer))
	}
	rows := func(s rowSet) []Record {
		v, _ := canonjson.Resolve(matrix, "/"+s.key)
		arr, ok := v.(canonjson.Array)
		if !ok {
			add(RuleMatrixRow, "/"+s.key, "%s must be an array of rows, got %s", s.key, canonjson.TypeName(v))
		}
		found := s.match(arr, func(k int, p rowProblem) {
			switch p.kind {
			case rowUnnamed:
				add(RuleMatrixRow, s.at(k), "a row must be an object naming its %s", s.idKey)
			case rowUndeclared:
				add(RuleMatrixRow, s.at(k)+"/"+s.idKey, "%s %q is not declared by the contract", s.idKey, p.id)
			case rowRepeated:
				add(RuleMatrixRow, s.at(k)+"/"+s.idKey, "%s %q has a second row; the first is %s", s.idKey, p.id, s.at(p.first))
			}
		})
		out := make([]Record, len(s.ids))
		for i, id := range s.ids {
			if found[i] < 0 {
				add(RuleMatrixRow, "/"+s.key, "%s %q has no row", s.idKey, id)
				out[i] = notRun(id, s.phases)
				continue
			}
			var ps []diag.Diagnostic
			out[i], ps = recordFromRow(arr[found[i]].(*canonjson.Object), s.at(found[i]), id, s.phases, invalid)
			problems = append(problems, ps...)
		}
		return out
	}
	caps, wfs := b.rowSets()
	ev.Capabilities = rows(caps)
	ev.Workflows = rows(wfs)
	return ev, problems
}

// PhaseStatusFromReasons reads the status of one phase (behavior, runtime,
// host or bypass) from a final matrix row's reasons, the way Compute writes
// them: failed or blocked when the row names that failure, else passed
// when no "<phase>-verification-pending" reason remains, else not run.
func PhaseStatusFromReasons(reasons []string, phase string) string {
	stem := reasonStem(phase)
	switch {
	case slices.Contains(reasons, stem+failedSuffix):
		return StatusFailed
	case slices.Contains(reasons, stem+blockedSuffix):
		return StatusBlocked
	case !slices.Contains(reasons, stem+pendingSuffix):
		return StatusPassed
	}
	return StatusNotRun
}

// recordFromRow rebuilds the record of one matrix row.
func recordFromRow(row *canonjson.Object, at, id string, phases [3]string, invalid map[string][]jsonschema.Violation) (Record, []diag.Diagnostic) {
	var problems []diag.Diagnostic
	r := Record{ID: id, At: at}
	var reasons []string
	rv, _ := row.Get("reasons")
	ra, ok := rv.(canonjson.Array)
	if !ok {
		problems = append(problems, RuleMatrixRow.New(MatrixFile, "reasons must be an array of strings, got %s", canonjson.TypeName(rv)).AtPointer(at+"/reasons"))
	}
	for _, s := range ra {
		reasons = append(reasons, stringOf(s))
	}
	for k, name := range phases {
		r.Phases[k] = Phase{Name: name, At: at, Status: PhaseStatusFromReasons(reasons, name)}
	}
	cv, _ := row.Get("checks")
	checks, ok := cv.(canonjson.Array)
	if !ok {
		problems = append(problems, RuleMatrixRow.New(MatrixFile, "checks must be an array of executed checks, got %s", canonjson.TypeName(cv)).AtPointer(at+"/checks"))
	}
	for k, v := range checks {
		cat := fmt.Sprintf("%s/checks/%d", at, k)
		if vs := invalid[cat]; len(vs) > 0 {
			for _, x := range vs {
				problems = append(problems, RuleMatrixCheck.New(MatrixFile, "not a valid executed check: %s", x.Message).AtPointer(x.Pointer))
			}
			continue
		}
		c := DecodeCheck(v.(*canonjson.Object), cat)
		pi := slices.Index(phases[:], c.Phase)
		if pi < 0 {
			problems = append(problems, RuleMatrixCheck.New(MatrixFile, "the check must name its phase, one of %s, %s or %s", phases[0], phases[1], phases[2]).AtPointer(cat+"/phase"))
			continue
		}
		r.Phases[pi].Checks = append(r.Phases[pi].Checks, c)
	}
	return r, problems
}
