package verdict

// Evidence is everything verification proved about a package: one record
// per capability and per workflow, and the live evidence of the
// capabilities a real MCP client called.
type Evidence struct {
	// File names the document the evidence was read from, for findings:
	// the verification report, or verification-matrix.json when the
	// cross-check rebuilds the evidence from a finalized package.
	File string
	// Capabilities and Workflows hold one record per capability and
	// workflow of the contract, in contract order.
	Capabilities []Record
	Workflows    []Record
	// Live holds the live evidence by capability ID.
	Live map[string]Live
}

// Record is the evidence of one capability or workflow: its three phases in
// the order of CapabilityPhases or WorkflowPhases.
type Record struct {
	ID     string
	At     string // JSON Pointer of the record in Evidence.File
	Phases [3]Phase
}

// Phase is the evidence of one verification phase.
type Phase struct {
	Name   string // behavior, runtime, host or bypass
	At     string // JSON Pointer of the phase in Evidence.File; the record's when it has none of its own
	Status string // passed, failed, not-run, requires-review or blocked
	Checks []Check
}

// Live is the live evidence of one capability: the digests (canonjson.Digest)
// of the Tool call a real MCP client made and of its successful result.
type Live struct {
	InputHash  string
	ResultHash string
}

// Outcome is what a phase's evidence establishes.
type Outcome uint8

const (
	// Pending: the phase did not run, or awaits review.
	Pending Outcome = iota
	// Passed: the phase ran and every check passed.
	Passed
	// Failed: the phase failed, or one of its checks did.
	Failed
	// Blocked: the phase could not run because of a known unmet condition.
	Blocked
)

// Outcome returns what the phase establishes. A failed check fails its
// phase whatever status the phase was given: the record of a failure
// cannot be waved through as "requires review".
func (p *Phase) Outcome() Outcome {
	for i := range p.Checks {
		if !p.Checks[i].Passed() {
			return Failed
		}
	}
	switch p.Status {
	case StatusPassed:
		return Passed
	case StatusFailed:
		return Failed
	case StatusBlocked:
		return Blocked
	}
	return Pending
}

// passedIDs returns the IDs of the phase's passed checks.
func (p *Phase) passedIDs() map[string]bool {
	ids := map[string]bool{}
	for i := range p.Checks {
		if p.Checks[i].Passed() {
			ids[p.Checks[i].ID()] = true
		}
	}
	return ids
}

// pointer returns where findings about the phase point.
func (p *Phase) pointer(r *Record) string {
	if p.At != "" {
		return p.At
	}
	return r.At
}

// notRun returns a record whose phases did not run: the evidence of a
// capability or workflow the report does not cover.
func notRun(id string, phases [3]string) Record {
	r := Record{ID: id}
	for i, name := range phases {
		r.Phases[i] = Phase{Name: name, Status: StatusNotRun}
	}
	return r
}
