package verdict

import (
	"maps"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
)

// Hashes maps the package-relative, slash-separated path of every file of a
// package to the lowercase hex SHA-256 of its bytes.
type Hashes map[string]string

// ComparePaths orders package paths by their components: "a/b" comes
// before "a.b" because "a" < "a.b", although "/" sorts after "." as a
// byte. It is the order of the established toolchain's file lists (Python
// Path ordering), kept so that identical packages get identical manifests
// whichever tool finalized them.
func ComparePaths(a, b string) int {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if c := strings.Compare(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return len(as) - len(bs)
}

// paths returns the paths of h except the excluded ones, in ComparePaths
// order.
func (h Hashes) paths(exclude ...string) []string {
	var out []string
	for p := range h {
		if !slices.Contains(exclude, p) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, ComparePaths)
	return out
}

// File is one final file.
type File struct {
	Path string
	Data []byte
}

// Inputs of the final files besides the matrix: the report's global checks
// and the hashes of every package file other than the final files.
type FilesInput struct {
	Baseline *Baseline
	Matrix   *Matrix
	Live     map[string]Live
	// GlobalChecks are the report's package-wide checks, recorded in the
	// preflight report.
	GlobalChecks canonjson.Array
	// Hashes are the hashes of every package file except the final files.
	Hashes Hashes
	// Key tags the checks Attested accepts in AttestationFile; with no
	// key no check is attested.
	Key      *attest.Key
	Attested Attested
}

// Build computes the final files in the order of FinalFiles. Each file
// hashes the ones computed before it, as they will be on disk.
func Build(in FilesInput) []File {
	h := maps.Clone(in.Hashes)
	for _, f := range FinalFiles {
		delete(h, f)
	}
	candidate := CandidateDigest(h)
	var out []File
	docs := map[string]*canonjson.Object{}
	add := func(path string, v *canonjson.Object) {
		data := canonjson.Encode(v)
		h[path] = canonjson.SHA256(data)
		out = append(out, File{path, data})
		docs[path] = v
	}
	add(ReceiptFile, Receipt(in.Baseline.ContractID, h))
	add(PreflightFile, Preflight(in.GlobalChecks, h))
	add(LiveFile, LiveVerification(in.Baseline, in.Live))
	add(MatrixFile, in.Matrix.JSON())
	checks := MatrixChecks(docs[MatrixFile], docs[PreflightFile])
	add(AttestationFile, Attestation(in.Key, in.Baseline.ContractID, candidate, checks, in.Attested))
	add(ApprovalFile, Approval(in.Matrix, h, ClaimedUnattested(docs[AttestationFile], checks)))
	add(ManifestFile, Manifest(h))
	return out
}

// Receipt returns function-core/validation-receipt.json: the hashes of the
// contract, the bundle and the draft the package was finalized with.
func Receipt(contractID string, h Hashes) *canonjson.Object {
	return object(
		member{Key: "schemaVersion", Value: str("v1")},
		member{Key: "capabilityDraftHash", Value: str(h[draftFile])},
		member{Key: "bundleHash", Value: str(h[bundleFile])},
		member{Key: "validationStatus", Value: str(StatusPassed)},
		member{Key: "contractId", Value: str(contractID)},
		member{Key: "canonicalContractHash", Value: str(h[contractFile])},
	)
}

// preflightExcluded are the files the preflight report does not hash: the
// ones finalize writes after it, and itself.
var preflightExcluded = []string{PreflightFile, ApprovalFile, LiveFile, MatrixFile, AttestationFile, ManifestFile}

// Preflight returns preflight-report.json: the hash of every file of the
// package as it was finalized (the receipt included) and the report's
// package-wide checks.
func Preflight(checks canonjson.Array, h Hashes) *canonjson.Object {
	hashes := &canonjson.Object{}
	for _, p := range h.paths(preflightExcluded...) {
		hashes.Set(p, str(h[p]))
	}
	if checks == nil {
		checks = canonjson.Array{}
	}
	return object(
		member{Key: "schemaVersion", Value: str("v1")},
		member{Key: "status", Value: str(StatusPassed)},
		member{Key: "capabilityDraftHash", Value: str(h[draftFile])},
		member{Key: "bundleHash", Value: str(h[bundleFile])},
		member{Key: "generatedArtifactHashes", Value: hashes},
		member{Key: "checks", Value: checks},
	)
}

// LiveVerification returns live-verification.json: per capability with live
// evidence (sorted by ID) the digests of its input and result, and digests
// over all of them. Its status is passed only when every capability has live
// evidence.
func LiveVerification(b *Baseline, live map[string]Live) *canonjson.Object {
	ids := slices.Sorted(maps.Keys(live))
	caps, inputs, results := canonjson.Array{}, canonjson.Array{}, canonjson.Array{}
	for _, id := range ids {
		l := live[id]
		caps = append(caps, object(
			member{Key: "capabilityId", Value: str(id)},
			member{Key: "status", Value: str(StatusPassed)},
			member{Key: "isError", Value: boolean(false)},
			member{Key: "inputHash", Value: str(l.InputHash)},
			member{Key: "resultHash", Value: str(l.ResultHash)},
		))
		inputs = append(inputs, object(member{Key: "capabilityId", Value: str(id)}, member{Key: "inputHash", Value: str(l.InputHash)}))
		results = append(results, object(member{Key: "capabilityId", Value: str(id)}, member{Key: "resultHash", Value: str(l.ResultHash)}))
	}
	status := "partial"
	if !slices.ContainsFunc(b.Capabilities, func(c CapabilityBase) bool { _, ok := live[c.ID]; return !ok }) {
		status = StatusPassed
	}
	return object(
		member{Key: "schemaVersion", Value: str("vNext")},
		member{Key: "status", Value: str(status)},
		member{Key: "isError", Value: boolean(false)},
		member{Key: "inputHash", Value: str(canonjson.Digest(inputs))},
		member{Key: "resultHash", Value: str(canonjson.Digest(results))},
		member{Key: "capabilities", Value: caps},
	)
}

// ReasonUnattested is the reason approval-audit.json gives a row whose
// decision rests on evidence no tag of the evidence key vouches for (a
// hand-made verification report, another machine's key): its own checks,
// or the package-wide ones, are not all attested. It blocks nothing: the
// row's decision is the evidence's; the reason says what it rests on.
const ReasonUnattested = "evidence-unattested"

// Approval returns approval-audit.json: the package's decision, each row's
// decision with its reasons and the issues its review items point at, and
// the hash of every file it approves (all but itself and the manifest).
// unattested are the rows (attest scopes, attest.PackageScope for the
// package-wide checks) whose checks verification-attestation.json does not
// all cover: their reasons say so (ReasonUnattested), a workflow's in a
// reasons list of its own.
func Approval(m *Matrix, h Hashes, unattested []string) *canonjson.Object {
	resting := func(scope string) bool {
		return slices.Contains(unattested, scope) || slices.Contains(unattested, attest.PackageScope)
	}
	caps := canonjson.Array{}
	for i := range m.Capabilities {
		r := &m.Capabilities[i]
		reasons := r.Reasons
		if resting(attest.CapabilityScope(r.ID)) {
			reasons = append(slices.Clip(reasons), ReasonUnattested)
		}
		caps = append(caps, object(
			member{Key: "capabilityId", Value: str(r.ID)},
			member{Key: "decision", Value: str(r.Decision)},
			member{Key: "reasons", Value: canonjson.Strings(reasons)},
			member{Key: "issueRefs", Value: canonjson.Strings(r.IssueRefs())},
		))
	}
	workflows := canonjson.Array{}
	for i := range m.Workflows {
		r := &m.Workflows[i]
		w := object(
			member{Key: "workflowId", Value: str(r.ID)},
			member{Key: "decision", Value: str(r.Decision)},
		)
		if resting(attest.WorkflowScope(r.ID)) {
			w.Set("reasons", canonjson.Strings([]string{ReasonUnattested}))
		}
		workflows = append(workflows, w)
	}
	artifacts := canonjson.Array{}
	for _, p := range h.paths(ApprovalFile, ManifestFile) {
		artifacts = append(artifacts, object(
			member{Key: "relativePath", Value: str(p)},
			member{Key: "sha256", Value: str(h[p])},
		))
	}
	return object(
		member{Key: "schemaVersion", Value: str("vNext")},
		member{Key: "decision", Value: str(m.Decision)},
		member{Key: "preflightStatus", Value: str(StatusPassed)},
		member{Key: "verificationMatrixRef", Value: str(MatrixFile)},
		member{Key: "capabilities", Value: caps},
		member{Key: "workflows", Value: workflows},
		member{Key: "artifacts", Value: artifacts},
	)
}

// Manifest returns export-manifest.json: every file of the package but
// itself, with its hash. sanitized is true because finalize writes the
// manifest only after the contamination gate found nothing.
func Manifest(h Hashes) *canonjson.Object {
	files := canonjson.Array{}
	for _, p := range h.paths(ManifestFile) {
		files = append(files, object(
			member{Key: "relativePath", Value: str(p)},
			member{Key: "sha256", Value: str(h[p])},
			member{Key: "sanitized", Value: boolean(true)},
		))
	}
	return object(
		member{Key: "schemaVersion", Value: str("v0")},
		member{Key: "files", Value: files},
	)
}
