package contractcheck_test

import (
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
)

// sourceTree writes the reference topology's four sources under a new
// directory, with a file for every evidence locator that declares the
// locator's symbol, and returns it.
func sourceTree(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	dirs := map[string]string{"sample-client": "client", "sample-service": "service", "sample-contract": "contract", "sample-tests": "tests"}
	c, _ := contract.DecodeContract(contract.ContractFile, contracttest.Reference(t, contract.ContractFile))
	files := map[string]string{}
	for _, e := range c.EvidenceCatalog {
		l := contract.ParseLocator(e.Locator)
		p := filepath.Join(base, "sources", dirs[e.SourceID], filepath.FromSlash(l.Path))
		files[p] += "function " + l.Symbol + "() {\n  return 1;\n}\n"
	}
	if len(files) != 9 {
		t.Fatalf("the reference names %d files, want 9", len(files))
	}
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base
}

// mapAll maps every reference source to its directory under base.
func mapAll(t *testing.T, base string) contract.Sources {
	var s contract.Sources
	for _, m := range []string{"sample-client=client", "sample-service=service", "sample-contract=contract", "sample-tests=tests"} {
		id, dir, _ := cut(m)
		if err := s.AddMapping(id + "=" + filepath.Join(base, "sources", dir)); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func cut(s string) (string, string, bool) {
	for i := range s {
		if s[i] == '=' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// resolutionRules are the rules only a source tree can make fire; each has
// a test below.
var resolutionRules = []string{
	"EVIDENCE_NOT_CHECKED", "EVIDENCE_FILE_MISSING", "EVIDENCE_ESCAPES_ROOT",
	"TOPOLOGY_SOURCE_MAP_UNKNOWN", "TOPOLOGY_SOURCE_UNMAPPED", "TOPOLOGY_ROOT_MISSING", "TOPOLOGY_ROOT_SHARED",
	"EVIDENCE_SYMBOL_VANISHED", "EVIDENCE_SYMBOL_MOVED", "EVIDENCE_SYMBOL_NOT_LOCATED", "EVIDENCE_LINE_BEYOND_FILE",
}

func TestWithoutSourcesResolutionIsNotChecked(t *testing.T) {
	l := check(t, "", contractcheck.Options{})
	if !has(l, "EVIDENCE_NOT_CHECKED", cc, "/evidenceCatalog") {
		t.Fatalf("no not-checked finding:\n%s", contracttest.Findings(l))
	}
	if l.HasErrors() || l.Len() != 1 {
		t.Errorf("want exactly the info finding:\n%s", contracttest.Findings(l))
	}
}

func TestResolvedSourcesPass(t *testing.T) {
	base := sourceTree(t)
	for name, src := range map[string]contract.Sources{
		"root": {Base: base},
		"map":  mapAll(t, base),
	} {
		t.Run(name, func(t *testing.T) {
			if l := check(t, "", contractcheck.Options{Sources: src}); l.Len() != 0 {
				t.Errorf("unexpected findings:\n%s", contracttest.Findings(l))
			}
		})
	}
}

func TestMissingEvidenceFile(t *testing.T) {
	base := sourceTree(t)
	if err := os.Remove(filepath.Join(base, "sources/tests/sample-request/workflow")); err != nil {
		t.Fatal(err)
	}
	l := check(t, "", contractcheck.Options{Sources: contract.Sources{Base: base}})
	if !has(l, "EVIDENCE_FILE_MISSING", cc, "/evidenceCatalog/25/locator") {
		t.Errorf("want EVIDENCE_FILE_MISSING:\n%s", contracttest.Findings(l))
	}
}

func TestEvidenceThatIsNotARegularFile(t *testing.T) {
	base := sourceTree(t)
	p := filepath.Join(base, "sources/tests/sample-request/workflow")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	l := check(t, "", contractcheck.Options{Sources: contract.Sources{Base: base}})
	if !has(l, "EVIDENCE_FILE_MISSING", cc, "/evidenceCatalog/25/locator") {
		t.Errorf("want EVIDENCE_FILE_MISSING for a FIFO:\n%s", contracttest.Findings(l))
	}
}

func TestEvidenceEscapingItsRoot(t *testing.T) {
	base := sourceTree(t)
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(base, "sources/tests/sample-request/workflow")
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, p); err != nil {
		t.Fatal(err)
	}
	l := check(t, "", contractcheck.Options{Sources: contract.Sources{Base: base}})
	if !has(l, "EVIDENCE_ESCAPES_ROOT", cc, "/evidenceCatalog/25/locator") {
		t.Errorf("want EVIDENCE_ESCAPES_ROOT:\n%s", contracttest.Findings(l))
	}
	// A link that stays inside the root is fine.
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("rules", filepath.Join(base, "sources/tests/sample-request/workflow")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "sources/tests/sample-request/rules"), []byte("def rejectBypassBeforeDispatch():\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if l := check(t, "", contractcheck.Options{Sources: contract.Sources{Base: base}}); l.Len() != 0 {
		t.Errorf("a link inside the root was refused:\n%s", contracttest.Findings(l))
	}
}

func TestMissingSourceRoot(t *testing.T) {
	base := sourceTree(t)
	if err := os.RemoveAll(filepath.Join(base, "sources/contract")); err != nil {
		t.Fatal(err)
	}
	l := check(t, "", contractcheck.Options{Sources: contract.Sources{Base: base}})
	if !has(l, "TOPOLOGY_ROOT_MISSING", tf, "/sources/2/root") {
		t.Errorf("want TOPOLOGY_ROOT_MISSING:\n%s", contracttest.Findings(l))
	}
}

func TestSourcesSharingADirectory(t *testing.T) {
	base := sourceTree(t)
	src := mapAll(t, base)
	src.Map["sample-tests"] = src.Map["sample-client"]
	l := check(t, "", contractcheck.Options{Sources: src})
	if !has(l, "TOPOLOGY_ROOT_SHARED", tf, "/sources/3/root") {
		t.Errorf("want TOPOLOGY_ROOT_SHARED:\n%s", contracttest.Findings(l))
	}
}

func TestSourceMapNamesUnknownSource(t *testing.T) {
	base := sourceTree(t)
	src := mapAll(t, base)
	src.Map["sample-desktop"] = base
	l := check(t, "", contractcheck.Options{Sources: src})
	if !has(l, "TOPOLOGY_SOURCE_MAP_UNKNOWN", tf, "/sources") {
		t.Errorf("want TOPOLOGY_SOURCE_MAP_UNKNOWN:\n%s", contracttest.Findings(l))
	}
}

func TestAvailableSourceLeftUnmapped(t *testing.T) {
	base := sourceTree(t)
	src := mapAll(t, base)
	delete(src.Map, "sample-service")
	src.Base = base // a base does not excuse a map that leaves a source out
	l := check(t, "", contractcheck.Options{Sources: src})
	if !has(l, "TOPOLOGY_SOURCE_UNMAPPED", tf, "/sources/1/sourceId") {
		t.Errorf("want TOPOLOGY_SOURCE_UNMAPPED:\n%s", contracttest.Findings(l))
	}
}
