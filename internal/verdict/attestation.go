package verdict

import (
	"fmt"
	"slices"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
)

// AttestationFile is the final file that says which of the checks the
// final files record rest on authenticated evidence: for each, a tag
// (attest.DomainFinalCheck) finalize made with the evidence key after it
// verified the check record the pipeline had tagged, over the check as the
// final files record it, its row, its phase, the contract and the package
// (CandidateDigest). A check without a tag that verifies here rests on
// evidence nobody vouched for: a hand-made verification report, a key of
// another machine.
//
//	{"schemaVersion": "v1", "keyId": "…", "contractId": "…",
//	 "candidateDigest": "…",
//	 "checks": [{"scope": "capability:<id>", "phase": "behavior",
//	             "checkId": "…", "attestation": "hmac-sha256:…"}, …]}
const AttestationFile = "verification-attestation.json"

// GlobalPhase is the phase of the package-wide checks the preflight report
// records.
const GlobalPhase = attest.PhaseGlobal

// CandidateDigest is the digest of a package without its final files: of
// each other file's path and SHA-256. A check record and an attestation
// name the package they are about by it.
func CandidateDigest(h Hashes) string {
	o := &canonjson.Object{}
	for _, p := range h.paths(FinalFiles...) {
		o.Set(p, str(h[p]))
	}
	return canonjson.Digest(o)
}

// Attested reports whether an executed check of a row (an attest scope)
// and phase rests on an authenticated record. check is the check as the
// final files record it.
type Attested func(scope, phase string, check *canonjson.Object) bool

// AttestedCheck is a check the final files record that needs a tag: a
// passed check of a row or a package-wide check.
type AttestedCheck struct {
	Scope, Phase string
	Check        *canonjson.Object
	// At locates the check in its final file (File), for findings.
	File, At string
}

// ID returns the check's checkId, or its name.
func (c *AttestedCheck) ID() string {
	if s := stringMember(c.Check, "checkId"); s != "" {
		return s
	}
	return stringMember(c.Check, "name")
}

// message is what the tag of a check covers.
func attestationMessage(contractID, candidate string, c *AttestedCheck) *canonjson.Object {
	return object(
		member{Key: "contractId", Value: str(contractID)},
		member{Key: "candidateDigest", Value: str(candidate)},
		member{Key: "scope", Value: str(c.Scope)},
		member{Key: "phase", Value: str(c.Phase)},
		member{Key: "check", Value: c.Check},
	)
}

// MatrixChecks returns the passed checks of a final matrix's rows and of
// the preflight report's package-wide checks that an attestation covers, in
// file order. Rows and checks that are not well-formed are left out: the
// cross-check reports them.
func MatrixChecks(matrix, preflight canonjson.Value) []AttestedCheck {
	var out []AttestedCheck
	for _, part := range []struct{ key, idKey, kind string }{{"capabilities", "capabilityId", "capability"}, {"workflows", "workflowId", "workflow"}} {
		rows, _ := canonjson.Resolve(matrix, "/"+part.key)
		arr, _ := rows.(canonjson.Array)
		for i, row := range arr {
			o, _ := row.(*canonjson.Object)
			id := stringMember(o, part.idKey)
			if o == nil || id == "" {
				continue
			}
			scope := attest.CapabilityScope(id)
			if part.kind == "workflow" {
				scope = attest.WorkflowScope(id)
			}
			checks, _ := o.Get("checks")
			list, _ := checks.(canonjson.Array)
			for j, c := range list {
				co, _ := c.(*canonjson.Object)
				if co == nil || !passedCheck(co) {
					continue
				}
				out = append(out, AttestedCheck{Scope: scope, Phase: stringMember(co, "phase"), Check: co,
					File: MatrixFile, At: fmt.Sprintf("/%s/%d/checks/%d", part.key, i, j)})
			}
		}
	}
	checks, _ := canonjson.Resolve(preflight, "/checks")
	list, _ := checks.(canonjson.Array)
	for j, c := range list {
		if co, _ := c.(*canonjson.Object); co != nil && passedCheck(co) {
			out = append(out, AttestedCheck{Scope: attest.PackageScope, Phase: GlobalPhase, Check: co,
				File: PreflightFile, At: fmt.Sprintf("/checks/%d", j)})
		}
	}
	return out
}

func passedCheck(o *canonjson.Object) bool {
	code, _ := o.Get("exitCode")
	return stringMember(o, "status") == StatusPassed && code == canonjson.Int(0)
}

// Attestation returns the attestation file: a tag made with key for each
// check of checks that attested accepts. Without a key it tags nothing.
func Attestation(key *attest.Key, contractID, candidate string, checks []AttestedCheck, attested Attested) *canonjson.Object {
	entries := canonjson.Array{}
	keyID := ""
	if key != nil {
		keyID = key.ID()
		for i := range checks {
			c := &checks[i]
			if attested == nil || !attested(c.Scope, c.Phase, c.Check) {
				continue
			}
			entries = append(entries, object(
				member{Key: "scope", Value: str(c.Scope)},
				member{Key: "phase", Value: str(c.Phase)},
				member{Key: "checkId", Value: str(c.ID())},
				member{Key: "attestation", Value: str(key.SignValue(attest.DomainFinalCheck, attestationMessage(contractID, candidate, c)))},
			))
		}
	}
	return object(
		member{Key: "schemaVersion", Value: str("v1")},
		member{Key: "keyId", Value: str(keyID)},
		member{Key: "contractId", Value: str(contractID)},
		member{Key: "candidateDigest", Value: str(candidate)},
		member{Key: "checks", Value: entries},
	)
}

