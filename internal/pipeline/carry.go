package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
)

// carryEvidence re-examines, once the package is generated and verified,
// the records of a runtime or host verification made on an earlier version
// of the package: a record whose scope digest (scopes.go) is what its
// capability or workflow digests to now still vouches for it, and is bound
// to the package as it is (its tag renewed with the evidence key, its
// stage, evidence and scope digest unchanged); any other record, and the
// live pair of a capability's call, is removed, and the stage that made
// them is invalidated for those scopes only. It reports the scopes whose
// evidence was removed.
func (r *runner) carryEvidence(phase, stage string) ([]string, error) {
	for _, up := range []string{StageGenerate, StageVerify} {
		// Only a package generated and verified as it is now is one the
		// evidence can be carried to; until then it stays as it is.
		if fresh, err := r.fresh(up); err != nil || !fresh {
			return nil, err
		}
	}
	recs, _, err := r.p.readRecords()
	if err != nil {
		return nil, err
	}
	recs = slices.DeleteFunc(recs, func(rec *Record) bool { return rec.Phase != phase })
	if len(recs) == 0 {
		return nil, nil
	}
	b, err := r.binding()
	if err != nil {
		return nil, err
	}
	digests, err := r.scopeDigests(phase)
	if err != nil {
		return nil, err
	}
	var removed []string
	changed := false
	for _, rec := range recs {
		current := digests != nil && rec.ScopeDigest != "" && digests[rec.Scope()] == rec.ScopeDigest
		switch {
		case current && rec.ContractID == b.contractID && rec.CandidateDigest == b.candidate:
			continue
		case current:
			rec.ContractID, rec.CandidateDigest = b.contractID, b.candidate
			if err := r.p.Key.SignRecord(rec); err != nil {
				return nil, err
			}
			data, err := stateBytes(rec)
			if err != nil {
				return nil, err
			}
			r.stage(ResultsDir+"/"+keyOf(rec)+".json", data)
		default:
			if err := r.p.removeRecord(rec); err != nil {
				return nil, err
			}
			if !slices.Contains(removed, rec.Scope()) {
				removed = append(removed, rec.Scope())
			}
		}
		changed = true
	}
	if err := r.flush(); err != nil {
		return nil, err
	}
	if changed {
		r.digests = nil // the state's trees changed
	}
	slices.Sort(removed)
	if len(removed) == 0 {
		return nil, nil
	}
	s := r.st.Stages[stage]
	if s.Status == StatusCompleted {
		s.Status = StatusInvalidated
		s.InvalidatedReason = fmt.Sprintf("%s changed since it ran (contract entry, compiled code or live case); that evidence was removed, the rest is kept", scopeList(removed))
		r.p.progress("pipeline: %s invalidated for %s", stage, scopeList(removed))
	}
	r.st.LastFinalization = nil
	inv := &r.st.RuntimeVerify.Invalidated
	if phase == PhaseHost {
		inv = &r.st.HostInvalidated
	}
	for _, sc := range removed {
		if !slices.Contains(*inv, sc) {
			*inv = append(*inv, sc)
		}
	}
	slices.Sort(*inv)
	return removed, r.save()
}

// scopeList names scopes for a reader: "capability a, workflow b".
func scopeList(scopes []string) string {
	names := make([]string, len(scopes))
	for i, sc := range scopes {
		names[i] = strings.Replace(sc, ":", " ", 1)
	}
	return strings.Join(names, ", ")
}

// removeRecord removes a record, its log and, for a capability's call, its
// live pair. A workflow's runtime record names its entry's live pair, which
// stays with the entry's record.
func (p *Pipeline) removeRecord(rec *Record) error {
	files := []string{ResultsDir + "/" + keyOf(rec) + ".json", LogsDir + "/" + keyOf(rec) + ".log"}
	if rec.WorkflowID == "" {
		for _, live := range []string{rec.LiveInputPath, rec.LiveResultPath} {
			if live != "" && !strings.Contains(live, "..") {
				files = append(files, verificationDir+"/"+live)
			}
		}
	}
	for _, f := range files {
		if err := os.Remove(p.statePath(f)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// computeScopes computes the scope digests of phase for the stage about to
// record its checks.
func (r *runner) computeScopes(phase string) error {
	d, err := r.scopeDigests(phase)
	if err != nil {
		return err
	}
	if r.scopes == nil {
		r.scopes = map[string]map[string]string{}
	}
	r.scopes[phase] = d
	return nil
}
