package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// Versions of the files the pipeline keeps in its state directory.
const (
	StateSchemaVersion  = "producer-run-state/v1"
	PipelineVersion     = "producer-pipeline/v1"
	ChecksSchemaVersion = attest.RecordSchemaVersion
)

// Files and directories of the state directory, relative to it.
const (
	StateFile       = "run-state.json"
	ModeSummaryFile = "mode-summary.json"
	lockFile        = "run-state.lock"

	verificationDir = "verification"
	LiveCasesDir    = verificationDir + "/cases/live"
	DryRunCasesDir  = verificationDir + "/cases/dry-run"
	VectorsDir      = verificationDir + "/vectors"
	ResultsDir      = verificationDir + "/results"
	LogsDir         = verificationDir + "/logs"
	LiveDir         = verificationDir + "/live"
	ReportsDir      = verificationDir + "/reports"
	// ReplacedDir keeps what generate replaced that the pipeline had not
	// written.
	ReplacedDir = "replaced"

	VerificationReportFile = ReportsDir + "/verification-report.json"
	FinalizerLogFile       = ReportsDir + "/finalizer-output.log"
	PipelineReportFile     = ReportsDir + "/pipeline-report.json"
)

// maxStateSize bounds how much of run-state.json is read.
const maxStateSize = 16 << 20

// Modes init detects.
const (
	ModeFresh       = "fresh"
	ModeChangedOnly = "changed-only"
	ModeMigrate     = "migrate"
)

// Stage statuses.
const (
	StatusPending     = "pending"
	StatusRunning     = "running"
	StatusCompleted   = "completed"
	StatusFailed      = "failed"
	StatusInvalidated = "invalidated"
)

// What a run last did with a stage.
const (
	ActionExecuted         = "executed"
	ActionSkippedUnchanged = "skipped-unchanged"
	ActionSkippedDisabled  = "skipped-disabled"
)

// State is run-state.json: what the pipeline knows about one package
// between runs. It holds timestamps and this machine's source paths, so it
// lives in the state directory, never in the portable package.
type State struct {
	SchemaVersion   string `json:"schemaVersion"`
	PipelineVersion string `json:"pipelineVersion"`
	FeatureID       string `json:"featureId"`
	// CandidateDir is the package, relative to the state directory.
	CandidateDir          string       `json:"candidateDir"`
	Mode                  string       `json:"mode"`
	ModeSummary           *ModeSummary `json:"modeSummary"`
	MigrationAcknowledged bool         `json:"migrationAcknowledged"`
	// SourceMaps locate the topology's sources on this machine: source ID
	// to absolute directory.
	SourceMaps    map[string]string `json:"sourceMaps"`
	RuntimeVerify RuntimeVerifyInfo `json:"runtimeVerify"`
	// HostVerify records, for information only, how host verification
	// last ran; nil before it ever did.
	HostVerify *HostRun `json:"hostVerify,omitempty"`
	// HostInvalidated are the scopes whose Host-phase records a change
	// removed since host verification last ran.
	HostInvalidated []string               `json:"hostInvalidated,omitempty"`
	Stages          map[string]*StageState `json:"stages"`
	// Capabilities maps each capability ID to the digest of its contract
	// entry, as analyze last saw it.
	Capabilities     map[string]string `json:"capabilities"`
	LastFinalization *Finalization     `json:"lastFinalization"`
	// ContractChange compares the contract with the last finalized one
	// (contractchange.go).
	ContractChange *ContractChange `json:"contractChange,omitempty"`
	CreatedAt      string          `json:"createdAt"`
	UpdatedAt      string          `json:"updatedAt"`
}

