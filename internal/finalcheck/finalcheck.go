// Package finalcheck cross-checks the final files of a finalized vNext
// package: the part of strict validation (final mode) that recomputes,
// rather than trusts, what finalize recorded. The strict validator calls
// Check after its other rules; nothing here reads beyond the package.
//
// The final verification matrix records the evidence its statuses rest on:
// every executed check of each row, the phase failures and pending reasons
// among its reasons, and live-verification.json the digests of the live
// calls. Check rebuilds that evidence (verdict.FromMatrix), holds it to the
// same rules finalize did (verdict.CheckEvidence) and recomputes the matrix
// with the same code (verdict.Compute): any status, reason or delivery value
// that the recorded evidence does not give is a finding. The approval audit
// is recomputed from the recomputed matrix, and the receipt, the preflight
// report, the approval artifacts and the manifest from the package's current
// bytes.
//
// What the cross-check cannot see is the evidence behind each check (logs,
// vector results), which stays outside the portable package: finalize
// verified it against the evidence directory before writing, and tagged
// in verification-attestation.json, with the evidence key, each check it
// found an authenticated pipeline record for. With the key, the
// cross-check verifies those tags (CheckWith): a row whose status rests on
// a check without a tag that verifies here rests on evidence nobody
// vouched for, which is a warning, or an error when attestation is
// required (validate --require-attested); a tag that names a check but no
// longer verifies means the check was edited, which is always an error.
package finalcheck

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/verdict"
)

// Rules of the final-files cross-check.
var (
	RuleFileMissing = diag.Register("FINAL_FILE_MISSING", diag.Error, "a final file is missing: the package was not finalized, or a final file was removed")
	RuleReceipt     = diag.Register("FINAL_RECEIPT_MISMATCH", diag.Error, "the validation receipt does not record the current contract, bundle and draft")
	RulePreflight   = diag.Register("FINAL_PREFLIGHT_MISMATCH", diag.Error, "the preflight report is not passed, records a check that did not pass, or hashes files as they no longer are")
	RuleLive        = diag.Register("FINAL_LIVE_MISMATCH", diag.Error, "live-verification.json is malformed, names an undeclared capability or one capability twice, or its status and digests do not follow from its entries")
	RuleMatrix      = diag.Register("FINAL_MATRIX_MISMATCH", diag.Error, "the final verification matrix differs from what the evidence it records gives")
	RuleApproval    = diag.Register("FINAL_APPROVAL_MISMATCH", diag.Error, "the approval audit differs from the decisions the matrix gives, or hashes files as they no longer are")
	RuleManifest    = diag.Register("FINAL_MANIFEST_MISMATCH", diag.Error, "the export manifest does not list every file of the package with its current SHA-256")

	RuleUnattested        = diag.Register("FINAL_EVIDENCE_UNATTESTED", diag.Warning, "a row's status rests on a check whose evidence no tag of this machine's evidence key vouches for: a hand-made verification report, another machine's key, or no key here")
	RuleAttestationNeeded = diag.Register("FINAL_ATTESTATION_REQUIRED", diag.Error, "attestation is required (--require-attested) and a row's status rests on a check whose evidence no tag of the evidence key vouches for")
	RuleAttestation       = diag.Register("FINAL_ATTESTATION_INVALID", diag.Error, "verification-attestation.json names a check whose tag no longer verifies, or a check the final files do not record: the final files were edited after finalize attested them")
)

// Options of the cross-check.
type Options struct {
	// Attestation verifies verification-attestation.json with Key (nil
	// when there is no evidence key here, which leaves every row
	// unattested).
	Attestation bool
	Key         *attest.Key
	// Require makes a row resting on unattested evidence an error.
	Require bool
	// Views are the inputs' derived views when the caller has them; nil
	// derives them here.
	Views *derive.Derived
}

