package finalize

import (
	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/verdict"
)

// records are the authenticated check records of the evidence directory:
// the records the pipeline tagged with the evidence key, about this
// package as it is, each written by the stage that runs its phase. A
// report's check counts as attested when such a record says exactly what
// the check says.
type records struct {
	byCheck map[string]bool
}

// attestedRecords collects the authenticated records among the files of the
// evidence directory that may be check records (files), keeping those
// whose tag verifies with key, whose stage runs their phase, and which are
// about the contract contractID and the package whose candidate digest is
// candidate. Without a key there are none.
func attestedRecords(key *attest.Key, files map[string][]byte, contractID, candidate string) *records {
	rs := &records{byCheck: map[string]bool{}}
	if key == nil {
		return rs
	}
	for _, data := range files {
		rec, err := attest.DecodeRecord(data)
		if err != nil || key.VerifyRecord(rec) != attest.Valid {
			continue
		}
		if rec.Stage != attest.StageOf(rec.Phase) || rec.ContractID != contractID || rec.CandidateDigest != candidate {
			continue
		}
		rs.byCheck[recordKey(rec.Scope(), rec.Phase, rec.ReportCheck(rec.Phase != attest.PhaseGlobal))] = true
	}
	return rs
}

func recordKey(scope, phase string, check *canonjson.Object) string {
	return scope + "\x00" + phase + "\x00" + string(canonjson.DigestForm(check))
}

// attested reports whether an authenticated record says exactly what a
// check, as the final files record it, says.
func (rs *records) attested(scope, phase string, check *canonjson.Object) bool {
	return rs.byCheck[recordKey(scope, phase, check)]
}

// unattestedRows returns the rows whose passed checks are not all attested,
// as finalize is about to record them.
func unattestedRows(files []verdict.File, rs *records) []string {
	docs := map[string]canonjson.Value{}
	for _, f := range files {
		if f.Path == verdict.MatrixFile || f.Path == verdict.PreflightFile {
			docs[f.Path], _ = canonjson.Decode(f.Data)
		}
	}
	checks := verdict.MatrixChecks(docs[verdict.MatrixFile], docs[verdict.PreflightFile])
	outcomes := make([]string, len(checks))
	for i, c := range checks {
		outcomes[i] = verdict.CheckUnattested
		if rs.attested(c.Scope, c.Phase, c.Check) {
			outcomes[i] = verdict.CheckAttested
		}
	}
	return verdict.UnattestedRows(checks, outcomes)
}