// StageState is what the state records of one stage.
type StageState struct {
	Status string `json:"status"`
	// InputFingerprint is the SHA-256 of FingerprintInputs when the stage
	// last ran; the stage is fresh while its inputs hash the same.
	InputFingerprint  string     `json:"inputFingerprint,omitempty"`
	FingerprintInputs [][]string `json:"fingerprintInputs,omitempty"`
	LastAction        string     `json:"lastAction,omitempty"`
	SkipReason        string     `json:"skipReason,omitempty"`
	InvalidatedReason string     `json:"invalidatedReason,omitempty"`
	StartedAt         string     `json:"startedAt,omitempty"`
	EndedAt           string     `json:"endedAt,omitempty"`
	DurationMs        int64      `json:"durationMs"`
	// Steps names what the stage ran, in order, as portable command text.
	Steps        []string `json:"steps,omitempty"`
	ErrorSummary string   `json:"errorSummary,omitempty"`
	// OutputHashes are the SHA-256 of the files the stage wrote (generate,
	// finalize): a stage whose outputs changed since is not fresh.
	OutputHashes map[string]string `json:"outputHashes,omitempty"`
	Runs         int               `json:"runs"`
	// NodeProcesses counts the node processes the stage's last execution
	// started (probe, vectors, live calls).
	NodeProcesses int `json:"nodeProcesses,omitempty"`
	// AuthorizedWrites are the writes runtime-verify was authorised to
	// call when it last ran: information, and the input of its
	// fingerprint; never an authority for a later run.
	AuthorizedWrites []string `json:"authorizedWrites,omitempty"`
}

// RuntimeVerifyInfo records, for information only, how runtime verification
// last ran. Authorisations are never read back as authority.
type RuntimeVerifyInfo struct {
	LastRun     *RuntimeRun `json:"lastRun,omitempty"`
	LastSkipped []Skipped   `json:"lastSkipped"`
	// Declared remembers the variables the package's modules read, by
	// the modules' digest, so that an unchanged package is not parsed
	// again.
	Declared *Declared `json:"declared,omitempty"`
	// Invalidated are the scopes ("capability:<id>", "workflow:<id>")
	// whose runtime evidence a change removed since runtime verification
	// last ran; the next runtime verification calls them again.
	Invalidated []string `json:"invalidated,omitempty"`
	// Env and Origins name (never value) the --env variables and the
	// --runtime-origin origins the last runtime verification was given,
	// so that the command restoring it can be named.
	Env     []string `json:"env,omitempty"`
	Origins []string `json:"origins,omitempty"`
}

// Declared are the variables modules with the given digest read.
type Declared struct {
	ModulesDigest string   `json:"modulesDigest"`
	Variables     []string `json:"variables"`
}

// RuntimeRun is one run of runtime verification.
type RuntimeRun struct {
	Enabled          bool     `json:"enabled"`
	AuthorizedWrites []string `json:"authorizedWrites"`
	RanAt            string   `json:"ranAt"`
}

// Skipped is a live call runtime verification did not make, and why.
type Skipped struct {
	CheckID      string `json:"checkId"`
	CapabilityID string `json:"capabilityId,omitempty"`
	WorkflowID   string `json:"workflowId,omitempty"`
	Reason       string `json:"reason"`
	// Upstream is the capability whose call did not succeed, for
	// SkipReferenceFailed.
	Upstream string `json:"upstream,omitempty"`
}

// Finalization is what the last successful finalize decided, the final
// files it wrote (their SHA-256), and its tag (attest.DomainFinalization):
// a decision is shown only while the tag verifies and the final files are
// still the ones it names.
type Finalization struct {
	Decision     string                     `json:"decision"`
	CompletedAt  string                     `json:"completedAt"`
	Delivery     map[string]string          `json:"delivery"`
	Capabilities map[string]CapabilityFlags `json:"capabilities"`
	Workflows    map[string]CapabilityFlags `json:"workflows"`
	Files        map[string]string          `json:"files"`
	Attestation  string                     `json:"attestation"`
}

// CapabilityFlags are one row's status flags in the final matrix.
type CapabilityFlags struct {
	Generated        bool `json:"generated"`
	BehaviorVerified bool `json:"behaviorVerified"`
	RuntimeVerified  bool `json:"runtimeVerified"`
	HostVerified     bool `json:"hostVerified"`
	RequiresReview   bool `json:"requiresReview"`
	Blocked          bool `json:"blocked"`
	// Reasons are the row's reasons, which say which phases failed or
	// are still pending.
	Reasons []string `json:"reasons,omitempty"`
}

