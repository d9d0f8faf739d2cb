package pipeline

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/verdict"
)

// Report is pipeline-report.json: the state of every stage and, per
// capability and workflow, how far it is verified. It holds no machine
// path: the package and the state directory are named relative to each
// other.
type Report struct {
	SchemaVersion string `json:"schemaVersion"`
	FeatureID     string `json:"featureId"`
	Mode          string `json:"mode"`
	// CandidateDir is the package relative to the state directory;
	// StateDir the state directory's name.
	CandidateDir  string              `json:"candidateDir"`
	StateDir      string              `json:"stateDir"`
	RuntimeVerify RuntimeVerifyReport `json:"runtimeVerify"`
	// HostVerify is how host verification last ran, and which host ran
	// it; nil before it ever did.
	HostVerify   *HostRun      `json:"hostVerify,omitempty"`
	Stages       []StageReport `json:"stages"`
	Capabilities []RowReport   `json:"capabilities"`
	Workflows    []RowReport   `json:"workflows"`
	Delivery     Delivery      `json:"delivery"`
	// Decision is the last finalization's decision, "not-finalized", or
	// "unverified" when the finalization the state remembers does not
	// verify (see PIPELINE_FINALIZATION_UNVERIFIED): a decision is shown
	// only when checked against the package's final files.
	Decision  string   `json:"decision"`
	NextSteps []string `json:"nextSteps"`
	// Findings are what the run found (stages that failed, checks that
	// failed, calls not made); not part of the file.
	Findings *diag.List `json:"-"`
}

// RuntimeVerifyReport says how runtime verification is authorised and how
// it last ran.
type RuntimeVerifyReport struct {
	Authorization string      `json:"authorization"`
	LastRun       *RuntimeRun `json:"lastRun"`
	LastSkipped   []Skipped   `json:"lastSkipped"`
}

// StageReport is one stage in the report.
type StageReport struct {
	Name              string `json:"name"`
	Status            string `json:"status"`
	LastAction        string `json:"lastAction,omitempty"`
	SkipReason        string `json:"skipReason,omitempty"`
	InvalidatedReason string `json:"invalidatedReason,omitempty"`
	ErrorSummary      string `json:"errorSummary,omitempty"`
	DurationMs        int64  `json:"durationMs"`
	Runs              int    `json:"runs"`
	NodeProcesses     int    `json:"nodeProcesses"`
}

// Row values: how far a capability or workflow is verified.
const (
	Yes         = "yes"
	No          = "no"
	Failed      = "failed"
	Partial     = "partial" // some checks passed, some expected ones did not run
	NotRun      = "not-run"
	SkippedCall = "skipped"
)

// RowReport is one capability's or workflow's verification.
type RowReport struct {
	ID               string `json:"id"`
	Generated        string `json:"generated"`
	BehaviorVerified string `json:"behaviorVerified"`
	RuntimeVerified  string `json:"runtimeVerified"`
	HostVerified     string `json:"hostVerified"`
	// Note says why a row is not further: the reason a live call was not
	// made, the phase that failed.
	Note string `json:"note,omitempty"`
}

// Delivery rolls the rows up: yes (all), partial (some), no (none).
type Delivery struct {
	Generated        string `json:"generated"`
	BehaviorVerified string `json:"behaviorVerified"`
	RuntimeVerified  string `json:"runtimeVerified"`
	HostVerified     string `json:"hostVerified"`
	Deployed         string `json:"deployed"`
	// Source says where the roll-up comes from: verification-matrix.json
	// after a finalization, stage-status otherwise.
	Source string `json:"source"`
}

// Status returns the report of the package's pipeline without running
// anything.
func (p *Pipeline) Status() (*Report, error) {
	if err := p.resolve(); err != nil {
		return nil, err
	}
	st, err := readState(p.stateAbs)
	if err != nil {
		if errors.Is(err, errNoState) {
			return nil, usagef("%s has no pipeline state in %s: run code2skill pipeline init first", p.Dir, p.StateDir)
		}
		return nil, err
	}
	recoverInterrupted(st) // shown as failed; the next run records it
	core, _ := derive.Load(p.abs)
	return p.report(st, core, &diag.List{})
}

