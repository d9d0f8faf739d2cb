package verdict_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/verdict"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

func TestComparePaths(t *testing.T) {
	paths := []string{"a.b", "a/b", "a", "a/b/c", "B", "a-b", "function-core/x.json", "function-core.json"}
	slices.SortFunc(paths, verdict.ComparePaths)
	want := []string{"B", "a", "a/b", "a/b/c", "a-b", "a.b", "function-core/x.json", "function-core.json"}
	if !slices.Equal(paths, want) {
		t.Errorf("got %q\nwant %q", paths, want)
	}
}

// build finalizes the green reference evidence over a small file set.
func build(t *testing.T, live bool) ([]verdict.File, verdict.Hashes) {
	t.Helper()
	in := verdicttest.Inputs(t)
	b := verdicttest.Baseline(t, in)
	g := verdicttest.NewGreenFrom(t, b)
	if !live {
		for _, id := range verdicttest.IDs(b) {
			g.DropLive(id)
		}
	}
	ev := g.Evidence(t, b)
	m, _ := verdict.Compute(b, ev)
	h := verdict.Hashes{
		"canonical-contract.json":               strings.Repeat("1", 64),
		"capability-bundle.json":                strings.Repeat("2", 64),
		"capability-draft.json":                 strings.Repeat("3", 64),
		"function-core/index.mjs":               strings.Repeat("4", 64),
		"function-core.notes":                   strings.Repeat("5", 64),
		"SKILL.md":                              strings.Repeat("6", 64),
		verdict.MatrixFile:                      strings.Repeat("7", 64), // the baseline: replaced
		"references/nested/approval-audit.json": strings.Repeat("8", 64),
	}
	global, _ := g.Report.Get("checks")
	return verdict.Build(verdict.FilesInput{Baseline: b, Matrix: m, Live: ev.Live, GlobalChecks: global.(canonjson.Array), Hashes: h}), h
}

func TestBuild(t *testing.T) {
	files, h := build(t, true)
	var paths []string
	byPath := map[string][]byte{}
	for _, f := range files {
		paths = append(paths, f.Path)
		byPath[f.Path] = f.Data
	}
	if !slices.Equal(paths, verdict.FinalFiles) {
		t.Fatalf("files %v", paths)
	}
	again, _ := build(t, true)
	for i := range files {
		if !bytes.Equal(files[i].Data, again[i].Data) {
			t.Errorf("%s differs between two builds", files[i].Path)
		}
	}
	sha := func(p string) string { return canonjson.SHA256(byPath[p]) }
	get := func(p, pointer string) canonjson.Value {
		t.Helper()
		doc, err := canonjson.Decode(byPath[p])
		if err != nil {
			t.Fatal(err)
		}
		v, ok := canonjson.Resolve(doc, pointer)
		if !ok {
			t.Fatalf("%s#%s does not resolve", p, pointer)
		}
		return v
	}
	str := func(p, pointer string) string { return string(get(p, pointer).(canonjson.String)) }

	if str(verdict.ReceiptFile, "/canonicalContractHash") != h["canonical-contract.json"] ||
		str(verdict.ReceiptFile, "/bundleHash") != h["capability-bundle.json"] ||
		str(verdict.ReceiptFile, "/capabilityDraftHash") != h["capability-draft.json"] {
		t.Errorf("receipt: %s", byPath[verdict.ReceiptFile])
	}
	listed := func(p, pointer, key string) []string {
		var out []string
		for _, e := range get(p, pointer).(canonjson.Array) {
			v, _ := e.(*canonjson.Object).Get(key)
			out = append(out, string(v.(canonjson.String)))
		}
		return out
	}
	// The preflight report hashes the package as finalized, receipt
	// included, without the files written after it.
	var pre []string
	for k := range get(verdict.PreflightFile, "/generatedArtifactHashes").(*canonjson.Object).All() {
		pre = append(pre, k)
	}
	wantPre := []string{"SKILL.md", "canonical-contract.json", "capability-bundle.json", "capability-draft.json",
		"function-core/index.mjs", verdict.ReceiptFile, "function-core.notes", "references/nested/approval-audit.json"}
	if !slices.Equal(pre, wantPre) {
		t.Errorf("preflight hashes %q\nwant %q", pre, wantPre)
	}
	if got := str(verdict.PreflightFile, "/generatedArtifactHashes/"+strings.ReplaceAll(verdict.ReceiptFile, "/", "~1")); got != sha(verdict.ReceiptFile) {
		t.Errorf("preflight hash of the receipt %s, want %s", got, sha(verdict.ReceiptFile))
	}
	// The approval audit covers every file but itself and the manifest,
	// with the hashes of the files just computed.
	art := listed(verdict.ApprovalFile, "/artifacts", "relativePath")
	if slices.Contains(art, verdict.ApprovalFile) || slices.Contains(art, verdict.ManifestFile) ||
		!slices.Contains(art, verdict.MatrixFile) || !slices.Contains(art, verdict.LiveFile) || !slices.Contains(art, verdict.AttestationFile) || len(art) != len(wantPre)+4 {
		t.Errorf("approval artifacts %q", art)
	}
	if got := str(verdict.ApprovalFile, "/artifacts/"+itoa(slices.Index(art, verdict.MatrixFile))+"/sha256"); got != sha(verdict.MatrixFile) {
		t.Errorf("approval hashes the matrix as %s, want %s", got, sha(verdict.MatrixFile))
	}
	// The manifest covers every file but itself, in path-component order.
	man := listed(verdict.ManifestFile, "/files", "relativePath")
	if slices.Contains(man, verdict.ManifestFile) || len(man) != len(art)+1 || !slices.IsSortedFunc(man, verdict.ComparePaths) {
		t.Errorf("manifest %q", man)
	}
	if get(verdict.ManifestFile, "/files/0/sanitized") != canonjson.Bool(true) {
		t.Error("manifest entries must say sanitized")
	}
	// Every capability has live evidence: the live verification passed.
	if str(verdict.LiveFile, "/status") != "passed" || len(get(verdict.LiveFile, "/capabilities").(canonjson.Array)) != 5 {
		t.Errorf("live verification %s", byPath[verdict.LiveFile])
	}
	if str(verdict.ApprovalFile, "/decision") != "partially-approved" || str(verdict.MatrixFile, "/delivery/runtime/status") != "verified" {
		t.Errorf("decision %s, runtime %s", str(verdict.ApprovalFile, "/decision"), str(verdict.MatrixFile, "/delivery/runtime/status"))
	}
}

func TestBuildWithoutLiveEvidence(t *testing.T) {
	files, _ := build(t, false)
	for _, f := range files {
		switch f.Path {
		case verdict.LiveFile:
			doc, _ := canonjson.Decode(f.Data)
			status, _ := canonjson.Resolve(doc, "/status")
			in, _ := canonjson.Resolve(doc, "/inputHash")
			if status != canonjson.String("partial") || in != canonjson.String(canonjson.Digest(canonjson.Array{})) {
				t.Errorf("live verification without evidence: %s", f.Data)
			}
		case verdict.MatrixFile:
			if !bytes.Contains(f.Data, []byte(`"status": "not-run"`)) {
				t.Errorf("runtime delivery must be not-run: %s", f.Data)
			}
		}
	}
}

func itoa(i int) string { return strings.TrimSpace(string(canonjson.Encode(canonjson.Int(i)))) }
