package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostverify"
	"github.com/code2skill/code2skill/internal/verdict"
)

// StageFinalize builds the verification report from the records, then
// finalize writes the final files.
const StageFinalize = "finalize"

var finalizeStage = &stage{
	name:       StageFinalize,
	categories: []string{CategoryFinalization},
	inputs: func(r *runner) ([]input, error) {
		state := func(label, dir string) func() ([]input, error) {
			return func() ([]input, error) { return r.stateTree(label, dir) }
		}
		return inputsOf(
			r.candidate,
			state(labelResults, ResultsDir),
			state(labelLogs, LogsDir),
			state(labelVectors, VectorsDir),
			state(labelLive, LiveDir),
			r.sources,
		)
	},
	// A finalization that no longer verifies is done again.
	current: func(r *runner) (bool, error) {
		fin, _, err := r.p.verifiedFinalization(r.st)
		return fin != nil, err
	},
	run:    (*runner).finalize,
	failed: (*runner).restoreAfterFailedFinalize,
}

// Phase outcomes of the verification report.
const (
	OutcomePassed         = "passed"
	OutcomeFailed         = "failed"
	OutcomeNotRun         = "not-run"
	OutcomeRequiresReview = "requires-review"
)

// expectations are the checkIds the contract expects, per capability and
// workflow and per phase, as the baseline matrix derives them.
type expectations struct {
	capabilities []scopeChecks // contract order
	workflows    []scopeChecks
}

type scopeChecks struct {
	id     string
	phases map[string][]string // phase -> checkIds
}

// expectedChecks reads the expected checks from the derived baseline
// matrix: each capability's derived minimum plus its declared checks, each
// workflow's declared checks (bare IDs are bypass checks).
func expectedChecks(views *derive.Derived) *expectations {
	doc := canonjson.Value(views.Matrix)
	exp := &expectations{}
	read := func(pointer, idKey, defaultPhase string) []scopeChecks {
		var out []scopeChecks
		rows, _ := canonjson.Resolve(doc, pointer)
		arr, _ := rows.(canonjson.Array)
		for _, row := range arr {
			o, _ := row.(*canonjson.Object)
			if o == nil {
				continue
			}
			id, _ := o.Get(idKey)
			sc := scopeChecks{id: stringOf(id), phases: map[string][]string{}}
			checks, _ := o.Get("checks")
			list, _ := checks.(canonjson.Array)
			for _, c := range list {
				checkID, phase := "", defaultPhase
				switch c := c.(type) {
				case canonjson.String:
					checkID = string(c)
				case *canonjson.Object:
					v, _ := c.Get("checkId")
					checkID = stringOf(v)
					if p, ok := c.Get("phase"); ok {
						phase = stringOf(p)
					}
				}
				if checkID != "" && !slices.Contains(sc.phases[phase], checkID) {
					sc.phases[phase] = append(sc.phases[phase], checkID)
				}
			}
			out = append(out, sc)
		}
		return out
	}
	exp.capabilities = read("/capabilities", "capabilityId", PhaseBehavior)
	exp.workflows = read("/workflows", "workflowId", PhaseBypass)
	return exp
}

// withHostChecks adds the Host-phase checks host verification runs under
// the package's profile (hostverify.ExpectedChecks) to the expectations,
// so that a Host phase passes only when every one of them passed.
func withHostChecks(exp *expectations, in *derive.Inputs) *expectations {
	host := hostverify.ExpectedChecks(in)
	add := func(scopes []scopeChecks, ids map[string][]string) {
		for i := range scopes {
			for _, id := range ids[scopes[i].id] {
				if !slices.Contains(scopes[i].phases[PhaseHost], id) {
					scopes[i].phases[PhaseHost] = append(scopes[i].phases[PhaseHost], id)
				}
			}
		}
	}
	add(exp.capabilities, host.Capabilities)
	add(exp.workflows, host.Workflows)
	return exp
}

func stringOf(v canonjson.Value) string {
	s, _ := v.(canonjson.String)
	return string(s)
}