// report builds the report of a state.
func (p *Pipeline) report(st *State, core *derive.Core, findings *diag.List) (*Report, error) {
	rep := &Report{
		SchemaVersion: PipelineVersion,
		FeatureID:     st.FeatureID,
		Mode:          st.Mode,
		CandidateDir:  st.CandidateDir,
		StateDir:      filepath.Base(p.stateAbs),
		RuntimeVerify: RuntimeVerifyReport{
			Authorization: "per-invocation; never persisted",
			LastRun:       st.RuntimeVerify.LastRun,
			LastSkipped:   st.RuntimeVerify.LastSkipped,
		},
		HostVerify:   st.HostVerify,
		Capabilities: []RowReport{},
		Workflows:    []RowReport{},
		Decision:     "not-finalized",
		NextSteps:    []string{},
		Findings:     findings,
	}
	for _, name := range Stages {
		s := st.Stages[name]
		rep.Stages = append(rep.Stages, StageReport{Name: name, Status: s.Status, LastAction: s.LastAction,
			SkipReason: s.SkipReason, InvalidatedReason: s.InvalidatedReason, ErrorSummary: s.ErrorSummary,
			DurationMs: s.DurationMs, Runs: s.Runs, NodeProcesses: s.NodeProcesses})
	}
	if err := core.Err(); err != nil {
		return nil, err
	}
	in := core.Inputs
	// Records that cannot be relied on do not count here either.
	recs, problems, err := p.readRecords()
	if err != nil {
		return nil, err
	}
	addOnce(findings, problems...)
	if st.Stages[StageFinalize].Status == StatusFailed {
		// Finalize refused to rely on some records: the rows do not count
		// them either, so that no row says yes for evidence finalize
		// refused.
		b, err := p.packageBinding(core)
		if err != nil {
			return nil, err
		}
		var refused []diag.Diagnostic
		recs, refused = p.guardEvidence(recs, b)
		addOnce(findings, refused...)
	}
	var exp *expectations
	hostNotes := map[string]string{}
	if in.Contract != nil && !core.Structure().HasErrors() {
		views := core.Views()
		exp = withHostChecks(expectedChecks(views), in)
		hostNotes = hostRestrictions(in, views)
	}
	fin, problem, err := p.verifiedFinalization(st)
	if err != nil {
		return nil, err
	}
	rows(rep, st, fin, in.Contract, exp, recs)
	for i := range rep.Capabilities {
		if n, ok := hostNotes[rep.Capabilities[i].ID]; ok {
			rep.Capabilities[i].Note = joinNote(rep.Capabilities[i].Note, n)
		}
	}
	rep.Delivery = delivery(rep, fin != nil)
	switch {
	case fin != nil:
		rep.Decision = fin.Decision
	case problem != "":
		rep.Decision = DecisionUnverified
		addOnce(findings, RuleFinalization.New(StateFile, "%s; its decision is not shown: run code2skill pipeline run to finalize again", problem))
	}
	rep.NextSteps = withContractChange(nextSteps(st, problem, p.runCommand()), st, rep.StateDir)
	return rep, nil
}

// DecisionUnverified is the decision of a report whose finalization does
// not verify.
const DecisionUnverified = "unverified"

// addOnce adds the findings l does not already hold.
func addOnce(l *diag.List, ds ...diag.Diagnostic) {
	have := map[string]bool{}
	for _, d := range l.Sorted() {
		have[d.String()] = true
	}
	for _, d := range ds {
		if !have[d.String()] {
			l.Add(d)
			have[d.String()] = true
		}
	}
}

// rows fills the capability and workflow rows: from the verified
// finalization fin when there is one, otherwise from the records.
func rows(rep *Report, st *State, fin *Finalization, c *contract.Contract, exp *expectations, recs []*Record) {
	if c == nil || exp == nil {
		return
	}
	generated := No
	if st.Stages[StageGenerate].Status == StatusCompleted {
		generated = Yes
	}
	verified := st.Stages[StageVerify].Status == StatusCompleted
	runtimeDone := st.Stages[StageRuntimeVerify].Status == StatusCompleted
	hostDone := st.Stages[StageHostVerify].Status == StatusCompleted
	skipNote := func(capID, wfID string) (string, bool) {
		for _, s := range st.RuntimeVerify.LastSkipped {
			if s.CapabilityID == capID && s.WorkflowID == wfID {
				return s.note(), true
			}
		}
		return "", false
	}
	build := func(id string, sc scopeChecks, capID, wfID, firstPhase string, flags map[string]CapabilityFlags) RowReport {
		row := RowReport{ID: id, Generated: generated, BehaviorVerified: NotRun, RuntimeVerified: NotRun, HostVerified: NotRun}
		if fin != nil {
			f := flags[id]
			row.BehaviorVerified, row.RuntimeVerified, row.HostVerified = finalValue(f, firstPhase, f.BehaviorVerified),
				finalValue(f, PhaseRuntime, f.RuntimeVerified), finalValue(f, PhaseHost, f.HostVerified)
			switch {
			case f.Blocked:
				row.Note = blockedNote(f, firstPhase)
			case f.RequiresReview:
				row.Note = "requires review"
			}
			if reason, ok := skipNote(capID, wfID); ok && !f.RuntimeVerified {
				row.Note = joinNote(row.Note, "not called at runtime: "+reason)
			}
			return row
		}
		if verified {
			row.BehaviorVerified = outcomeValue(phaseOutcome(firstPhase, sc.phases[firstPhase], rowRecords(recs, capID, wfID, firstPhase)))
		}
		if runtimeDone {
			row.RuntimeVerified = outcomeValue(phaseOutcome(PhaseRuntime, sc.phases[PhaseRuntime], rowRecords(recs, capID, wfID, PhaseRuntime)))
			if reason, ok := skipNote(capID, wfID); ok {
				row.RuntimeVerified, row.Note = SkippedCall, "not called at runtime: "+reason
			}
		}
		if hostDone {
			row.HostVerified = outcomeValue(phaseOutcome(PhaseHost, sc.phases[PhaseHost], rowRecords(recs, capID, wfID, PhaseHost)))
		}
		return row
	}
	for _, sc := range exp.capabilities {
		var flags map[string]CapabilityFlags
		if fin != nil {
			flags = fin.Capabilities
		}
		rep.Capabilities = append(rep.Capabilities, build(sc.id, sc, sc.id, "", PhaseBehavior, flags))
	}
	for _, sc := range exp.workflows {
		var flags map[string]CapabilityFlags
		if fin != nil {
			flags = fin.Workflows
		}
		rep.Workflows = append(rep.Workflows, build(sc.id, sc, "", sc.id, PhaseBypass, flags))
	}
}

