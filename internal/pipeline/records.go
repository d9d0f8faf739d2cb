package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/verdict"
)

// Phases of a check record: a global check of the whole package, or a
// capability's behavior, runtime or host phase, or a workflow's bypass.
const (
	PhaseGlobal   = attest.PhaseGlobal
	PhaseBehavior = attest.PhaseBehavior
	PhaseRuntime  = attest.PhaseRuntime
	PhaseHost     = attest.PhaseHost
	PhaseBypass   = attest.PhaseBypass
)

// Check statuses of a record.
const (
	CheckPassed = "passed"
	CheckFailed = "failed"
)

// Hash scopes: what a record's evidence hash covers.
const (
	ScopeLogFile        = "persisted-log-file"
	ScopeVectorEvidence = "persisted-vector-evidence"
)

// The global checks verify records; finalize needs all three, passed.
const (
	CheckStaticValidation = "static-validation"
	CheckOfflineProbe     = "offline-probe"
	CheckBehaviorVectors  = "behavior-vectors"
)

// GlobalChecks lists the global checks in order.
var GlobalChecks = []string{CheckStaticValidation, CheckOfflineProbe, CheckBehaviorVectors}

// CheckLiveCall is the runtime check of one live call.
const CheckLiveCall = "live-tools-call"

// Record is one executed check, as the state keeps it under
// verification/results: what ran, its outcome, the evidence it left, the
// stage that ran it and the package it ran on, tagged with the evidence
// key (attest.Record). The one writer of records (writeRecord) tags them;
// the one reader (readRecords) says which verify.
type Record = attest.Record

// recordKey is the file name of a record under results/ and of its log
// under logs/: <phase>--<scope>--<checkId>, '/' replaced by '_'. The scope
// is the capability ID, "workflow_<id>" for a workflow (capability IDs
// have no underscore, so a workflow named like its entry capability keeps
// records of its own), or "package" for a global check.
func recordKey(phase, scope, checkID string) string {
	if scope == "" {
		scope = "package"
	}
	return strings.ReplaceAll(phase+"--"+scope+"--"+checkID, "/", "_")
}

func keyOf(rec *Record) string {
	scope := rec.CapabilityID
	if rec.WorkflowID != "" {
		scope = "workflow_" + rec.WorkflowID
	}
	return recordKey(rec.Phase, scope, rec.CheckID)
}

// writeLog stages evidence text under logs/ and fills the record's
// evidence fields with it.
func (r *runner) writeLog(rec *Record, text []byte) {
	rel := "logs/" + keyOf(rec) + ".log"
	r.stage(verificationDir+"/"+rel, text)
	rec.EvidencePath, rec.EvidenceHash, rec.HashScope = rel, canonjson.SHA256(text), ScopeLogFile
}

// writeRecord stages a record under results/, bound to the stage that
// runs and the package it runs on, and tagged with the evidence key: the
// one place records are written, so that every stage's records are
// covered.
func (r *runner) writeRecord(rec *Record) error {
	b, err := r.binding()
	if err != nil {
		return err
	}
	rec.Stage, rec.ContractID, rec.CandidateDigest = r.current, b.contractID, b.candidate
	if rec.Phase == PhaseRuntime || rec.Phase == PhaseHost {
		rec.ScopeDigest = r.scopes[rec.Phase][rec.Scope()]
	}
	if err := r.p.Key.SignRecord(rec); err != nil {
		return err
	}
	data, err := stateBytes(rec)
	if err != nil {
		return err
	}
	r.stage(ResultsDir+"/"+keyOf(rec)+".json", data)
	return nil
}

// binding is the package a stage's records are about.
type binding struct {
	contractID, candidate string
}

// binding returns the package's binding. The package changes only while a
// stage runs, so it is read once between two stages, and once per stage
// when the stage writes its first record: after the stage's own writes to
// the package (verify's derived views), which the checks ran on.
func (r *runner) binding() (binding, error) {
	if r.bound != nil {
		return *r.bound, nil
	}
	b, err := r.p.packageBinding(r.core)
	if err != nil {
		return binding{}, err
	}
	r.bound = &b
	return b, nil
}

// packageBinding returns the package's contract ID, from its Portable
// Core, and its candidate digest, read now.
func (p *Pipeline) packageBinding(core *derive.Core) (binding, error) {
	if err := core.Err(); err != nil {
		return binding{}, err
	}
	b := binding{}
	if core.Contract != nil {
		b.contractID = core.Contract.ContractID
	}
	var err error
	b.candidate, err = p.candidateDigest()
	return b, err
}

