package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// verify runs the three checks of a package before finalization, each an
// executed check with its evidence: the strict validator, the offline
// probe (with the dry-run cases of verification/cases/dry-run), and the
// behaviour vectors (one record per behaviour and bypass check).
//
// The stage fails when the validator or the probe fails, or when the
// vectors cannot run: finalize needs all three. A vector that fails is the
// failure of its own capability's behaviour phase, recorded and reported,
// and does not stop the others: finalize blocks that capability and keeps
// the verified ones.
func (r *runner) verify() (*stageOutcome, error) {
	out := &stageOutcome{steps: []string{
		"code2skill derive (the baseline matrix)",
		"code2skill validate --pre-finalize",
		"code2skill probe --offline",
		"code2skill vectors",
	}}
	if err := r.p.clearRecords([]string{PhaseGlobal, PhaseBehavior, PhaseBypass, PhaseHost}, VectorsDir); err != nil {
		return out, err
	}
	in, err := r.checkedCore(out)
	if in == nil || err != nil {
		return out, err
	}
	views := derive.Views(in)
	var files []atomicfile.File
	for _, v := range views {
		files = append(files, atomicfile.File{Path: v.Path, Data: v.Data, Perm: 0o644})
	}
	ds, err := r.p.writeChanged(files)
	if err != nil {
		return out, err
	}
	if out.findings.Add(ds...); len(ds) > 0 {
		return out.fail("the derived views cannot be written"), nil
	}

	name := r.p.FeatureID()
	var failed []string
	validated, err := r.check(CheckStaticValidation, "strict validation before finalization",
		"code2skill validate "+name+" --pre-finalize"+r.sourceFlags(), func() (*diag.List, string, error) {
			res, err := r.p.Steps.Validate(r.ctx, r.p.abs, true, r.sourcesLocated())
			if err != nil {
				return nil, "", err
			}
			return res.Findings, res.Summary, nil
		}, out)
	if err != nil {
		return out, err
	}
	if !validated {
		failed = append(failed, "static validation")
	}

	cases, err := r.dryRunCases()
	if err != nil {
		return out, err
	}
	probeCmd := "code2skill probe " + name + " --offline"
	for _, c := range cases {
		probeCmd += " --dry-run-call " + filepath.ToSlash(relPath(r.p.stateAbs, c))
	}
	probed, err := r.check(CheckOfflineProbe, "detached offline probe", probeCmd, func() (*diag.List, string, error) {
		res, err := r.p.Steps.Probe(r.ctx, r.p.abs, cases)
		if err != nil {
			return nil, "", err
		}
		out.nodes += res.NodeProcesses
		return res.Findings, res.Summary, nil
	}, out)
	if err != nil {
		return out, err
	}
	if !probed {
		failed = append(failed, "offline probe")
	}

	ran, err := r.vectors(out)
	if err != nil {
		return out, err
	}
	if !ran {
		failed = append(failed, "behaviour vectors")
	}
	if len(failed) > 0 {
		return out.fail("%s failed", strings.Join(failed, ", ")), nil
	}
	return out, nil
}

// check runs one global check and records it with its findings as
// evidence. It reports whether the check passed; a step that is not part
// of this build is a failed check saying so.
func (r *runner) check(id, title, command string, run func() (*diag.List, string, error), out *stageOutcome) (bool, error) {
	began := r.p.Now()
	findings, summary, err := run()
	if errors.Is(err, ErrNotAvailable) {
		findings, summary, err = &diag.List{}, title+" is not available in this build", nil
		findings.Add(RuleStepUnavailable.New("", "%s", summary))
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", title, err)
	}
	out.findings.Merge(findings)
	passed := !findings.HasErrors()
	rec := &Record{CheckID: id, Name: title, Phase: PhaseGlobal, Command: command, ExitCode: 1, Status: CheckFailed, Detail: summary}
	if passed {
		rec.ExitCode, rec.Status = 0, CheckPassed
	}
	if err := r.finish(rec, began, findingsLog(findings, summary)); err != nil {
		return false, err
	}
	return passed, nil
}

// finish times a record, writes its log evidence and the record.
func (r *runner) finish(rec *Record, began time.Time, log []byte) error {
	ended := r.p.Now()
	rec.StartedAt, rec.EndedAt, rec.DurationMs = stamp(began), stamp(ended), ended.Sub(began).Milliseconds()
	r.writeLog(rec, log)
	return r.writeRecord(rec)
}

