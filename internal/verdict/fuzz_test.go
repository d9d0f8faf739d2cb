package verdict_test

import (
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// FuzzReport feeds arbitrary reports through the whole judgement: a report
// the schema accepts must be read, checked and computed without a panic,
// and every finding must carry a registered rule and a location.
func FuzzReport(f *testing.F) {
	in := verdicttest.Inputs(f)
	b := verdicttest.Baseline(f, in)
	g := verdicttest.NewGreenFrom(f, b)
	f.Add(canonjson.Encode(g.Report))
	g.FailCheck(f, "capabilities", "save-sample-draft", "behavior")
	g.SetNotRun(f, "workflows", "submit-sample-request", "bypass")
	f.Add(canonjson.Encode(g.Report))
	f.Add([]byte(`{"schemaVersion":"vNext","contractId":"x","status":"partial","checks":[],"capabilities":[],"workflows":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		vs, err := verdict.ValidateReport(data)
		if err != nil || len(vs) > 0 {
			return
		}
		doc, err := canonjson.Decode(data)
		if err != nil {
			return // a document the schema library reads but the strict decoder refuses (duplicate keys)
		}
		rep, ds := verdict.FromReport(b, "report.json", doc)
		ds = append(ds, verdict.CheckEvidence(b, rep.Evidence)...)
		m, ps := verdict.Compute(b, rep.Evidence)
		for _, d := range append(ds, ps...) {
			if d.Rule == "" || d.File != "report.json" || d.Pointer == "" {
				t.Errorf("finding without rule or location: %v", d)
			}
		}
		doc2, err := canonjson.Decode(canonjson.Encode(m.JSON()))
		if err != nil {
			t.Fatal(err)
		}
		if _, ps := verdict.FromMatrix(b, doc2, rep.Evidence.Live); len(ps) > 0 {
			t.Errorf("the matrix of an accepted report does not read back: %v", ps)
		}
	})
}

// FuzzFromMatrix feeds arbitrary matrices to the cross-check's reader: no
// panic, whatever the document.
func FuzzFromMatrix(f *testing.F) {
	in := verdicttest.Inputs(f)
	b := verdicttest.Baseline(f, in)
	g := verdicttest.NewGreenFrom(f, b)
	rep, _ := verdict.FromReport(b, "report.json", g.Report)
	rep.Evidence.Live = g.Live
	m, _ := verdict.Compute(b, rep.Evidence)
	f.Add(canonjson.Encode(m.JSON()))
	f.Add([]byte(`{"capabilities": [{"capabilityId": "save-sample-draft", "reasons": 1, "checks": [{}]}], "workflows": 7}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		doc, err := canonjson.Decode(data)
		if err != nil {
			return
		}
		ev, _ := verdict.FromMatrix(b, doc, g.Live)
		verdict.CheckEvidence(b, ev)
		verdict.Compute(b, ev)
	})
}
