package verdict

import (
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Rules about a verification report beyond its JSON Schema.
var (
	RuleReportSchema   = diag.Register("REPORT_SCHEMA", diag.Error, "the verification report does not follow the verification report JSON Schema")
	RuleReportContract = diag.Register("REPORT_CONTRACT", diag.Error, "the verification report is about another contract than canonical-contract.json")
	RuleReportCoverage = diag.Register("REPORT_COVERAGE", diag.Error, "the verification report does not cover every capability and workflow of the contract exactly once")
	RuleReportStatus   = diag.Register("REPORT_STATUS", diag.Error, "the verification report's status is passed although a phase of some record did not pass")
)

// Report is a verification report read into evidence.
type Report struct {
	Evidence *Evidence
	// GlobalChecks are the report's package-wide checks, as written.
	GlobalChecks canonjson.Array
}

// DecodeChecks reads a list of executed checks that the schema accepted;
// at is the list's JSON Pointer in its file. Entries that are not objects
// are left out.
func DecodeChecks(list canonjson.Array, at string) []Check {
	var out []Check
	for i, v := range list {
		if o, ok := v.(*canonjson.Object); ok {
			out = append(out, DecodeCheck(o, fmt.Sprintf("%s/%d", at, i)))
		}
	}
	return out
}

// FromReport reads a verification report that ValidateReport accepted. file
// names the report in findings. A capability or workflow the report does not
// cover gets phases that did not run, so that the findings about the report
// can be reported together with everything else.
func FromReport(b *Baseline, file string, doc canonjson.Value) (*Report, []diag.Diagnostic) {
	ev := &Evidence{File: file, Live: map[string]Live{}}
	var problems []diag.Diagnostic
	add := func(rule *diag.Rule, pointer, format string, args ...any) {
		problems = append(problems, rule.New(file, format, args...).AtPointer(pointer))
	}
	root, _ := doc.(*canonjson.Object)
	if id := stringMember(root, "contractId"); id != b.ContractID {
		add(RuleReportContract, "/contractId", "the report is about contract %q, but canonical-contract.json is %q", id, b.ContractID)
	}
	records := func(s rowSet) []Record {
		arr, _ := mustArray(root, s.key)
		found := s.match(arr, func(k int, p rowProblem) {
			at := s.at(k) + "/" + s.idKey
			switch p.kind {
			case rowUnnamed:
				add(RuleReportCoverage, s.at(k), "a record must be an object naming its %s", s.idKey)
			case rowUndeclared:
				add(RuleReportCoverage, at, "%s %q is not declared by the contract", s.idKey, p.id)
			case rowRepeated:
				add(RuleReportCoverage, at, "%s %q is covered twice; the first record is %s", s.idKey, p.id, s.at(p.first))
			}
		})
		out := make([]Record, len(s.ids))
		for i, id := range s.ids {
			if found[i] < 0 {
				add(RuleReportCoverage, "/"+s.key, "%s %q has no record; every one is covered, with not-run phases when they did not run", s.idKey, id)
				out[i] = notRun(id, s.phases)
				continue
			}
			out[i] = recordFromReport(arr[found[i]].(*canonjson.Object), s.at(found[i]), id, s.phases)
		}
		return out
	}
	caps, wfs := b.rowSets()
	ev.Capabilities = records(caps)
	ev.Workflows = records(wfs)

	if stringMember(root, "status") == StatusPassed {
		if r, p := firstNotPassed(slices.Concat(ev.Capabilities, ev.Workflows)); p != nil {
			add(RuleReportStatus, "/status", "status is passed, but the %s phase of %s is %s; a report with any phase not passed is partial",
				p.Name, r.ID, p.Status)
		}
	}
	global, _ := mustArray(root, "checks")
	return &Report{Evidence: ev, GlobalChecks: global}, problems
}

// recordFromReport reads one schema-valid record.
func recordFromReport(o *canonjson.Object, at, id string, phases [3]string) Record {
	r := Record{ID: id, At: at}
	for k, name := range phases {
		pat := at + "/" + name
		po, _ := o.Get(name)
		p := Phase{Name: name, At: pat, Status: stringMember(po.(*canonjson.Object), "status")}
		checks, _ := mustArray(po.(*canonjson.Object), "checks")
		for ci, cv := range checks {
			p.Checks = append(p.Checks, DecodeCheck(cv.(*canonjson.Object), fmt.Sprintf("%s/checks/%d", pat, ci)))
		}
		r.Phases[k] = p
	}
	return r
}

func mustArray(o *canonjson.Object, key string) (canonjson.Array, bool) {
	v, _ := o.Get(key)
	a, ok := v.(canonjson.Array)
	return a, ok
}

// firstNotPassed returns the first phase whose outcome is not Passed.
func firstNotPassed(records []Record) (*Record, *Phase) {
	for i := range records {
		for k := range records[i].Phases {
			if records[i].Phases[k].Outcome() != Passed {
				return &records[i], &records[i].Phases[k]
			}
		}
	}
	return nil, nil
}
