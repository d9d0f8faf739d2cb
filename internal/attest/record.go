package attest

import (
	"encoding/json"
	"fmt"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// RecordSchemaVersion is the format of check records.
const RecordSchemaVersion = "producer-checks/v2"

// Record is one executed check as the pipeline records it under
// verification/results of its state: what ran, its outcome, the evidence it
// left, which stage ran it and on which package, and the tag that makes all
// of that tamper-evident. The tag covers every member but itself, so it
// covers the evidence too: the SHA-256 of the log or vector evidence file,
// and the digests of a live call's input and result.
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
	// Stage is the pipeline stage that ran the check; only the stage of
	// its phase (StageOf) may.
	Stage string `json:"stage"`
	// ContractID and CandidateDigest name the package the check ran on:
	// its contract and the digest of its files but the final ones
	// (verdict.CandidateDigest), so that a record vouches for this package
	// as it was, never for another or a later version.
	ContractID      string `json:"contractId"`
	CandidateDigest string `json:"candidateDigest"`
	// ScopeDigest is the digest of what a runtime or host check of a
	// capability or workflow depends on, as it was when the check ran:
	// the scope's slice of the contract, its own compiled code, its live
	// case and what the package's scopes share. While it is unchanged the
	// check still vouches for its scope, whatever else changed in the
	// package, and the pipeline binds it to the package as it is now.
	ScopeDigest string `json:"scopeDigest,omitempty"`
	// Attestation is the tag of the record (DomainRecord).
	Attestation string `json:"attestation,omitempty"`
}

// Phases of check records.
const (
	PhaseGlobal   = "global"
	PhaseBehavior = "behavior"
	PhaseRuntime  = "runtime"
	PhaseHost     = "host"
	PhaseBypass   = "bypass"
)

// phaseStages name the pipeline stage that runs each phase's checks.
var phaseStages = map[string]string{
	PhaseGlobal:   "verify",
	PhaseBehavior: "verify",
	PhaseBypass:   "verify",
	PhaseRuntime:  "runtime-verify",
	PhaseHost:     "host-verify",
}

// StageOf returns the pipeline stage whose records a phase's checks are:
// a runtime check counts only when a runtime verification of the package
// recorded it.
func StageOf(phase string) string { return phaseStages[phase] }

// content returns the canonical JSON the tag covers: the record without
// its tag.
func (r *Record) content() ([]byte, error) {
	c := *r
	c.Attestation = ""
	data, err := json.Marshal(&c)
	if err != nil {
		return nil, err
	}
	v, err := canonjson.Decode(data)
	if err != nil {
		return nil, err
	}
	return canonjson.DigestForm(v), nil
}

// SignRecord sets the record's schema version and tag.
func (k *Key) SignRecord(r *Record) error {
	r.SchemaVersion = RecordSchemaVersion
	data, err := r.content()
	if err != nil {
		return err
	}
	r.Attestation = k.Sign(DomainRecord, data)
	return nil
}

// VerifyRecord checks a record's tag. Whether the stage it names may run
// its phase (StageOf) and whether it is about the package at hand are the
// caller's to check.
func (k *Key) VerifyRecord(r *Record) Status {
	data, err := r.content()
	if err != nil {
		return Invalid
	}
	return k.Verify(DomainRecord, data, r.Attestation)
}

// DecodeRecord reads a record strictly: exactly the members of the format,
// no other.
func DecodeRecord(data []byte) (*Record, error) {
	var r Record
	if err := canonjson.UnmarshalStrict(data, &r); err != nil {
		return nil, err
	}
	if r.SchemaVersion != RecordSchemaVersion {
		return nil, fmt.Errorf("schemaVersion %q, not %q", r.SchemaVersion, RecordSchemaVersion)
	}
	return &r, nil
}

// ReportCheck returns the executed check the record is in a verification
// report: its name, command, exit code, status, evidence hash and check ID,
// the phase when withPhase, the Tool and live digests of a runtime check
// (each only when the record has it),
// and zeroExternalWrites of a bypass check.
func (r *Record) ReportCheck(withPhase bool) *canonjson.Object {
	o := canonjson.NewObject(
		canonjson.Member{Key: "name", Value: canonjson.String(r.Name)},
		canonjson.Member{Key: "command", Value: canonjson.String(r.Command)},
		canonjson.Member{Key: "exitCode", Value: canonjson.Int(r.ExitCode)},
		canonjson.Member{Key: "status", Value: canonjson.String(r.Status)},
		canonjson.Member{Key: "evidenceHash", Value: canonjson.String(r.EvidenceHash)},
		canonjson.Member{Key: "checkId", Value: canonjson.String(r.CheckID)},
	)
	if withPhase {
		o.Set("phase", canonjson.String(r.Phase))
	}
	if r.ToolName != "" {
		o.Set("toolName", canonjson.String(r.ToolName))
	}
	// A failed call may have no result, or no input it could send: a
	// digest is written only when there is one, since the report's
	// digests are SHA-256 or absent.
	if r.InputHash != "" {
		o.Set("inputHash", canonjson.String(r.InputHash))
	}
	if r.ResultHash != "" {
		o.Set("resultHash", canonjson.String(r.ResultHash))
	}
	if r.ZeroExternalWrites != nil {
		o.Set("zeroExternalWrites", canonjson.Bool(*r.ZeroExternalWrites))
	}
	return o
}

// Scopes name what a check is about: a capability, a workflow, or the
// package as a whole (a global check).
const PackageScope = "package"

// CapabilityScope and WorkflowScope name a capability's and a workflow's
// rows.
func CapabilityScope(id string) string { return "capability:" + id }
func WorkflowScope(id string) string   { return "workflow:" + id }

// Scope returns the row a record is about.
func (r *Record) Scope() string {
	switch {
	case r.WorkflowID != "":
		return WorkflowScope(r.WorkflowID)
	case r.CapabilityID != "":
		return CapabilityScope(r.CapabilityID)
	}
	return PackageScope
}