// Summary says what the attestation check found, and how far the final
// matrix was checked.
type Summary struct {
	// Checked: the attestations were checked.
	Checked bool `json:"-"`
	// Checks counts the checks that need an attestation; Attested those
	// whose tag verifies.
	Checks   int `json:"checks"`
	Attested int `json:"attested"`
	// Unattested are the rows (capability:<id>, workflow:<id>, package)
	// resting on at least one unattested check.
	Unattested []string `json:"unattested"`
	// Problem says why no check is attested, when none can be.
	Problem string `json:"problem,omitempty"`

	// MatrixChecked: the final matrix was recomputed from the evidence it
	// records and compared with the file (not when the live verification
	// could not be read first); MatrixFailed: that found errors.
	MatrixChecked bool `json:"-"`
	MatrixFailed  bool `json:"-"`
}

// maxDifferences is how many differences one final file reports: past a
// few, the file is simply stale.
const maxDifferences = 20

// Check cross-checks the final files of the package pkg, whose Portable Core
// inputs in passed derive.Check, leaving the attestations unchecked.
func Check(pkg *pkgdir.Package, in *derive.Inputs) *diag.List {
	l, _ := CheckWith(pkg, in, Options{})
	return l
}

// CheckWith is Check with options: with Attestation set it also verifies
// the attestations.
func CheckWith(pkg *pkgdir.Package, in *derive.Inputs, opts Options) (*diag.List, *Summary) {
	k := &checker{pkg: pkg, list: &diag.List{}}
	sum := &Summary{}
	docs := map[string]canonjson.Value{}
	for _, f := range verdict.FinalFiles {
		if !pkg.Has(f) {
			k.list.Add(RuleFileMissing.New(f, "%s is missing; run code2skill finalize", f))
			continue
		}
		data, err := pkg.ReadFile(f)
		if err != nil {
			k.list.Add(RuleFileMissing.New(f, "%s cannot be read: %v", f, err))
			continue
		}
		v, err := canonjson.Decode(data)
		if err != nil {
			if se, ok := err.(*canonjson.SyntaxError); ok {
				k.list.Add(se.Diagnostic(f))
			}
			continue
		}
		docs[f] = v
	}
	b := verdict.NewBaseline(in, opts.Views)
	k.hashes = verdict.Hashes{}
	for _, f := range pkg.Files() {
		data, err := pkg.ReadFile(f.Path)
		if err != nil {
			k.list.Add(RuleManifest.New(f.Path, "%s cannot be read to check its hash: %v", f.Path, err))
			continue
		}
		k.hashes[f.Path] = canonjson.SHA256(data)
	}

	if doc, ok := docs[verdict.ReceiptFile]; ok {
		k.compare(RuleReceipt, verdict.ReceiptFile, verdict.Receipt(b.ContractID, k.hashes), doc)
	}
	if doc, ok := docs[verdict.PreflightFile]; ok {
		k.preflight(doc)
	}
	live, liveOK := map[string]verdict.Live{}, false
	if doc, ok := docs[verdict.LiveFile]; ok {
		live, liveOK = k.live(b, doc)
	}
	var m *verdict.Matrix
	if doc, ok := docs[verdict.MatrixFile]; ok && liveOK {
		var found *diag.List
		m, found = k.matrix(b, doc, live, docs[verdict.PreflightFile])
		sum.MatrixChecked, sum.MatrixFailed = true, found.HasErrors()
		k.list.Merge(found)
	}
	if doc, ok := docs[verdict.ApprovalFile]; ok && m != nil {
		unattested := verdict.ClaimedUnattested(docs[verdict.AttestationFile],
			verdict.MatrixChecks(docs[verdict.MatrixFile], docs[verdict.PreflightFile]))
		k.compare(RuleApproval, verdict.ApprovalFile, verdict.Approval(m, k.hashes, unattested), doc)
	}
	if doc, ok := docs[verdict.ManifestFile]; ok {
		k.manifest(doc)
	}
	if doc, ok := docs[verdict.AttestationFile]; ok && opts.Attestation {
		k.attestation(b, doc, docs[verdict.MatrixFile], docs[verdict.PreflightFile], opts, sum)
	}
	return k.list, sum
}

