package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// RunOptions are the flags of a run. Authorisations hold for this run only.
type RunOptions struct {
	// Only selects stages to run; nil runs them all.
	Only []string
	// Force re-runs every selected stage, fresh or not.
	Force bool
	// EnableRuntimeVerify lets runtime-verify run in this run.
	EnableRuntimeVerify bool
	// AuthorizeWrites are the write capabilities runtime-verify may call
	// in this run.
	AuthorizeWrites []string
	// Origins bind allowed runtime origins of the contract to where they
	// are served for this run (runtime-verify).
	Origins map[string]string
	// Env gives values to variables the package declares (runtime-verify);
	// a declared variable without one takes code2skill's own value.
	Env map[string]string
	// EnableHostVerify lets host-verify run in this run.
	EnableHostVerify bool
	// HostEnv is the host env file: the values a host's MCP configuration
	// gives the host runtime's variables (host-verify).
	HostEnv map[string]string
	// HostEnvFile names the host env file HostEnv was read from, for the
	// command that runs host verification again.
	HostEnvFile string
	// AcknowledgeContractChange is the digest of the contract diff this
	// run accepts finalizing (contractchange.go).
	AcknowledgeContractChange string
	// RequestTimeout bounds each MCP request of runtime-verify and
	// host-verify; 0 means their defaults.
	RequestTimeout time.Duration
}

// RequestTimeoutFlag is how the user raises RunOptions.RequestTimeout.
const RequestTimeoutFlag = "pipeline run --request-timeout"

// stageOutcome is what one execution of a stage did.
type stageOutcome struct {
	// failure says why the stage failed; "" when it completed.
	failure string
	// steps names what the stage ran.
	steps []string
	// outputs are the SHA-256 of the files the stage wrote and owns.
	outputs map[string]string
	// findings are reported with the run: the problems that made the stage
	// fail, and checks that failed in a stage that completed.
	findings diag.List
	// authorized are the writes runtime-verify was authorised to call.
	authorized []string
	// nodes counts the node processes the stage started.
	nodes int
}

func (o *stageOutcome) fail(format string, args ...any) *stageOutcome {
	o.failure = fmt.Sprintf(format, args...)
	return o
}

// checkedCore returns the Portable Core for a stage that builds on it.
// When derive's checks find errors it records them in out, fails out and
// returns no inputs: analyze is the stage that reports them in full.
func (r *runner) checkedCore(out *stageOutcome) (*derive.Inputs, error) {
	if err := r.core.Err(); err != nil {
		return nil, err
	}
	if list := r.core.Findings(); list.HasErrors() {
		out.findings.Merge(list)
		out.fail("the Portable Core has errors; run analyze first")
		return nil, nil
	}
	return r.core.Inputs, nil
}

// runner carries one run.
type runner struct {
	p    *Pipeline
	ctx  context.Context
	opts RunOptions
	st   *State
	// core is the package's Portable Core, loaded once for the run and
	// handed to every stage and step.
	core *derive.Core
	// compiled is what compile makes of the package, once computed in
	// this run (compiled.go).
	compiled *compilation
	// findings collects what every stage reported.
	findings diag.List
	// skipped are the live calls this run did not make.
	skipped []Skipped
	// env is the environment the server gets, once computed.
	env []string
	// saved is the state as last written (or read), so that an unchanged
	// state is not written again.
	saved []byte
	// batch holds the state files a stage writes, until it ends.
	batch []atomicfile.File
	// digests caches tree digests of the package while no stage has run
	// since they were computed.
	digests map[string]string
	// current is the stage running; bound the package's binding, once
	// read since a stage last began or ended (binding).
	current string
	bound   *binding
	// scopes are the scope digests of the runtime and host phases, by
	// phase, as the stage running them computed them.
	scopes map[string]map[string]string
	// kept holds the content package files had before the run wrote
	// them (nil: there was none), to be put back when finalize fails.
	kept map[string][]byte
	// outputsBefore are the output hashes each stage had recorded before
	// the run: what the pipeline had written last when a failed finalize
	// puts the package back as it was.
	outputsBefore map[string]map[string]string
}