// candidateDigest is the digest of the package without its final files,
// as finalize and the final validation compute it.
func (p *Pipeline) candidateDigest() (string, error) {
	pkg, _, err := pkgdir.Open(p.abs)
	if err != nil {
		return "", err
	}
	if pkg == nil {
		return digestMissing, nil
	}
	h := verdict.Hashes{}
	for _, f := range pkg.Files() {
		data, err := pkg.ReadFile(f.Path)
		if err != nil {
			return "", err
		}
		h[f.Path] = canonjson.SHA256(data)
	}
	return verdict.CandidateDigest(h), nil
}

// stage adds a file of the state directory to the batch the stage writes.
func (r *runner) stage(rel string, data []byte) {
	r.batch = append(r.batch, atomicfile.File{Path: rel, Data: data, Perm: 0o644})
}

// flush writes the staged files, all at once: the stage's records and
// their evidence appear together.
func (r *runner) flush() error {
	if len(r.batch) == 0 {
		return nil
	}
	err := atomicfile.WriteAll(r.p.stateAbs, r.batch)
	r.batch = nil
	return err
}

// readRecords reads every record under results/, in file-name order, and
// says which cannot be relied on: one that is not a record, one whose tag
// does not verify with the evidence key (written or edited by hand, or
// tagged on another machine), one written by a stage other than the one
// that runs its phase, one lying in another check's file. They are left
// out of the records returned.
func (p *Pipeline) readRecords() ([]*Record, []diag.Diagnostic, error) {
	entries, err := os.ReadDir(p.statePath(ResultsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var out []*Record
	var problems []diag.Diagnostic
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		where := ResultsDir + "/" + e.Name()
		data, err := readRegular(p.statePath(where))
		if err != nil {
			if d, ok := pkgdir.ReadFinding(where, err); ok {
				problems = append(problems, RuleEvidence.New(where, "%s", d.Message))
				continue
			}
			return nil, nil, fmt.Errorf("%s: %w", where, err)
		}
		rec, err := attest.DecodeRecord(data)
		if err != nil {
			problems = append(problems, RuleEvidence.New(where, "not a %s check record: %v", attest.RecordSchemaVersion, err))
			continue
		}
		if why := p.untrusted(rec); why != "" {
			problems = append(problems, RuleRecordUnattested.New(where, "%s; run its stage again", why))
			continue
		}
		if want := keyOf(rec) + ".json"; e.Name() != want {
			// The tag covers the record, not the file it lies in: a
			// record copied over another's would vouch for a check that
			// never ran there, and hide that one's outcome.
			problems = append(problems, RuleRecordReused.New(where, "the record is the %s check %s of %s, whose file is %s/%s: one result cannot stand for another check; run its stage again",
				rec.Phase, rec.CheckID, rec.Scope(), ResultsDir, want))
			continue
		}
		out = append(out, rec)
	}
	return out, problems, nil
}

// untrusted says why a record cannot be relied on, or "".
func (p *Pipeline) untrusted(rec *Record) string {
	if p.Key == nil {
		return "there is no evidence key to verify the record with"
	}
	if s := p.Key.VerifyRecord(rec); s != attest.Valid {
		return "the record's tag " + s.String()
	}
	if want := attest.StageOf(rec.Phase); rec.Stage != want {
		return fmt.Sprintf("a %s check recorded by %s; only %s records them", rec.Phase, orNone([]string{rec.Stage}), want)
	}
	return ""
}

// clearRecords removes the records of the given phases, their logs, and
// anything else under the given state directories.
func (p *Pipeline) clearRecords(phases []string, dirs ...string) error {
	for _, sub := range []string{ResultsDir, LogsDir} {
		entries, err := os.ReadDir(p.statePath(sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			phase, _, _ := strings.Cut(e.Name(), "--")
			if slices.Contains(phases, phase) {
				if err := os.Remove(p.statePath(sub + "/" + e.Name())); err != nil {
					return err
				}
			}
		}
	}
	for _, d := range dirs {
		if err := os.RemoveAll(p.statePath(d)); err != nil {
			return err
		}
	}
	return nil
}

// evidenceFile returns the absolute path of a record's evidence after
// checking that it stays inside verification/ once links are resolved: a
// record must not vouch for a file elsewhere.
func (p *Pipeline) evidenceFile(rec *Record) (string, error) {
	rel := path.Clean(rec.EvidencePath)
	if rec.EvidencePath == "" || path.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("record %s: evidence %q is not inside %s/", keyOf(rec), rec.EvidencePath, verificationDir)
	}
	root, err := filepath.EvalSymlinks(p.statePath(verificationDir))
	if err != nil {
		return "", err
	}
	full, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", fmt.Errorf("record %s: evidence %s: %w", keyOf(rec), rec.EvidencePath, err)
	}
	if !within(full, root) {
		return "", fmt.Errorf("record %s: evidence %s leads outside %s/", keyOf(rec), rec.EvidencePath, verificationDir)
	}
	return full, nil
}