// attestation verifies the tags of the checks the matrix and the preflight
// report record, and reports the rows that rest on unattested evidence.
func (k *checker) attestation(b *verdict.Baseline, doc, matrix, preflight canonjson.Value, opts Options, sum *Summary) {
	checks := verdict.MatrixChecks(matrix, preflight)
	v := verdict.VerifyAttestation(opts.Key, b.ContractID, verdict.CandidateDigest(k.hashes), doc, checks)
	sum.Checked, sum.Checks, sum.Problem = true, len(checks), v.Problem
	if v.Problem != "" && v.Pointer != "" && v.Pointer != "/keyId" {
		k.list.Add(RuleAttestation.New(verdict.AttestationFile, "%s; its tags do not vouch for the package as it is", v.Problem).AtPointer(v.Pointer))
	}
	for _, at := range v.Stray {
		k.list.Add(RuleAttestation.New(verdict.AttestationFile, "the entry names a check the final files do not record").AtPointer(at))
	}
	unattested := map[string][]string{}
	for i, c := range checks {
		switch v.Outcomes[i] {
		case verdict.CheckAttested:
			sum.Attested++
			continue
		case verdict.CheckTampered:
			k.list.Add(RuleAttestation.New(c.File, "check %q of %s was changed after finalize attested it: its tag no longer verifies", c.ID(), c.Scope).AtPointer(c.At))
		}
		unattested[c.Scope] = append(unattested[c.Scope], c.ID())
	}
	sum.Unattested = append([]string{}, verdict.UnattestedRows(checks, v.Outcomes)...)
	why := v.Problem
	if why == "" {
		why = "no tag of this machine's evidence key vouches for them"
	}
	rule := RuleUnattested
	if opts.Require {
		rule = RuleAttestationNeeded
	}
	for _, scope := range sum.Unattested {
		file := verdict.MatrixFile
		if scope == attest.PackageScope {
			file = verdict.PreflightFile
		}
		k.list.Add(rule.New(file, "%s rests on unattested evidence, %s: %s", scope, some(unattested[scope]), why))
	}
}

type checker struct {
	pkg    *pkgdir.Package
	list   *diag.List
	hashes verdict.Hashes
}

// compare reports where a final file differs from what it should hold.
func (k *checker) compare(rule *diag.Rule, file string, want *canonjson.Object, got canonjson.Value) {
	n := 0
	for d := range canonjson.Differences(want, got) {
		if n++; n > maxDifferences {
			break
		}
		k.list.Add(rule.New(file, "the file holds %s; the package gives %s", show(d.B), show(d.A)).AtPointer(d.Pointer))
	}
}

// preflight checks the preflight report: passed, every recorded check a
// passed executed check, and the hashes of the package as it is.
func (k *checker) preflight(doc canonjson.Value) {
	o, ok := doc.(*canonjson.Object)
	if !ok {
		k.list.Add(RulePreflight.New(verdict.PreflightFile, "the preflight report must be an object, got %s", canonjson.TypeName(doc)))
		return
	}
	checks, _ := o.Get("checks")
	list, ok := checks.(canonjson.Array)
	if !ok || len(list) == 0 {
		k.list.Add(RulePreflight.New(verdict.PreflightFile, "the preflight report must record the package-wide checks that passed").AtPointer("/checks"))
	}
	for i, c := range list {
		at := fmt.Sprintf("/checks/%d", i)
		if vs := verdict.ValidateCheck(c); len(vs) > 0 {
			k.list.Add(RulePreflight.New(verdict.PreflightFile, "not a valid executed check: %s", vs[0].Message).AtPointer(at + vs[0].Pointer))
			continue
		}
		if chk := verdict.DecodeCheck(c.(*canonjson.Object), at); !chk.Passed() {
			k.list.Add(RulePreflight.New(verdict.PreflightFile, "check %q did not pass (status %s, exit code %d)", chk.ID(), chk.Status, chk.ExitCode).AtPointer(at))
		}
	}
	k.compare(RulePreflight, verdict.PreflightFile, verdict.Preflight(list, k.hashes), doc)
}