// newState returns the state of a package seen for the first time.
func newState(featureID, candidateDir, now string) *State {
	s := &State{
		SchemaVersion:   StateSchemaVersion,
		PipelineVersion: PipelineVersion,
		FeatureID:       featureID,
		CandidateDir:    candidateDir,
		SourceMaps:      map[string]string{},
		Stages:          map[string]*StageState{},
		Capabilities:    map[string]string{},
		RuntimeVerify:   RuntimeVerifyInfo{LastSkipped: []Skipped{}},
		CreatedAt:       now,
		UpdatedAt:       now,
	}
	s.normalize()
	return s
}

// normalize gives every stage an entry and every collection a value, so
// that the state always has the same shape.
func (s *State) normalize() {
	if s.Stages == nil {
		s.Stages = map[string]*StageState{}
	}
	for _, name := range Stages {
		if s.Stages[name] == nil {
			s.Stages[name] = &StageState{Status: StatusPending}
		}
	}
	if s.SourceMaps == nil {
		s.SourceMaps = map[string]string{}
	}
	if s.Capabilities == nil {
		s.Capabilities = map[string]string{}
	}
	if s.RuntimeVerify.LastSkipped == nil {
		s.RuntimeVerify.LastSkipped = []Skipped{}
	}
}

// stateBytes returns the file form of the state: indented, keys sorted, so
// that the same state is always the same bytes.
func stateBytes(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		return nil, err
	}
	return canonjson.Encode(sortKeys(doc)), nil
}

// sortKeys returns v with the members of every object sorted by key.
func sortKeys(v canonjson.Value) canonjson.Value {
	switch v := v.(type) {
	case *canonjson.Object:
		keys := v.Keys()
		slices.Sort(keys)
		out := &canonjson.Object{}
		for _, k := range keys {
			e, _ := v.Get(k)
			out.Set(k, sortKeys(e))
		}
		return out
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = sortKeys(e)
		}
		return out
	}
	return v
}

// StateError is a state file code2skill cannot use: unreadable, not JSON,
// or not in the form code2skill writes.
type StateError struct {
	File string // relative to the state directory
	Err  error
}

func (e *StateError) Error() string {
	return fmt.Sprintf("%s: %v; move it away and run \"code2skill pipeline init\" again", e.File, e.Err)
}

func (e *StateError) Unwrap() error { return e.Err }

// errNoState reports a state directory without run-state.json.
var errNoState = errors.New("no pipeline state")

// readState reads run-state.json strictly: it must be exactly what
// code2skill writes for the values it holds (no unknown, misspelt or
// duplicated key), so that a hand-edited or damaged state is refused rather
// than half-understood.
func readState(stateDir string) (*State, error) {
	data, err := pkgdir.ReadFile(filepath.Join(stateDir, StateFile), maxStateSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoState
	}
	if err != nil {
		return nil, &StateError{StateFile, err}
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		return nil, &StateError{StateFile, err}
	}
	var s State
	if err := canonjson.UnmarshalStrict(data, &s); err != nil {
		return nil, &StateError{StateFile, err}
	}
	again, err := stateBytes(&s)
	if err != nil {
		return nil, &StateError{StateFile, err}
	}
	if !bytes.Equal(again, canonjson.Encode(sortKeys(doc))) {
		return nil, &StateError{StateFile, errors.New("not in the form code2skill writes (a key is misspelt, mistyped or missing)")}
	}
	if s.SchemaVersion != StateSchemaVersion {
		return nil, &StateError{StateFile, fmt.Errorf("schemaVersion %q, this code2skill reads %q", s.SchemaVersion, StateSchemaVersion)}
	}
	for name := range s.Stages {
		if !slices.Contains(Stages, name) {
			return nil, &StateError{StateFile, fmt.Errorf("unknown stage %q", name)}
		}
	}
	s.normalize()
	return &s, nil
}

// writeStateFile writes a file of the state directory atomically.
func writeStateFile(path string, data []byte) error {
	return atomicfile.WriteFile(path, data, 0o644)
}

// writeState writes run-state.json atomically.
func writeState(stateDir string, s *State) error {
	data, err := stateBytes(s)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(stateDir, StateFile), data, 0o644)
}

// relPath returns target relative to base, slash-separated.
func relPath(base, target string) string {
	r, err := filepath.Rel(base, target)
	if err != nil {
		return filepath.ToSlash(target)
	}
	return filepath.ToSlash(r)
}

// within reports whether path is dir or lies under it (both absolute and
// clean).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}
