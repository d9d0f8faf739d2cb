package pipeline

import (
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// StageAnalyze reads and judges the Portable Core inputs, evidence
// resolved against the authorised sources.
const StageAnalyze = "analyze"

var analyzeStage = &stage{
	name:       StageAnalyze,
	categories: []string{CategorySource, CategoryCanonical},
	inputs: func(r *runner) ([]input, error) {
		return inputsOf(
			func() ([]input, error) { return r.files(authoringFiles) },
			r.sources,
		)
	},
	run: (*runner).analyze,
}

// sourcesLocated returns where the authorised sources are on this machine:
// the stored source maps. Nothing is resolved against the working
// directory, so results never depend on where the command runs.
func (r *runner) sourcesLocated() contract.Sources {
	return contract.Sources{Map: r.st.SourceMaps}
}

// analyze judges the Portable Core inputs the run loaded, with evidence
// locators resolved against the mapped sources, and records the digest of
// every capability.
func (r *runner) analyze() (*stageOutcome, error) {
	out := &stageOutcome{steps: []string{"read the Portable Core inputs", "code2skill check-contract"}}
	if err := r.core.Err(); err != nil {
		return out, err
	}
	list := r.core.Read()
	out.findings.Merge(list)
	if !list.HasErrors() {
		out.findings.Merge(r.p.Steps.CheckContract(r.core.Inputs, r.sourcesLocated()))
	}
	if n := errorCount(&out.findings); n > 0 {
		return out.fail("the Portable Core has %d error(s); run code2skill pipeline diagnose", n), nil
	}
	r.st.Capabilities = capabilityDigestsOf(r.core.Root(contract.ContractFile))
	return out, nil
}

func errorCount(l *diag.List) int {
	n, _ := l.Counts()
	return n
}
