package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/canonjson"
)

// Phases of a check record: a global check of the whole package, or a
// capability's behavior, runtime or host phase, or a workflow's bypass.
const (
	PhaseGlobal   = "global"
	PhaseBehavior = "behavior"
	PhaseRuntime  = "runtime"
	PhaseHost     = "host"
	PhaseBypass   = "bypass"
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
// verification/results: what ran, its outcome and the evidence it left.
type Record struct {
	SchemaVersion string `json:"schemaVersion"`
	CheckID       string `json:"checkId"`
	Name          string `json:"name"`
	Phase         string `json:"phase"`
	CapabilityID  string `json:"capabilityId,omitempty"`
	WorkflowID    string `json:"workflowId,omitempty"`
	// Command is the portable text of what ran (no machine paths).
	Command    string `json:"command"`
	ExitCode   int    `json:"exitCode"`
	Status     string `json:"status"`
	StartedAt  string `json:"startedAt"`
	EndedAt    string `json:"endedAt"`
	DurationMs int64  `json:"durationMs"`
	// EvidencePath is relative to verification/; EvidenceHash is the
	// SHA-256 of that file, HashScope what kind of file it is.
	EvidencePath string `json:"evidencePath"`
	EvidenceHash string `json:"evidenceHash"`
	HashScope    string `json:"hashScope"`
	Detail       string `json:"detail,omitempty"`
	// Live calls only.
	ToolName       string `json:"toolName,omitempty"`
	InputHash      string `json:"inputHash,omitempty"`
	ResultHash     string `json:"resultHash,omitempty"`
	LiveInputPath  string `json:"liveInputPath,omitempty"`
	LiveResultPath string `json:"liveResultPath,omitempty"`
	// ZeroExternalWrites is set on passed bypass checks.
	ZeroExternalWrites *bool `json:"zeroExternalWrites,omitempty"`
}

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

func (rec *Record) key() string {
	scope := rec.CapabilityID
	if rec.WorkflowID != "" {
		scope = "workflow_" + rec.WorkflowID
	}
	return recordKey(rec.Phase, scope, rec.CheckID)
}

// writeLog stages evidence text under logs/ and fills the record's
// evidence fields with it.
func (r *runner) writeLog(rec *Record, text []byte) {
	rel := "logs/" + rec.key() + ".log"
	r.stage(verificationDir+"/"+rel, text)
	rec.EvidencePath, rec.EvidenceHash, rec.HashScope = rel, canonjson.SHA256(text), ScopeLogFile
}

// writeRecord stages a record under results/.
func (r *runner) writeRecord(rec *Record) error {
	rec.SchemaVersion = ChecksSchemaVersion
	data, err := stateBytes(rec)
	if err != nil {
		return err
	}
	r.stage(ResultsDir+"/"+rec.key()+".json", data)
	return nil
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

// readRecords reads every record under results/, in file-name order. A
// record that is not one is an error: records are the evidence finalize
// relies on.
func (p *Pipeline) readRecords() ([]*Record, error) {
	entries, err := os.ReadDir(p.statePath(ResultsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []*Record
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := readRegular(p.statePath(ResultsDir + "/" + e.Name()))
		if err != nil {
			return nil, fmt.Errorf("%s/%s: %w", ResultsDir, e.Name(), err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		var rec Record
		if err := dec.Decode(&rec); err != nil || rec.SchemaVersion != ChecksSchemaVersion {
			return nil, fmt.Errorf("%s/%s is not a %s check record", ResultsDir, e.Name(), ChecksSchemaVersion)
		}
		out = append(out, &rec)
	}
	return out, nil
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
		return "", fmt.Errorf("record %s: evidence %q is not inside %s/", rec.key(), rec.EvidencePath, verificationDir)
	}
	root, err := filepath.EvalSymlinks(p.statePath(verificationDir))
	if err != nil {
		return "", err
	}
	full, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", fmt.Errorf("record %s: evidence %s: %w", rec.key(), rec.EvidencePath, err)
	}
	if !within(full, root) {
		return "", fmt.Errorf("record %s: evidence %s leads outside %s/", rec.key(), rec.EvidencePath, verificationDir)
	}
	return full, nil
}