// Run runs the selected stages in order, skipping those whose inputs did
// not change, and returns the pipeline report, which it also writes to
// verification/reports/pipeline-report.json. A *UsageError means nothing
// ran. Any other error means a stage could not do its job (node missing,
// I/O failure); the stage is recorded as failed and the report is still
// returned.
func (p *Pipeline) Run(ctx context.Context, opts RunOptions) (*Report, error) {
	if err := p.resolve(); err != nil {
		return nil, err
	}
	if p.Key == nil {
		return nil, errors.New("no evidence key: the pipeline tags every record it writes")
	}
	unlock, err := p.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, err := p.load()
	if err != nil {
		return nil, err
	}
	if st.Mode == ModeMigrate && !st.MigrationAcknowledged {
		return nil, usagef("%s needs migration: review %s and run code2skill pipeline init --acknowledge-migration", p.Dir, ModeSummaryFile)
	}
	selected, err := selectStages(opts)
	if err != nil {
		return nil, err
	}
	if err := checkAcknowledgement(opts, selected); err != nil {
		return nil, err
	}
	core, _ := derive.Load(p.abs)
	r := &runner{p: p, ctx: ctx, opts: opts, st: st, core: core, outputsBefore: map[string]map[string]string{}}
	for name, s := range st.Stages {
		r.outputsBefore[name] = maps.Clone(s.OutputHashes)
	}
	if r.saved, err = stateBytes(st); err != nil {
		return nil, err
	}
	if err := r.checkRuntimeRequest(); err != nil {
		return nil, err
	}
	if opts.Only != nil {
		if err := r.checkUpstream(selected); err != nil {
			return nil, err
		}
	}
	runErr := r.stages(selected)
	rep, err := p.report(st, r.core, &r.findings)
	if err != nil {
		return nil, errors.Join(runErr, err)
	}
	if err := p.writeReport(rep); err != nil {
		return rep, errors.Join(runErr, err)
	}
	return rep, runErr
}