// live reads live-verification.json into live evidence and checks that its
// status and digests follow from its entries. ok is false when the entries
// cannot be read, so that the matrix is not judged on unreadable evidence.
func (k *checker) live(b *verdict.Baseline, doc canonjson.Value) (map[string]verdict.Live, bool) {
	live := map[string]verdict.Live{}
	add := func(at, format string, args ...any) {
		k.list.Add(RuleLive.New(verdict.LiveFile, format, args...).AtPointer(at))
	}
	caps, _ := canonjson.Resolve(doc, "/capabilities")
	list, ok := caps.(canonjson.Array)
	if !ok {
		add("/capabilities", "capabilities must be a list, got %s", canonjson.TypeName(caps))
		return nil, false
	}
	ok = true
	for i, e := range list {
		at := fmt.Sprintf("/capabilities/%d", i)
		o, _ := e.(*canonjson.Object)
		id, in, res := str(o, "capabilityId"), str(o, "inputHash"), str(o, "resultHash")
		switch {
		case o == nil:
			add(at, "an entry must be an object")
		case !slices.ContainsFunc(b.Capabilities, func(c verdict.CapabilityBase) bool { return c.ID == id }):
			add(at+"/capabilityId", "capability %q is not declared by the contract", id)
		case live[id] != (verdict.Live{}):
			add(at+"/capabilityId", "capability %q has a second entry", id)
		case !isSHA256(in) || !isSHA256(res):
			add(at, "inputHash and resultHash must be SHA-256 digests")
		default:
			live[id] = verdict.Live{InputHash: in, ResultHash: res}
			continue
		}
		ok = false
	}
	if ok {
		k.compare(RuleLive, verdict.LiveFile, verdict.LiveVerification(b, live), doc)
	}
	return live, ok
}

// matrix rebuilds the evidence the final matrix records, recomputes the
// matrix from it and reports every difference. It returns the recomputed
// matrix, or nil when the recorded evidence is unreadable, and its findings.
func (k *checker) matrix(b *verdict.Baseline, doc canonjson.Value, live map[string]verdict.Live, preflight canonjson.Value) (*verdict.Matrix, *diag.List) {
	found := &diag.List{}
	ev, ds := verdict.FromMatrix(b, doc, live)
	found.Add(ds...)
	var global []verdict.Check
	if list, ok := canonjson.Resolve(preflight, "/checks"); ok {
		if arr, ok := list.(canonjson.Array); ok {
			global = verdict.DecodeChecks(arr, "/checks")
		}
	}
	ds2 := verdict.CheckEvidence(b, ev, global...)
	found.Add(ds2...)
	m, ds3 := verdict.Compute(b, ev)
	found.Add(ds3...)
	if len(ds) > 0 || len(ds2) > 0 || len(ds3) > 0 {
		return nil, found
	}
	n := 0
	for d := range canonjson.Differences(m.JSON(), doc) {
		if n++; n > maxDifferences {
			break
		}
		found.Add(RuleMatrix.New(verdict.MatrixFile,
			"the matrix holds %s; the checks, reasons and live evidence it records give %s", show(d.B), show(d.A)).AtPointer(d.Pointer))
	}
	return m, found
}

