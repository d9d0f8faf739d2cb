// Package finalizetest lays out, for tests, a package ready to be finalized
// and the verification evidence of it: the reference example's Portable
// Core and derived views, the runtime compile generates from it, stand-ins
// for the documents finalize only hashes, and, outside the package, a
// verification report in which everything passed, the evidence files its
// checks hash, and live evidence for every capability.
//
//	fx := finalizetest.New(t, verdicttest.FullHost...)
//	fx.Green.FailCheck(t, "capabilities", "save-sample-draft", "behavior")
//	fx.WriteEvidence(t) // after editing the report
//	res := finalize.Run(ctx, fx.Dir, fx.Options())
package finalizetest

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/finalcheck"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// Fixture is a package and its verification evidence.
type Fixture struct {
	Dir         string // the package
	Report      string // the verification report
	EvidenceDir string // the directory of the evidence files (the report's)
	LiveInput   string
	LiveResult  string
	Inputs      *derive.Inputs
	// Green is the report; edit it, then call WriteEvidence.
	Green *verdicttest.Green
}

// Standins are the documents finalize hashes but does not judge, written
// as short stand-ins: the strict validator judges the real ones.
var Standins = map[string]string{
	"SKILL.md":                      "---\nname: sample-request\ndescription: 示例申请的 Skill（替身文件，仅供 finalize 测试使用）。\n---\n\n# 示例申请\n\n能力说明见 `references/feature-context.md`。\n",
	"MCP.zh-CN.md":                  "# 示例申请 MCP 说明\n\n替身文件：finalize 只计算它的哈希。\n",
	"MCP-SETUP.md":                  "# MCP setup\n\nStand-in: finalize only hashes this file.\n",
	"references/feature-context.md": "# 示例申请功能背景\n\n替身文件：finalize 只计算它的哈希。\n",
}

// Artifacts writes the generated files of the reference package (Function
// core, MCP server, runtime, documents) into a package directory that
// already holds its Portable Core and derived views.
type Artifacts func(tb testing.TB, dir string)

// WriteStandins writes the compiled runtime (finalize requires it to be
// what compile generates) and the stand-ins: short documents that
// finalize hashes but, unlike the strict validator, does not judge.
func WriteStandins(tb testing.TB, dir string) {
	tb.Helper()
	reftest.WriteRuntime(tb, dir)
	for p, text := range Standins {
		Write(tb, filepath.Join(dir, filepath.FromSlash(p)), []byte(text))
	}
}

// New lays out the reference package with stand-ins (its Host profile
// patched by hostOps) and its green evidence in a new temporary
// directory: the package in <tmp>/sample-request, the evidence in
// <tmp>/verification.
func New(t testing.TB, hostOps ...contracttest.Op) *Fixture {
	t.Helper()
	return NewWith(t, WriteStandins, hostOps...)
}

// NewWith is New with the generated files that artifacts writes.
func NewWith(t testing.TB, artifacts Artifacts, hostOps ...contracttest.Op) *Fixture {
	t.Helper()
	root := t.TempDir()
	fx := &Fixture{
		Dir:         filepath.Join(root, reftest.Name),
		EvidenceDir: filepath.Join(root, "verification"),
		Inputs:      verdicttest.Inputs(t, hostOps...),
	}
	fx.Report = filepath.Join(fx.EvidenceDir, "verification-report.json")
	fx.LiveInput = filepath.Join(root, "live", "inputs.json")
	fx.LiveResult = filepath.Join(root, "live", "results.json")
	WritePackage(t, fx.Dir, hostOps...)
	artifacts(t, fx.Dir)
	fx.Green = verdicttest.NewGreen(t, fx.Inputs)
	fx.WriteEvidence(t)
	return fx
}

// WritePackage writes the Portable Core of the reference package into
// dir: the four inputs (the Host profile patched by hostOps), the derived
// views and the runtime assets.
func WritePackage(t testing.TB, dir string, hostOps ...contracttest.Op) {
	t.Helper()
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		data := contracttest.Reference(t, name)
		if name == contract.HostProfileFile && len(hostOps) > 0 {
			data = contracttest.Patch(t, data, hostOps...)
		}
		Write(t, filepath.Join(dir, name), data)
	}
	for _, v := range derive.Views(verdicttest.Inputs(t, hostOps...)) {
		Write(t, filepath.Join(dir, filepath.FromSlash(v.Path)), v.Data)
	}
	for _, a := range []assets.Asset{assets.ErrorNormalizer, assets.WorkflowGuard} {
		Write(t, filepath.Join(dir, a.Name()), a.Bytes())
	}
}

// WriteEvidence (re)writes the report, the evidence files its checks hash
// and the live evidence from Green.
func (fx *Fixture) WriteEvidence(t testing.TB) {
	t.Helper()
	Write(t, fx.Report, canonjson.Encode(fx.Green.Report))
	for name, data := range fx.Green.EvidenceFiles {
		Write(t, filepath.Join(fx.EvidenceDir, "logs", name), data)
	}
	entries := func(key string, payloads map[string]canonjson.Value) []byte {
		list := canonjson.Array{}
		for _, id := range slices.Sorted(maps.Keys(payloads)) {
			list = append(list, canonjson.NewObject(
				canonjson.Member{Key: "capabilityId", Value: canonjson.String(id)},
				canonjson.Member{Key: key, Value: payloads[id]},
			))
		}
		return canonjson.Encode(canonjson.NewObject(canonjson.Member{Key: "capabilities", Value: list}))
	}
	Write(t, fx.LiveInput, entries("input", fx.Green.Inputs))
	Write(t, fx.LiveResult, entries("result", fx.Green.Results))
}

