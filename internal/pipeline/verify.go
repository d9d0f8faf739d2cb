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
	"github.com/code2skill/code2skill/internal/diag"
)

// StageVerify runs the strict validator (pre-finalization), the offline
// probe and the behaviour vectors, each a check record.
const StageVerify = "verify"

var verifyStage = &stage{
	name:       StageVerify,
	categories: []string{CategoryVerification, CategoryFunction, CategoryCapability},
	inputs: func(r *runner) ([]input, error) {
		return inputsOf(
			r.candidate,
			func() ([]input, error) { return r.stateTree(labelDryRunCases, DryRunCasesDir) },
			r.sources,
		)
	},
	run: (*runner).verify,
}

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
	if err := r.p.clearRecords([]string{PhaseGlobal, PhaseBehavior, PhaseBypass}, VectorsDir); err != nil {
		return out, err
	}
	in, err := r.checkedCore(out)
	if in == nil || err != nil {
		return out, err
	}
	var files []atomicfile.File
	for _, v := range r.core.Views().Files() {
		files = append(files, atomicfile.File{Path: v.Path, Data: v.Data, Perm: 0o644})
		r.keep(v.Path)
	}
	ds, err := r.p.writeChanged(files)
	if err != nil {
		return out, err
	}
	if out.findings.Add(ds...); len(ds) > 0 {
		return out.fail("the derived views cannot be written"), nil
	}

	cases, err := r.dryRunCases()
	if err != nil {
		return out, err
	}
	// The three steps are independent (the probe and the vectors each run
	// in a detached copy of their own), so they run side by side and the
	// node processes of the probe and the vectors overlap; their records
	// are written afterwards, always in this order.
	validation := startStep(r, func() (*ValidateResult, error) {
		return r.p.Steps.Validate(r.ctx, r.p.abs, r.core, true, r.sourcesLocated())
	})
	probing := startStep(r, func() (*ProbeResult, error) {
		return r.p.Steps.Probe(r.ctx, r.p.abs, r.core, cases)
	})
	vectoring := startStep(r, func() (*VectorsResult, error) {
		return r.p.Steps.Vectors(r.ctx, r.p.abs, r.core, r.p.statePath(VectorsDir))
	})
	defer validation.wait()
	defer probing.wait()
	defer vectoring.wait()

	name := r.p.FeatureID()
	var failed []string
	validated, err := r.check(CheckStaticValidation, "strict validation before finalization",
		"code2skill validate "+name+" --pre-finalize"+r.sourceFlags(), validation, func() (*diag.List, string, error) {
			res, err := validation.wait()
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

	probeCmd := "code2skill probe " + name + " --offline"
	for _, c := range cases {
		probeCmd += " --dry-run-call " + filepath.ToSlash(relPath(r.p.stateAbs, c))
	}
	probed, err := r.check(CheckOfflineProbe, "detached offline probe", probeCmd, probing, func() (*diag.List, string, error) {
		res, err := probing.wait()
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

	ran, err := r.vectors(out, vectoring)
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

// check records one global check with its findings as evidence: run
// waits for the result of the step s. It reports whether the check passed;
// a step that is not part of this build is a failed check saying so.
func (r *runner) check(id, title, command string, s timed, run func() (*diag.List, string, error), out *stageOutcome) (bool, error) {
	findings, summary, err := run()
	began, ended := s.span()
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
	if err := r.finish(rec, began, ended, findingsLog(findings, summary)); err != nil {
		return false, err
	}
	return passed, nil
}

// finish times a record, writes its log evidence and the record.
func (r *runner) finish(rec *Record, began, ended time.Time, log []byte) error {
	stampRecord(rec, began, ended)
	r.writeLog(rec, log)
	return r.writeRecord(rec)
}

// A step is a check's work started ahead of its record, timed where it
// runs.
type step[T any] struct {
	done         chan struct{}
	began, ended time.Time
	res          T
	err          error
}

// startStep runs f in the background.
func startStep[T any](r *runner, f func() (T, error)) *step[T] {
	s := &step[T]{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.began = r.p.Now()
		s.res, s.err = f()
		s.ended = r.p.Now()
	}()
	return s
}

// wait returns the step's result once it is done.
func (s *step[T]) wait() (T, error) {
	<-s.done
	return s.res, s.err
}

// A timed step says when it began and ended, once it is done.
type timed interface {
	span() (began, ended time.Time)
}

func (s *step[T]) span() (began, ended time.Time) {
	<-s.done
	return s.began, s.ended
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
func (r *runner) vectors(out *stageOutcome, s *step[*VectorsResult]) (bool, error) {
	title := "behaviour vectors"
	rec := &Record{CheckID: CheckBehaviorVectors, Name: title, Phase: PhaseGlobal,
		Command: "code2skill vectors " + r.p.FeatureID() + " --out " + VectorsDir, ExitCode: 1, Status: CheckFailed}
	res, err := s.wait()
	began, ended := s.span()
	if errors.Is(err, ErrNotAvailable) {
		l := &diag.List{}
		l.Add(RuleStepUnavailable.New("", "the behaviour vectors are not available in this build"))
		out.findings.Merge(l)
		rec.Detail = "the behaviour vectors are not available in this build"
		return false, r.finish(rec, began, ended, findingsLog(l, rec.Detail))
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
		stampRecord(vr, began, ended)
		if err := r.writeRecord(vr); err != nil {
			return false, err
		}
	}
	rec.ExitCode, rec.Status = 0, CheckPassed
	rec.Detail = fmt.Sprintf("%d passed, %d failed, %d uncovered in %d node process(es)", passed, failed, uncovered, res.NodeProcesses)
	if res.Summary != "" {
		rec.Detail = res.Summary + "; " + rec.Detail
	}
	return true, r.finish(rec, began, ended, findingsLog(res.Findings, rec.Detail))
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