// finalValue is a phase's value in a finalized row: yes when the matrix
// counts it verified, failed when the matrix says it failed or was
// blocked, no otherwise.
func finalValue(f CapabilityFlags, phase string, verified bool) string {
	switch verdict.PhaseStatusFromReasons(f.Reasons, phase) {
	case verdict.StatusFailed, verdict.StatusBlocked:
		return Failed
	}
	return yesNo(verified)
}

// blockedNote says why a finalized row is blocked, and which of its phases
// passed all the same: the matrix counts no phase of a blocked row as
// verified, so a passed phase shows "no" there.
func blockedNote(f CapabilityFlags, firstPhase string) string {
	var failed, passed []string
	for _, ph := range []string{firstPhase, PhaseRuntime, PhaseHost} {
		switch verdict.PhaseStatusFromReasons(f.Reasons, ph) {
		case verdict.StatusFailed, verdict.StatusBlocked:
			failed = append(failed, ph)
		case verdict.StatusPassed:
			passed = append(passed, ph)
		}
	}
	note := "blocked"
	if len(failed) > 0 {
		note += " (" + strings.Join(failed, ", ") + " failed)"
	}
	if len(passed) > 0 && len(f.Reasons) > 0 {
		note += "; " + strings.Join(passed, ", ") + " passed, but a blocked row counts no phase as verified"
	}
	return note
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

func yesNo(b bool) string {
	if b {
		return Yes
	}
	return No
}

func outcomeValue(outcome string) string {
	switch outcome {
	case OutcomePassed:
		return Yes
	case OutcomeFailed:
		return Failed
	case OutcomeRequiresReview:
		return Partial
	}
	return No
}

// delivery rolls the capability rows up; finalized says the rows are the
// verified final matrix's.
func delivery(rep *Report, finalized bool) Delivery {
	roll := func(get func(RowReport) string) string {
		if len(rep.Capabilities) == 0 {
			return No
		}
		n := 0
		for _, r := range rep.Capabilities {
			if get(r) == Yes {
				n++
			}
		}
		switch n {
		case len(rep.Capabilities):
			return Yes
		case 0:
			return No
		}
		return Partial
	}
	d := Delivery{
		Generated:        roll(func(r RowReport) string { return r.Generated }),
		BehaviorVerified: roll(func(r RowReport) string { return r.BehaviorVerified }),
		RuntimeVerified:  roll(func(r RowReport) string { return r.RuntimeVerified }),
		HostVerified:     roll(func(r RowReport) string { return r.HostVerified }),
		Deployed:         No,
		Source:           "stage-status",
	}
	if finalized {
		d.Source = "verification-matrix.json"
	}
	return d
}

// nextSteps says what to do next, most urgent first; unverified says why
// the last finalization does not verify.
// run is the command that runs the pipeline of this package again, as
// runCommand names it.
func nextSteps(st *State, unverified, run string) []string {
	var out []string
	if unverified != "" {
		out = append(out, fmt.Sprintf("the last finalization cannot be shown (%s): run code2skill pipeline run to finalize again", unverified))
	}
	for _, name := range Stages {
		s := st.Stages[name]
		if s.Status == StatusFailed {
			out = append(out, fmt.Sprintf("fix %s (%s), then run code2skill pipeline run; code2skill pipeline diagnose groups the validation errors", name, s.ErrorSummary))
			break
		}
	}
	for _, stg := range stages {
		s := st.Stages[stg.name]
		switch {
		case s.Status != StatusInvalidated:
		case stg.restore != nil:
			out = append(out, fmt.Sprintf("%s was invalidated (%s): restore it with %s", stg.name, s.InvalidatedReason, stg.restore(st, run)))
		default:
			out = append(out, fmt.Sprintf("%s was invalidated (%s): run %s", stg.name, s.InvalidatedReason, run))
		}
	}
	if st.Stages[StageRuntimeVerify].Status != StatusCompleted {
		out = append(out, "runtime verification has not run: with the backend reachable, run code2skill pipeline run --enable-runtime-verify (add --authorize-write <capabilityId> for each write you allow to be called)")
	}
	var writes []string
	for _, s := range st.RuntimeVerify.LastSkipped {
		if s.Reason == SkipWriteNotAuthorized && !slices.Contains(writes, s.CapabilityID) {
			writes = append(writes, s.CapabilityID)
		}
	}
	for _, w := range writes {
		out = append(out, fmt.Sprintf("the write %s was not called at runtime: authorise it with --authorize-write %s if it may be", w, w))
	}
	if st.Stages[StageHostVerify].Status != StatusCompleted {
		out = append(out, "host verification has not run: with the backend reachable, run code2skill pipeline run --enable-host-verify --host-env-file <file> (the values your host's MCP configuration gives the variables MCP-SETUP.md names; add --authorize-write <capabilityId> for each write you allow to be called)")
	}
	if st.Stages[StageFinalize].Status != StatusCompleted {
		out = append(out, "the package is not finalized: finalize runs when every earlier stage has completed")
	}
	return out
}

// writeReport writes pipeline-report.json, unless it already holds this
// report.
func (p *Pipeline) writeReport(rep *Report) error {
	data, err := stateBytes(rep)
	if err != nil {
		return err
	}
	if old, err := readRegular(p.statePath(PipelineReportFile)); err == nil && string(old) == string(data) {
		return nil
	}
	return writeStateFile(p.statePath(PipelineReportFile), data)
}

// hostRestrictions says, per capability the Host profile does not enable,
// how it restricts it: "the Host profile disables it (missing: …)", from
// host-compatibility-report.json.
func hostRestrictions(in *derive.Inputs, views *derive.Derived) map[string]string {
	out := map[string]string{}
	arr, _ := views.HostCompatibility.At("capabilityAssessments").(canonjson.Array)
	for _, a := range arr {
		id, _ := canonjson.Resolve(a, "/capabilityId")
		status, _ := canonjson.Resolve(a, "/status")
		if stringOf(status) == "enabled" {
			continue
		}
		var needs []string
		for _, key := range []string{"/missingRequirementIds", "/externalIntegrationRequirementIds"} {
			ids, _ := canonjson.Resolve(a, key)
			needs = append(needs, canonjson.StringsOf(ids)...)
		}
		note := "Host profile: " + stringOf(status)
		if len(needs) > 0 {
			note += " (" + strings.Join(needs, ", ") + ")"
		}
		out[stringOf(id)] = note
	}
	return out
}

// runCommand is code2skill pipeline run of this package, with its state
// directory when it is not the default one.
func (p *Pipeline) runCommand() string {
	cmd := "code2skill pipeline run " + p.Dir
	if p.StateDir != "" && p.stateAbs != DefaultStateDir(p.abs) {
		cmd += " --state-dir " + p.StateDir
	}
	return cmd
}

// runtimeCommand is the command that restores runtime verification: the
// flags of its last run, values left for the user to give (they are never
// stored); only the capabilities without current evidence are called.
func runtimeCommand(st *State, run string) string {
	cmd := run + " --enable-runtime-verify"
	if last := st.RuntimeVerify.LastRun; last != nil {
		for _, w := range last.AuthorizedWrites {
			cmd += " --authorize-write " + w
		}
	}
	for _, o := range st.RuntimeVerify.Origins {
		cmd += " --runtime-origin " + o + "=<url>"
	}
	for _, e := range st.RuntimeVerify.Env {
		cmd += " --env " + e + "=<value>"
	}
	return cmd
}

// hostCommand is the command that restores host verification, with the
// flags of its last run.
func hostCommand(st *State, run string) string {
	cmd := run + " --enable-host-verify"
	file := "<file>"
	if h := st.HostVerify; h != nil {
		for _, w := range h.AuthorizedWrites {
			cmd += " --authorize-write " + w
		}
		if h.EnvFile != "" {
			file = h.EnvFile
		}
	}
	return cmd + " --host-env-file " + file
}
