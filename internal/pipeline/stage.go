package pipeline

import (
	"slices"
)

// A stage is one stage of the strict flow, as a value: what its
// fingerprint hashes, its work, and what an optional stage needs. Each
// stage is defined in a file of its own; stages lists them in the order
// they run, and adding a stage is one new file and one entry there.
type stage struct {
	name string
	// enable is the flag that enables an optional stage for one run, and
	// disabled the reason the stage gives when a run does not enable it;
	// both are "" for a stage every run runs. No stage needs an optional
	// one upstream.
	enable, disabled string
	// enabled reports whether the run's options enable an optional stage.
	enabled func(o *RunOptions) bool
	// phase is the phase of the records a live verification stage makes,
	// whose evidence a run carries to the package as it is before the
	// stage (carryEvidence); "" for the other stages.
	phase string
	// categories are the diagnosis categories the stage is about
	// (diagnose --stage).
	categories []string
	// inputs returns the fingerprint inputs the stage reads, besides the
	// code2skill version every stage hashes.
	inputs func(r *runner) ([]input, error)
	// current, when set, says whether a completed stage whose inputs and
	// outputs are unchanged still holds; one that does not runs again.
	current func(r *runner) (bool, error)
	// run does the stage's work.
	run func(r *runner) (*stageOutcome, error)
	// failed undoes what a stage that did not complete left behind.
	failed func(r *runner) error
	// restore, when set, is the command that restores the stage once
	// invalidated, given the run command; otherwise that command does.
	restore func(st *State, run string) string
}

// stages are the stages of the strict flow, in the order they run.
var stages = []*stage{
	analyzeStage,
	generateStage,
	verifyStage,
	runtimeVerifyStage,
	hostVerifyStage,
	finalizeStage,
}

// Stages lists the stage names in order.
var Stages = stageNames()

func stageNames() []string {
	names := make([]string, len(stages))
	for i, s := range stages {
		names[i] = s.name
	}
	return names
}

// stageNamed returns the stage called name, or nil.
func stageNamed(name string) *stage {
	i := slices.IndexFunc(stages, func(s *stage) bool { return s.name == name })
	if i < 0 {
		return nil
	}
	return stages[i]
}

// optional reports whether a run executes the stage only when it enables
// it.
func (s *stage) optional() bool { return s.enabled != nil }

// enabledIn reports whether a run with opts executes the stage.
func (s *stage) enabledIn(o *RunOptions) bool { return s.enabled == nil || s.enabled(o) }

// inputsOf gathers a stage's fingerprint inputs from parts, stopping at the
// first that cannot be read.
func inputsOf(parts ...func() ([]input, error)) ([]input, error) {
	var out []input
	for _, part := range parts {
		in, err := part()
		if err != nil {
			return nil, err
		}
		out = append(out, in...)
	}
	return out, nil
}
