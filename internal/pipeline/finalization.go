package pipeline

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/verdict"
)

// finalizationContent is what a finalization's tag covers: the
// finalization without its tag, and the package and state it belongs to.
func finalizationContent(st *State, fin *Finalization) canonjson.Value {
	c := *fin
	c.Attestation = ""
	data, err := json.Marshal(&c)
	if err != nil {
		panic("pipeline: a finalization does not encode: " + err.Error())
	}
	v, err := canonjson.Decode(data)
	if err != nil {
		panic("pipeline: a finalization does not decode: " + err.Error())
	}
	return canonjson.NewObject(
		canonjson.Member{Key: "featureId", Value: canonjson.String(st.FeatureID)},
		canonjson.Member{Key: "candidateDir", Value: canonjson.String(st.CandidateDir)},
		canonjson.Member{Key: "finalization", Value: v},
	)
}

// signFinalization tags a finalization with the evidence key.
func (p *Pipeline) signFinalization(st *State, fin *Finalization) {
	fin.Attestation = p.Key.SignValue(attest.DomainFinalization, finalizationContent(st, fin))
}

// verifiedFinalization returns the last finalization when the finalize
// stage completed, its tag verifies and the final files are the ones it
// wrote. Otherwise fin is nil, and problem says why when there was a
// finalization to show: a decision nobody can vouch for is never shown.
func (p *Pipeline) verifiedFinalization(st *State) (fin *Finalization, problem string, err error) {
	fin = st.LastFinalization
	if fin == nil || st.Stages[StageFinalize].Status != StatusCompleted {
		return nil, "", nil
	}
	if p.Key == nil {
		return nil, "there is no evidence key to verify it with", nil
	}
	if s := p.Key.VerifyValue(attest.DomainFinalization, finalizationContent(st, fin), fin.Attestation); s != attest.Valid {
		return nil, fmt.Sprintf("the tag of the finalization %s remembers %s", StateFile, s), nil
	}
	for _, f := range verdict.FinalFiles {
		want, ok := fin.Files[f]
		if !ok {
			return nil, fmt.Sprintf("the finalization in %s does not name %s", StateFile, f), nil
		}
		got, err := fileDigest(p.pkgPath(f))
		if err != nil {
			return nil, "", err
		}
		if got != want {
			return nil, fmt.Sprintf("the final file %s changed since finalize wrote it", f), nil
		}
	}
	for _, f := range sortedKeys(fin.Files) {
		if !slices.Contains(verdict.FinalFiles, f) {
			return nil, fmt.Sprintf("the finalization in %s names %s, which finalize does not write", StateFile, f), nil
		}
	}
	return fin, "", nil
}