// manifest checks that the export manifest lists every file but itself,
// once, with its current SHA-256, as sanitized.
func (k *checker) manifest(doc canonjson.Value) {
	add := func(at, format string, args ...any) {
		k.list.Add(RuleManifest.New(verdict.ManifestFile, format, args...).AtPointer(at))
	}
	if v, _ := canonjson.Resolve(doc, "/schemaVersion"); v != canonjson.String("v0") {
		add("/schemaVersion", "schemaVersion must be \"v0\", got %s", show(v))
	}
	files, _ := canonjson.Resolve(doc, "/files")
	list, ok := files.(canonjson.Array)
	if !ok {
		add("/files", "files must be a list, got %s", canonjson.TypeName(files))
		return
	}
	listed := map[string]bool{}
	var order []string
	for i, e := range list {
		at := fmt.Sprintf("/files/%d", i)
		o, _ := e.(*canonjson.Object)
		p := str(o, "relativePath")
		sum, known := k.hashes[p]
		switch {
		case o == nil || p == "":
			add(at, "an entry must be an object with a relativePath")
			continue
		case !safePath(p):
			add(at+"/relativePath", "%q is not a safe path relative to the package", p)
			continue
		case listed[p]:
			add(at+"/relativePath", "%s is listed twice", p)
			continue
		case p == verdict.ManifestFile:
			add(at+"/relativePath", "the manifest does not list itself")
		case !known:
			add(at+"/relativePath", "%s is not a file of the package", p)
		case str(o, "sha256") != sum:
			add(at+"/sha256", "%s changed after finalization: its SHA-256 is %s", p, sum)
		}
		if v, _ := o.Get("sanitized"); v != canonjson.Bool(true) {
			add(at+"/sanitized", "sanitized must be true: finalize lists files only after the contamination gate passed")
		}
		listed[p] = true
		order = append(order, p)
	}
	for _, p := range slices.SortedFunc(maps.Keys(k.hashes), verdict.ComparePaths) {
		if p != verdict.ManifestFile && !listed[p] {
			add("/files", "%s is not listed; it was added after finalization", p)
		}
	}
	if !slices.IsSortedFunc(order, verdict.ComparePaths) {
		add("/files", "files must be listed in path order")
	}
}

// some names a few checks: all of up to three, else three and a count.
func some(ids []string) string {
	if len(ids) <= 3 {
		return fmt.Sprintf("%d check(s): %s", len(ids), strings.Join(ids, ", "))
	}
	return fmt.Sprintf("%d checks: %s and %d more", len(ids), strings.Join(ids[:3], ", "), len(ids)-3)
}

// show renders a value for a message, shortened.
func show(v canonjson.Value) string {
	if v == nil {
		return "nothing"
	}
	s := string(canonjson.DigestForm(v))
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

func str(o *canonjson.Object, key string) string {
	if o == nil {
		return ""
	}
	v, _ := o.Get(key)
	s, _ := v.(canonjson.String)
	return string(s)
}

func isSHA256(s string) bool {
	return len(s) == 64 && strings.Trim(s, "0123456789abcdef") == ""
}

// safePath reports whether p is a clean relative slash path inside the
// package.
func safePath(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// CheckDir cross-checks the final files of the package in dir: it opens
// the package, reads its Portable Core (unless core, already loaded, is
// given) and runs Check. Its signature is that of finalize's validator, so
// that the final-files cross-check alone can stand in for the strict
// validator. Problems with the package or its inputs are findings; err is
// for I/O failures.
func CheckDir(_ context.Context, dir string, core *derive.Core, _ contract.Sources) (*diag.List, error) {
	list := &diag.List{}
	pkg, ds, err := pkgdir.Open(dir)
	if err != nil {
		return nil, err
	}
	list.Add(ds...)
	if pkg == nil {
		return list, nil
	}
	if core == nil {
		core, _ = derive.Load(dir)
	}
	if err := core.Err(); err != nil {
		return nil, err
	}
	list.Merge(core.Findings())
	if list.HasErrors() {
		return list, nil
	}
	list.Merge(Check(pkg, core.Inputs))
	return list, nil
}