// Attestation outcomes of one check.
const (
	// CheckAttested: a tag of this key verifies for the check as recorded.
	CheckAttested = "attested"
	// CheckUnattested: no tag covers the check, or only one of another key.
	CheckUnattested = "unattested"
	// CheckTampered: a tag of this key names the check but no longer
	// verifies: the check was changed after finalize attested it.
	CheckTampered = "tampered"
)

// AttestationVerdict is what an attestation file establishes about the
// checks the final files record.
type AttestationVerdict struct {
	// Problem says why no check is attested ("" when the file can vouch
	// for checks): no key, another machine's key, a package changed since.
	Problem string
	// Pointer locates the problem in the file.
	Pointer string
	// Outcomes are the outcome of each check, in the order given.
	Outcomes []string
	// Stray are the pointers of entries that name no recorded check.
	Stray []string
}

// VerifyAttestation judges the checks the final files record against the
// attestation file doc, with key (nil when none is available here).
func VerifyAttestation(key *attest.Key, contractID, candidate string, doc canonjson.Value, checks []AttestedCheck) AttestationVerdict {
	v := AttestationVerdict{Outcomes: make([]string, len(checks))}
	for i := range v.Outcomes {
		v.Outcomes[i] = CheckUnattested
	}
	o, _ := doc.(*canonjson.Object)
	keyID := stringMember(o, "keyId")
	entries, _ := o.Get("checks")
	list, _ := entries.(canonjson.Array)
	switch {
	case key == nil:
		v.Problem = "there is no evidence key on this machine to verify the attestations with"
		return v
	case len(list) == 0:
		v.Problem = "finalize found no authenticated pipeline record for any of them"
		return v
	case keyID != key.ID():
		v.Problem, v.Pointer = fmt.Sprintf("the attestations were made with another evidence key (%s; this machine's is %s)", orNone(keyID), key.ID()), "/keyId"
		return v
	case stringMember(o, "contractId") != contractID:
		v.Problem, v.Pointer = "the attestations are about another contract", "/contractId"
		return v
	case stringMember(o, "candidateDigest") != candidate:
		v.Problem, v.Pointer = "the package changed after finalize attested its evidence", "/candidateDigest"
		return v
	}
	type entry struct {
		at  string
		tag string
	}
	byID := map[[3]string][]entry{}
	used := map[string]bool{}
	for i, e := range list {
		eo, _ := e.(*canonjson.Object)
		at := fmt.Sprintf("/checks/%d", i)
		id := [3]string{stringMember(eo, "scope"), stringMember(eo, "phase"), stringMember(eo, "checkId")}
		byID[id] = append(byID[id], entry{at, stringMember(eo, "attestation")})
	}
	for i := range checks {
		c := &checks[i]
		msg := attestationMessage(contractID, candidate, c)
		for _, e := range byID[[3]string{c.Scope, c.Phase, c.ID()}] {
			if used[e.at] {
				continue
			}
			switch key.VerifyValue(attest.DomainFinalCheck, msg, e.tag) {
			case attest.Valid:
				v.Outcomes[i] = CheckAttested
				used[e.at] = true
			case attest.Invalid:
				if v.Outcomes[i] == CheckUnattested {
					v.Outcomes[i] = CheckTampered
				}
				continue
			default:
				continue
			}
			break
		}
	}
	// An entry that names no recorded check vouches for something the
	// final files do not hold.
	ids := map[[3]string]bool{}
	for i := range checks {
		ids[[3]string{checks[i].Scope, checks[i].Phase, checks[i].ID()}] = true
	}
	for id, es := range byID {
		if !ids[id] {
			for _, e := range es {
				v.Stray = append(v.Stray, e.at)
			}
		}
	}
	slices.Sort(v.Stray)
	return v
}

// ClaimedUnattested returns the rows (attest scopes) with a check that no
// entry of the attestation file doc names, in the order of checks: what
// approval-audit.json says rests on unattested evidence. It reads the
// entries as they are; whether their tags verify is VerifyAttestation's.
func ClaimedUnattested(doc canonjson.Value, checks []AttestedCheck) []string {
	o, _ := doc.(*canonjson.Object)
	entries, _ := o.Get("checks")
	list, _ := entries.(canonjson.Array)
	named := map[[3]string]bool{}
	for _, e := range list {
		eo, _ := e.(*canonjson.Object)
		named[[3]string{stringMember(eo, "scope"), stringMember(eo, "phase"), stringMember(eo, "checkId")}] = true
	}
	outcomes := make([]string, len(checks))
	for i := range checks {
		outcomes[i] = CheckUnattested
		if named[[3]string{checks[i].Scope, checks[i].Phase, checks[i].ID()}] {
			outcomes[i] = CheckAttested
		}
	}
	return UnattestedRows(checks, outcomes)
}

// UnattestedRows returns the rows (attest scopes) with at least one check
// whose outcome is not attested, in the order of checks.
func UnattestedRows(checks []AttestedCheck, outcomes []string) []string {
	seen := map[string]bool{}
	var out []string
	for i := range checks {
		if outcomes[i] != CheckAttested && !seen[checks[i].Scope] {
			seen[checks[i].Scope] = true
			out = append(out, checks[i].Scope)
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