// phaseOutcome computes the outcome of one phase of one row from its
// records: any failed check fails it; every expected check passed passes
// it; some passed is a review; none is not run. A passed runtime phase
// needs a check bound to live evidence, and a passed bypass phase checks
// that prove zero external writes.
func phaseOutcome(phase string, expected []string, recs []*Record) string {
	passed := map[string]bool{}
	for _, rec := range recs {
		if rec.Status != CheckPassed {
			return OutcomeFailed
		}
		passed[rec.CheckID] = true
	}
	if len(passed) == 0 {
		return OutcomeNotRun
	}
	for _, id := range expected {
		if !passed[id] {
			return OutcomeRequiresReview
		}
	}
	switch phase {
	case PhaseRuntime:
		if !slices.ContainsFunc(recs, func(r *Record) bool { return r.ToolName != "" && r.InputHash != "" && r.ResultHash != "" }) {
			return OutcomeRequiresReview
		}
	case PhaseBypass:
		if slices.ContainsFunc(recs, func(r *Record) bool { return r.ZeroExternalWrites == nil || !*r.ZeroExternalWrites }) {
			return OutcomeRequiresReview
		}
	}
	return OutcomePassed
}

// rowRecords returns the records of one row and phase.
func rowRecords(recs []*Record, capabilityID, workflowID, phase string) []*Record {
	var out []*Record
	for _, r := range recs {
		if r.Phase == phase && r.CapabilityID == capabilityID && r.WorkflowID == workflowID {
			out = append(out, r)
		}
	}
	return out
}

// verificationReport builds the verification report (finalize's input)
// from the records. It returns the report and the live pairs the passed
// runtime checks are bound to.
func verificationReport(contractID string, exp *expectations, recs []*Record) (*canonjson.Object, []*Record) {
	phaseObject := func(phase string, expected []string, rs []*Record) *canonjson.Object {
		checks := canonjson.Array{}
		for _, r := range rs {
			checks = append(checks, r.ReportCheck(true))
		}
		return canonjson.NewObject(
			canonjson.Member{Key: "status", Value: canonjson.String(phaseOutcome(phase, expected, rs))},
			canonjson.Member{Key: "checks", Value: checks},
		)
	}
	allPassed := true
	row := func(idKey, id string, phases []string, sc scopeChecks, capID, wfID string) *canonjson.Object {
		o := canonjson.NewObject(canonjson.Member{Key: idKey, Value: canonjson.String(id)})
		for _, ph := range phases {
			po := phaseObject(ph, sc.phases[ph], rowRecords(recs, capID, wfID, ph))
			if s, _ := po.Get("status"); s != canonjson.String(OutcomePassed) {
				allPassed = false
			}
			o.Set(ph, po)
		}
		return o
	}
	caps, wfs := canonjson.Array{}, canonjson.Array{}
	for _, sc := range exp.capabilities {
		caps = append(caps, row("capabilityId", sc.id, []string{PhaseBehavior, PhaseRuntime, PhaseHost}, sc, sc.id, ""))
	}
	for _, sc := range exp.workflows {
		wfs = append(wfs, row("workflowId", sc.id, []string{PhaseBypass, PhaseRuntime, PhaseHost}, sc, "", sc.id))
	}
	global := canonjson.Array{}
	var live []*Record
	for _, id := range GlobalChecks {
		for _, r := range recs {
			if r.Phase == PhaseGlobal && r.CheckID == id {
				global = append(global, r.ReportCheck(false))
			}
		}
	}
	for _, r := range recs {
		if r.Phase == PhaseRuntime && r.CapabilityID != "" && r.Status == CheckPassed && r.LiveInputPath != "" {
			live = append(live, r)
		}
	}
	status := "partial"
	if allPassed {
		status = "passed"
	}
	return canonjson.NewObject(
		canonjson.Member{Key: "schemaVersion", Value: canonjson.String("vNext")},
		canonjson.Member{Key: "contractId", Value: canonjson.String(contractID)},
		canonjson.Member{Key: "status", Value: canonjson.String(status)},
		canonjson.Member{Key: "checks", Value: global},
		canonjson.Member{Key: "capabilities", Value: caps},
		canonjson.Member{Key: "workflows", Value: wfs},
	), live
}