// findingsLog is the evidence of a check: its findings, one per line, then
// its summary.
func findingsLog(l *diag.List, summary string) []byte {
	var b bytes.Buffer
	for _, d := range l.Sorted() {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	b.WriteString(summary)
	b.WriteByte('\n')
	return b.Bytes()
}

// vectors runs the behaviour vectors and records each check that ran. It
// reports whether the vectors ran at all.
func (r *runner) vectors(out *stageOutcome) (bool, error) {
	began := r.p.Now()
	title := "behaviour vectors"
	rec := &Record{CheckID: CheckBehaviorVectors, Name: title, Phase: PhaseGlobal,
		Command: "code2skill vectors " + r.p.FeatureID() + " --out " + VectorsDir, ExitCode: 1, Status: CheckFailed}
	res, err := r.p.Steps.Vectors(r.ctx, r.p.abs, r.p.statePath(VectorsDir))
	if errors.Is(err, ErrNotAvailable) {
		l := &diag.List{}
		l.Add(RuleStepUnavailable.New("", "the behaviour vectors are not available in this build"))
		out.findings.Merge(l)
		rec.Detail = "the behaviour vectors are not available in this build"
		return false, r.finish(rec, began, findingsLog(l, rec.Detail))
	}
	if err != nil {
		return false, fmt.Errorf("%s: %w", title, err)
	}
	out.findings.Merge(res.Findings)
	out.nodes += res.NodeProcesses
	var passed, failed, uncovered int
	for _, c := range res.Checks {
		switch c.Status {
		case VectorUncovered:
			uncovered++
			out.findings.Add(RuleCheckUncovered.New("", "%s: %s is not covered: %s", scopeOf(c.CapabilityID, c.WorkflowID), c.CheckID, c.Detail))
			continue
		case VectorPassed:
			passed++
		default:
			failed++
			out.findings.Add(RuleCheckFailed.New("", "%s: behaviour check %s failed: %s", scopeOf(c.CapabilityID, c.WorkflowID), c.CheckID, c.Detail))
		}
		vr := &Record{CheckID: c.CheckID, Name: c.CheckID, Phase: c.Phase, CapabilityID: c.CapabilityID, WorkflowID: c.WorkflowID,
			Command: rec.Command, ExitCode: 1, Status: CheckFailed, Detail: c.Detail,
			EvidencePath: "vectors/" + c.Evidence, EvidenceHash: c.EvidenceHash, HashScope: ScopeVectorEvidence}
		if c.Status == VectorPassed {
			vr.ExitCode, vr.Status = 0, CheckPassed
			if c.Phase == PhaseBypass {
				yes := true
				vr.ZeroExternalWrites = &yes
			}
		}
		if _, err := r.p.evidenceFile(vr); err != nil {
			return false, fmt.Errorf("%s: %w", title, err)
		}
		stampRecord(vr, began, r.p.Now())
		if err := r.writeRecord(vr); err != nil {
			return false, err
		}
	}
	rec.ExitCode, rec.Status = 0, CheckPassed
	rec.Detail = fmt.Sprintf("%d passed, %d failed, %d uncovered in %d node process(es)", passed, failed, uncovered, res.NodeProcesses)
	if res.Summary != "" {
		rec.Detail = res.Summary + "; " + rec.Detail
	}
	return true, r.finish(rec, began, findingsLog(res.Findings, rec.Detail))
}

func stampRecord(rec *Record, began, ended time.Time) {
	rec.StartedAt, rec.EndedAt, rec.DurationMs = stamp(began), stamp(ended), ended.Sub(began).Milliseconds()
}

func scopeOf(capabilityID, workflowID string) string {
	if workflowID != "" {
		return "workflow " + workflowID
	}
	return "capability " + capabilityID
}

// dryRunCases returns the dry-run case files the operator placed in the
// state, sorted.
func (r *runner) dryRunCases() ([]string, error) {
	entries, err := os.ReadDir(r.p.statePath(DryRunCasesDir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			out = append(out, r.p.statePath(DryRunCasesDir+"/"+e.Name()))
		}
	}
	slices.Sort(out)
	return out, nil
}

// sourceFlags renders the stored source maps as portable command text: the
// IDs only, never this machine's paths.
func (r *runner) sourceFlags() string {
	var b strings.Builder
	for _, id := range sortedKeys(r.st.SourceMaps) {
		b.WriteString(" --source-map " + id + "=<" + id + ">")
	}
	return b.String()
}