// load reads the state of an initialized package and marks stages an
// interrupted run left running as failed.
func (p *Pipeline) load() (*State, error) {
	st, err := readState(p.stateAbs)
	if errors.Is(err, errNoState) {
		return nil, usagef("%s has no pipeline state in %s: run code2skill pipeline init first", p.Dir, p.StateDir)
	}
	if err != nil {
		return nil, err
	}
	if want := relPath(p.stateAbs, p.abs); st.CandidateDir != want {
		return nil, usagef("the state directory %s belongs to the package %s, not %s", p.StateDir, st.CandidateDir, p.Dir)
	}
	if recoverInterrupted(st) {
		st.UpdatedAt = p.now()
		if err := writeState(p.stateAbs, st); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// interrupted is the error summary of a stage a crash left running.
const interrupted = "interrupted: the run stopped while this stage was running"

// recoverInterrupted marks every stage left running as failed. It reports
// whether it changed anything.
func recoverInterrupted(st *State) bool {
	changed := false
	for _, name := range Stages {
		if s := st.Stages[name]; s.Status == StatusRunning {
			s.Status, s.ErrorSummary = StatusFailed, interrupted
			changed = true
		}
	}
	return changed
}

// selectStages returns the stages a run may execute, in order, after
// checking --only against the runtime-verify flag.
func selectStages(opts RunOptions) ([]string, error) {
	switch {
	case len(opts.AuthorizeWrites) > 0 && !opts.EnableRuntimeVerify && !opts.EnableHostVerify:
		return nil, usagef("--authorize-write needs --enable-runtime-verify or --enable-host-verify: writes are called only by runtime or host verification")
	case !opts.EnableRuntimeVerify && len(opts.Origins) > 0:
		return nil, usagef("--runtime-origin needs --enable-runtime-verify")
	case !opts.EnableRuntimeVerify && len(opts.Env) > 0:
		return nil, usagef("--env needs --enable-runtime-verify")
	case !opts.EnableHostVerify && opts.HostEnv != nil:
		return nil, usagef("--host-env-file needs --enable-host-verify")
	}
	if opts.Only == nil {
		var out []string
		for _, s := range stages {
			if s.enabledIn(&opts) {
				out = append(out, s.name)
			}
		}
		return out, nil
	}
	if len(opts.Only) == 0 {
		return nil, usagef("--only names no stage; the stages are %s", strings.Join(Stages, ", "))
	}
	var out []string
	for _, name := range opts.Only {
		if stageNamed(name) == nil {
			return nil, usagef("--only: unknown stage %q; the stages are %s", name, strings.Join(Stages, ", "))
		}
	}
	for _, name := range Stages {
		if slices.Contains(opts.Only, name) {
			out = append(out, name)
		}
	}
	for _, s := range stages {
		if !s.optional() {
			continue
		}
		has := slices.Contains(out, s.name)
		switch {
		case has && !s.enabledIn(&opts):
			return nil, usagef("--only %s needs %s for this run", s.name, s.enable)
		case !has && s.enabledIn(&opts):
			return nil, usagef("%s with --only needs %s among the stages", s.enable, s.name)
		}
	}
	return out, nil
}

// checkUpstream refuses --only when a stage upstream of a selected one,
// and not selected itself, is not completed and fresh: a stage must never
// build on stale results. Runtime and host verification are optional
// evidence and are not required upstream.
func (r *runner) checkUpstream(selected []string) error {
	for _, name := range selected {
		for _, up := range stages[:slices.Index(Stages, name)] {
			if up.optional() || slices.Contains(selected, up.name) {
				continue
			}
			fresh, err := r.fresh(up.name)
			if err != nil {
				return err
			}
			if !fresh {
				return usagef("stale or incomplete upstream: %s must be completed and unchanged before --only %s; run it too", up.name, name)
			}
		}
	}
	return nil
}

// fresh reports whether a stage is completed, its inputs unchanged and its
// outputs intact.
func (r *runner) fresh(name string) (bool, error) {
	s := r.st.Stages[name]
	if s.Status != StatusCompleted {
		return false, nil
	}
	inputs, err := r.inputs(stageNamed(name))
	if err != nil {
		return false, err
	}
	fp, _ := fingerprint(inputs)
	if fp != s.InputFingerprint {
		return false, nil
	}
	return r.outputsIntact(s)
}

// outputsIntact reports whether every file a stage recorded as its output
// still has the recorded content.
func (r *runner) outputsIntact(s *StageState) (bool, error) {
	for _, f := range sortedKeys(s.OutputHashes) {
		d, err := fileDigest(r.p.pkgPath(f))
		if err != nil {
			return false, err
		}
		if d != s.OutputHashes[f] {
			return false, nil
		}
	}
	return true, nil
}

// stages runs the selected stages in order until one fails.
func (r *runner) stages(selected []string) error {
	for _, stg := range stages {
		name, s := stg.name, r.st.Stages[stg.name]
		if stg.phase != "" {
			if _, err := r.carryEvidence(stg.phase, name); err != nil {
				return r.abort(name, err)
			}
		}
		if !slices.Contains(selected, name) {
			if stg.optional() && !stg.enabledIn(&r.opts) && r.opts.Only == nil {
				s.LastAction, s.SkipReason = ActionSkippedDisabled, stg.disabled
				r.p.progress("pipeline: %s skipped: not enabled for this run", name)
			}
			continue
		}
		inputs, err := r.inputs(stg)
		if err != nil {
			return r.abort(name, err)
		}
		fp, pairs := fingerprint(inputs)
		if !r.opts.Force && s.Status == StatusCompleted && fp == s.InputFingerprint {
			holds, err := r.holds(stg, s)
			if err != nil {
				return r.abort(name, err)
			}
			if holds {
				s.LastAction, s.SkipReason = ActionSkippedUnchanged, "its inputs did not change since it completed"
				r.p.progress("pipeline: %s skipped: unchanged", name)
				continue
			}
		}
		if err := r.execute(stg, s, fp, pairs); err != nil {
			return err
		}
		if s.Status != StatusCompleted {
			r.invalidateDownstream(name)
			return r.save()
		}
	}
	return r.save()
}

// holds reports whether a completed stage whose inputs did not change
// still holds: its outputs intact, and whatever else the stage requires.
func (r *runner) holds(stg *stage, s *StageState) (bool, error) {
	intact, err := r.outputsIntact(s)
	if err != nil || !intact || stg.current == nil {
		return intact, err
	}
	return stg.current(r)
}

// execute runs one stage, recording it as running first so that a crash
// leaves a trace the next load turns into a failure.
func (r *runner) execute(stg *stage, s *StageState, fp string, pairs [][]string) error {
	name := stg.name
	began := r.p.Now()
	s.InvalidatedReason, s.NodeProcesses = "", 0
	s.Status, s.StartedAt, s.EndedAt, s.ErrorSummary, s.SkipReason = StatusRunning, stamp(began), "", "", ""
	s.LastAction = ActionExecuted
	s.Runs++
	if err := r.save(); err != nil {
		return err
	}
	r.current, r.bound = name, nil
	out, err := r.run(stg)
	if err == nil && out.failure == "" {
		err = r.coreUnchanged(out)
	}
	if ferr := r.flush(); ferr != nil && err == nil {
		err = ferr
	}
	// The stage may have changed what later stages hash and which
	// variables the package's modules read.
	r.digests, r.env, r.bound = nil, nil, nil
	ended := r.p.Now()
	s.EndedAt, s.DurationMs = stamp(ended), ended.Sub(began).Milliseconds()
	s.InputFingerprint, s.FingerprintInputs = fp, pairs
	if out != nil {
		s.Steps, s.OutputHashes, s.AuthorizedWrites, s.NodeProcesses = out.steps, out.outputs, out.authorized, out.nodes
		r.findings.Merge(&out.findings)
	}
	switch {
	case err != nil:
		s.Status, s.ErrorSummary = StatusFailed, err.Error()
		if ctxErr := r.ctx.Err(); ctxErr != nil {
			s.ErrorSummary = "interrupted: " + ctxErr.Error()
		}
	case out.failure != "":
		s.Status, s.ErrorSummary = StatusFailed, out.failure
	default:
		s.Status, s.InvalidatedReason = StatusCompleted, ""
	}
	if stg.failed != nil && s.Status != StatusCompleted {
		if ferr := stg.failed(r); ferr != nil && err == nil {
			err = ferr
		}
	}
	took := ended.Sub(began).Round(time.Millisecond)
	if s.Status == StatusCompleted {
		r.p.progress("pipeline: %s completed in %s", name, took)
	} else {
		r.p.progress("pipeline: %s failed in %s: %s", name, took, s.ErrorSummary)
	}
	if err != nil {
		r.invalidateDownstream(name)
		return errors.Join(fmt.Errorf("%s: %w", name, err), r.save())
	}
	return nil
}

// abort records a stage that could not even be fingerprinted.
func (r *runner) abort(name string, err error) error {
	s := r.st.Stages[name]
	s.Status, s.ErrorSummary, s.LastAction = StatusFailed, err.Error(), ActionExecuted
	r.invalidateDownstream(name)
	return errors.Join(fmt.Errorf("%s: %w", name, err), r.save())
}

// run does a stage's work, unless the run was cancelled.
func (r *runner) run(stg *stage) (*stageOutcome, error) {
	if err := r.ctx.Err(); err != nil {
		return nil, err
	}
	return stg.run(r)
}

// coreUnchanged fails a stage that ran while the package's Portable Core
// changed: the stage built on the Core loaded when the run began, and
// must not vouch for a package edited since.
func (r *runner) coreUnchanged(out *stageOutcome) error {
	file, err := r.core.Changed()
	if file != "" {
		out.fail("%s changed while the stage ran; run the pipeline again", file)
	}
	return err
}

// invalidateDownstream marks every completed stage after name invalidated.
func (r *runner) invalidateDownstream(name string) {
	for _, down := range Stages[slices.Index(Stages, name)+1:] {
		if s := r.st.Stages[down]; s.Status == StatusCompleted {
			s.Status, s.InvalidatedReason = StatusInvalidated, "upstream stage "+name+" did not complete"
		}
	}
	if r.st.Stages[StageFinalize].Status != StatusCompleted {
		r.st.LastFinalization = nil
	}
}

// save writes the state when it changed. An unchanged re-run changes
// nothing, so it writes nothing: the state keeps the time of its last
// change.
func (r *runner) save() error {
	data, err := stateBytes(r.st)
	if err != nil {
		return err
	}
	if r.saved != nil && string(data) == string(r.saved) {
		return nil
	}
	r.st.UpdatedAt = r.p.now()
	if data, err = stateBytes(r.st); err != nil {
		return err
	}
	if err := writeStateFile(r.p.statePath(StateFile), data); err != nil {
		return err
	}
	r.saved = data
	return nil
}