// finalize builds the verification report from the records after
// checking every record it relies on, and hands it with the live pairs to
// finalize, which writes the final files.
func (r *runner) finalize() (*stageOutcome, error) {
	out := &stageOutcome{steps: []string{"build the verification report from the records", "code2skill finalize"}}
	in, err := r.checkedCore(out)
	if in == nil || err != nil {
		return out, err
	}
	if stop, err := r.contractChanged(in, out); stop || err != nil {
		return out, err
	}
	exp := withHostChecks(expectedChecks(r.core.Views()), in)
	recs, problems, err := r.p.readRecords()
	if err != nil {
		return out, err
	}
	if len(problems) > 0 {
		out.findings.Add(problems...)
		return out.fail("%d check record(s) cannot be relied on", len(problems)), nil
	}
	var missing []string
	for _, id := range GlobalChecks {
		if !slices.ContainsFunc(recs, func(rec *Record) bool {
			return rec.Phase == PhaseGlobal && rec.CheckID == id && rec.Status == CheckPassed
		}) {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		out.findings.Add(RuleGlobalChecks.New("", "the global checks %v are missing or failed; run verify", missing))
		return out.fail("the verify checks are missing or failed; run verify"), nil
	}
	b, err := r.p.packageBinding(r.core)
	if err != nil {
		return out, err
	}
	if _, ds := r.p.guardEvidence(recs, b); len(ds) > 0 {
		out.findings.Add(ds...)
		return out.fail("%d check record(s) cannot be relied on", len(ds)), nil
	}
	report, live := verificationReport(in.Contract.ContractID, exp, recs)
	if err := writeStateFile(r.p.statePath(VerificationReportFile), canonjson.Encode(report)); err != nil {
		return out, err
	}
	req := FinalizeRequest{Report: r.p.statePath(VerificationReportFile), EvidenceDir: r.p.statePath(verificationDir), Sources: r.sourcesLocated(), Key: r.p.Key, Core: r.core}
	for _, rec := range live {
		req.Live = append(req.Live, LivePair{
			Input:  r.p.statePath(verificationDir + "/" + rec.LiveInputPath),
			Result: r.p.statePath(verificationDir + "/" + rec.LiveResultPath),
		})
	}
	r.keep(verdict.FinalFiles...)
	res, err := r.p.Steps.Finalize(r.ctx, r.p.abs, req)
	if errors.Is(err, ErrNotAvailable) {
		l := &diag.List{}
		l.Add(RuleStepUnavailable.New("", "finalize is not available in this build; the verification report is written, the final files are not"))
		res, err = &FinalizeResult{Findings: l}, nil
	}
	if err != nil {
		return out, fmt.Errorf("finalize: %w", err)
	}
	out.findings.Merge(res.Findings)
	if err := writeStateFile(r.p.statePath(FinalizerLogFile), findingsLog(res.Findings, fmt.Sprintf("finalize wrote %d file(s)", len(res.Files)))); err != nil {
		return out, err
	}
	if n := errorCount(res.Findings); n > 0 {
		return out.fail("finalize: %d error(s); see %s", n, FinalizerLogFile), nil
	}
	out.outputs = map[string]string{}
	for _, f := range verdict.FinalFiles {
		if out.outputs[f], err = fileDigest(r.p.pkgPath(f)); err != nil {
			return out, err
		}
	}
	fin, err := r.p.readFinalization()
	if err != nil {
		return out, err
	}
	fin.CompletedAt = r.p.now()
	fin.Files = maps.Clone(out.outputs)
	r.p.signFinalization(r.st, fin)
	r.st.LastFinalization = fin
	return out, r.keepFinalized()
}

// guardEvidence checks every record finalize would rely on: it is about
// this package as it is (b), its evidence is a file inside verification/
// whose content still hashes to what the record says, and a live pair
// still replays to the record's hashes. It returns the records finalize
// may rely on and a finding for each other one.
func (p *Pipeline) guardEvidence(recs []*Record, b binding) ([]*Record, []diag.Diagnostic) {
	var ds []diag.Diagnostic
	var ok []*Record
	for _, rec := range recs {
		if d := p.guardRecord(rec, b); d != nil {
			ds = append(ds, *d)
		} else {
			ok = append(ok, rec)
		}
	}
	return ok, ds
}

// guardRecord says why finalize may not rely on rec, or returns nil.
func (p *Pipeline) guardRecord(rec *Record, b binding) *diag.Diagnostic {
	where := ResultsDir + "/" + keyOf(rec) + ".json"
	refuse := func(d diag.Diagnostic) *diag.Diagnostic { return &d }
	if rec.ContractID != b.contractID || rec.CandidateDigest != b.candidate {
		return refuse(RuleRecordForeign.New(where, "the record is about another contract or another version of the package; run its stage again"))
	}
	full, err := p.evidenceFile(rec)
	if err != nil {
		return refuse(RuleEvidence.New(where, "%v", err))
	}
	if d, err := fileDigest(full); err != nil || d != rec.EvidenceHash {
		return refuse(RuleEvidence.New(where, "the evidence %s changed since the check ran; run its stage again", rec.EvidencePath))
	}
	if rec.LiveInputPath == "" || rec.Status != CheckPassed {
		return nil
	}
	for _, side := range []struct{ path, key, hash string }{
		{rec.LiveInputPath, "input", rec.InputHash},
		{rec.LiveResultPath, "result", rec.ResultHash},
	} {
		data, err := readRegular(p.statePath(verificationDir + "/" + side.path))
		var payload canonjson.Value
		if err == nil {
			if doc, derr := canonjson.Decode(data); derr == nil {
				payload, _ = canonjson.Resolve(doc, "/"+side.key)
			}
		}
		if payload == nil || canonjson.Digest(payload) != side.hash {
			return refuse(RuleEvidence.New(where, "the live %s %s no longer hashes to the recorded %sHash; run runtime-verify again", side.key, side.path, side.key))
		}
	}
	return nil
}

// readFinalization reads the decision and statuses finalize wrote.
func (p *Pipeline) readFinalization() (*Finalization, error) {
	fin := &Finalization{Delivery: map[string]string{}, Capabilities: map[string]CapabilityFlags{}, Workflows: map[string]CapabilityFlags{}}
	read := func(rel string) (canonjson.Value, error) {
		data, err := readRegular(p.pkgPath(rel))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", rel, err)
		}
		return canonjson.Decode(bytes.Clone(data))
	}
	audit, err := read("approval-audit.json")
	if err != nil {
		return nil, err
	}
	d, _ := canonjson.Resolve(audit, "/decision")
	fin.Decision = stringOf(d)
	matrix, err := read(derive.VerificationMatrixFile)
	if err != nil {
		return nil, err
	}
	if del, ok := canonjson.Resolve(matrix, "/delivery"); ok {
		if o, ok := del.(*canonjson.Object); ok {
			for k, v := range o.All() {
				s, _ := canonjson.Resolve(v, "/status")
				fin.Delivery[k] = stringOf(s)
			}
		}
	}
	for _, part := range []struct {
		pointer, idKey string
		into           map[string]CapabilityFlags
	}{{"/capabilities", "capabilityId", fin.Capabilities}, {"/workflows", "workflowId", fin.Workflows}} {
		rows, _ := canonjson.Resolve(matrix, part.pointer)
		arr, _ := rows.(canonjson.Array)
		for _, row := range arr {
			id, _ := canonjson.Resolve(row, "/"+part.idKey)
			flag := func(name string) bool {
				v, _ := canonjson.Resolve(row, "/status/"+name)
				return v == canonjson.Bool(true)
			}
			reasons, _ := canonjson.Resolve(row, "/reasons")
			part.into[stringOf(id)] = CapabilityFlags{
				Generated: flag("generated"), BehaviorVerified: flag("behaviorVerified") || flag("bypassVerified"),
				RuntimeVerified: flag("runtimeVerified"), HostVerified: flag("hostVerified"),
				RequiresReview: flag("requiresReview"), Blocked: flag("blocked"),
				Reasons: canonjson.StringsOf(reasons),
			}
		}
	}
	return fin, nil
}