// Options returns finalize options for the fixture, validated by the
// final-files cross-check.
func (fx *Fixture) Options() finalize.Options {
	return finalize.Options{
		Report:    fx.Report,
		Live:      []finalize.LivePair{{Input: fx.LiveInput, Result: fx.LiveResult}},
		Validator: CrossCheck,
	}
}

// CrossCheck is the final-files cross-check as finalize's validator.
var CrossCheck = finalize.Validator{Name: "the final-files cross-check", Validate: finalcheck.CheckDir}

// Write writes a file, creating its directory.
func Write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Snapshot returns every file under dir by slash path, for comparing a
// package before and after.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Attest writes, in the evidence directory's results/, a check record the
// pipeline could have written for every passed check of the report, tagged
// with key: the authenticated records that make finalize attest the
// checks. Checks records cannot express (an attachment proof) are left
// out. Call it after the last change to the package and to the report.
func (fx *Fixture) Attest(t testing.TB, key *attest.Key) {
	t.Helper()
	pkg, ds, err := pkgdir.Open(fx.Dir)
	if err != nil || len(ds) > 0 {
		t.Fatal(ds, err)
	}
	hashes := verdict.Hashes{}
	for _, f := range pkg.Files() {
		data, err := pkg.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		hashes[f.Path] = canonjson.SHA256(data)
	}
	candidate := verdict.CandidateDigest(hashes)
	n := 0
	write := func(capID, wfID, phase string, c canonjson.Value) {
		o := c.(*canonjson.Object)
		if o.Has("attachmentProof") || o.Has("layer") {
			return
		}
		get := func(k string) string { v, _ := o.Get(k); s, _ := v.(canonjson.String); return string(s) }
		code, _ := o.Get("exitCode")
		exit, _ := code.(canonjson.Number).Int64()
		rec := &attest.Record{CheckID: get("checkId"), Name: get("name"), Phase: phase, CapabilityID: capID, WorkflowID: wfID,
			Command: get("command"), ExitCode: int(exit), Status: get("status"), EvidenceHash: get("evidenceHash"),
			EvidencePath: "logs/unknown.log", HashScope: "persisted-log-file",
			ToolName: get("toolName"), InputHash: get("inputHash"), ResultHash: get("resultHash"),
			Stage: attest.StageOf(phase), ContractID: fx.Inputs.Contract.ContractID, CandidateDigest: candidate}
		if z, ok := o.Get("zeroExternalWrites"); ok {
			b := bool(z.(canonjson.Bool))
			rec.ZeroExternalWrites = &b
		}
		if err := key.SignRecord(rec); err != nil {
			t.Fatal(err)
		}
		data, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		n++
		Write(t, filepath.Join(fx.EvidenceDir, "results", fmt.Sprintf("%03d.json", n)), data)
	}
	r := fx.Green.Report
	checks, _ := r.Get("checks")
	for _, c := range checks.(canonjson.Array) {
		write("", "", attest.PhaseGlobal, c)
	}
	for _, part := range []struct{ key, idKey string }{{"capabilities", "capabilityId"}, {"workflows", "workflowId"}} {
		rows, _ := r.Get(part.key)
		for _, row := range rows.(canonjson.Array) {
			ro := row.(*canonjson.Object)
			idv, _ := ro.Get(part.idKey)
			id := string(idv.(canonjson.String))
			capID, wfID := id, ""
			if part.key == "workflows" {
				capID, wfID = "", id
			}
			for k, ph := range ro.All() {
				po, ok := ph.(*canonjson.Object)
				if !ok {
					continue
				}
				list, _ := po.Get("checks")
				for _, c := range list.(canonjson.Array) {
					write(capID, wfID, k, c)
				}
			}
		}
	}
}

// Writes are the reference capabilities that change state.
var Writes = []string{"upload-sample-attachment", "save-sample-draft", "submit-sample-request"}

// ReadsVerifiedOnly edits a green report into the evidence of a run that
// verified the reads end to end but did not run the writes for real: the
// writes' and workflows' runtime and Host phases did not run, and only the
// reads have live evidence. Under the reference Host profile the reads are
// approved and everything else awaits review.
func ReadsVerifiedOnly(t testing.TB, g *verdicttest.Green) {
	t.Helper()
	for _, id := range Writes {
		g.SetNotRun(t, "capabilities", id, "runtime")
		g.SetNotRun(t, "capabilities", id, "host")
		g.DropLive(id)
	}
	for _, id := range []string{"upload-sample-attachment", "submit-sample-request"} {
		g.SetNotRun(t, "workflows", id, "runtime")
		g.SetNotRun(t, "workflows", id, "host")
	}
}

// Files returns the files WriteEvidence writes that the report and the live
// evidence use, by path relative to the directory holding the report's
// directory: verification/… and live/….
func (fx *Fixture) Files() map[string][]byte {
	out := map[string][]byte{}
	root := filepath.Dir(fx.EvidenceDir)
	for _, p := range []string{fx.Report, fx.LiveInput, fx.LiveResult} {
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = data
	}
	// Only the evidence the report's checks hash.
	report := string(canonjson.Encode(fx.Green.Report))
	for name, data := range fx.Green.EvidenceFiles {
		if strings.Contains(report, canonjson.SHA256(data)) {
			out["verification/logs/"+name] = data
		}
	}
	return out
}
