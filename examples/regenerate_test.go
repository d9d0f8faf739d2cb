package examples

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/contractdiff"
	"github.com/code2skill/code2skill/internal/derive"
)

// driftedFiles are sample sources an unrelated edit shifts: three comment
// lines inserted above their declarations.
var driftedFiles = []string{"app/client/screen.go", "app/client/api.go", "app/server/quotes.go", "app/server/loans.go"}

const driftLines = 3

// The strict sample regenerated after its source drifted (lines inserted
// above the evidence) has the same marker and the same views: check-contract
// names every locator whose symbol moved, the Producer rewrites their line
// hints, and nothing derived changes; the diff sees no change either.
func TestRegeneratedAfterLineDriftKeepsItsMarker(t *testing.T) {
	pkg, src := strictSample(t)
	before := derivedViews(t, pkg)
	for _, f := range driftedFiles {
		p := filepath.Join(src, filepath.FromSlash(f))
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		pkgLine, rest, _ := bytes.Cut(data, []byte("\n"))
		drifted := bytes.Join([][]byte{pkgLine, []byte("\n// Unrelated notes\n// added above the code."), rest}, []byte("\n"))
		if err := os.WriteFile(p, drifted, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// check-contract, sources mapped: the moved symbols, and where they are.
	moved := checkSources(t, pkg, src)
	if len(moved) == 0 {
		t.Fatal("no EVIDENCE_SYMBOL_MOVED after the drift")
	}
	old := readContract(t, pkg)

	// The Producer regenerates, and the contract's line hints follow the
	// code: as check-contract suggests, or every hint of the drifted files
	// shifted. Either way nothing derived changes, and the diff is empty.
	for name, hint := range map[string]func(i int, l contract.Locator) (string, bool){
		"as suggested": func(i int, l contract.Locator) (string, bool) {
			s, ok := moved[fmt.Sprintf("/evidenceCatalog/%d/locator", i)]
			if ok && contract.StableLocator(s) != l.Path+"#"+l.Symbol {
				t.Errorf("check-contract suggests %s for %s#%s", s, l.Path, l.Symbol)
			}
			return s, ok
		},
		"all shifted": func(i int, l contract.Locator) (string, bool) {
			return fmt.Sprintf("%s:%d#%s", l.Path, l.Line+driftLines, l.Symbol), l.HasLine()
		},
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := contract.DecodeContract(contract.ContractFile, old)
			doc, _ := canonjson.Decode(old)
			for i, e := range c.EvidenceCatalog {
				l := contract.ParseLocator(e.Locator)
				if !drifted(e.SourceID, l.Path) {
					continue
				}
				if locator, ok := hint(i, l); ok {
					entry, _ := canonjson.Resolve(doc, fmt.Sprintf("/evidenceCatalog/%d", i))
					entry.(*canonjson.Object).Set("locator", canonjson.String(locator))
				}
			}
			regenerated := canonjson.Encode(doc)
			if bytes.Equal(regenerated, old) {
				t.Fatal("the regeneration changed no line hint")
			}
			if err := os.WriteFile(filepath.Join(pkg, contract.ContractFile), regenerated, 0o644); err != nil {
				t.Fatal(err)
			}
			if again := checkSources(t, pkg, src); len(again) != 0 {
				t.Errorf("locators still moved after the regeneration: %v", again)
			}
			after := derivedViews(t, pkg)
			for i := range before {
				if !bytes.Equal(before[i].Data, after[i].Data) {
					t.Errorf("%s changed with the line hints", before[i].Path)
				}
			}
			if derive.Marker(after) != derive.Marker(before) {
				t.Errorf("the marker changed: %s, was %s", derive.Marker(after), derive.Marker(before))
			}
			for _, doc := range []string{"SKILL.md", "MCP.zh-CN.md", "references/feature-context.md"} {
				data, err := os.ReadFile(filepath.Join(pkg, filepath.FromSlash(doc)))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(data), derive.Marker(after)) {
					t.Errorf("%s does not carry the regenerated package's marker", doc)
				}
			}
			d, err := contractdiff.Compare(decode(t, old), decode(t, regenerated))
			if err != nil || len(d.Changes) != 0 {
				t.Errorf("the diff of a line drift is not empty: %v %+v", err, d)
			}
		})
	}
}

func drifted(sourceID, path string) bool {
	dir := map[string]string{"sample-lending-client": "app/client", "sample-lending-service": "app/server"}[sourceID]
	for _, f := range driftedFiles {
		if f == dir+"/"+path {
			return true
		}
	}
	return false
}

// suggested is the locator an EVIDENCE_SYMBOL_MOVED finding tells to write.
var suggested = regexp.MustCompile(`write "([^"]+)"$`)

// checkSources runs check-contract on pkg with the sample's sources and
// returns the locators it reports moved, by pointer, with the locator it
// suggests. Any other finding fails the test.
func checkSources(t *testing.T, pkg, src string) map[string]string {
	t.Helper()
	loaded, err := derive.Load(pkg)
	in, l := loaded.Inputs, loaded.Read()
	if err != nil {
		t.Fatal(err)
	}
	l.Merge(contractcheck.Check(in, contractcheck.Options{Sources: contract.Sources{Base: src}}))
	moved := map[string]string{}
	for _, d := range l.Sorted() {
		m := suggested.FindStringSubmatch(d.Message)
		if d.Rule != contractcheck.RuleSymbolMoved.ID || m == nil {
			t.Errorf("%s", d)
			continue
		}
		moved[d.Pointer] = m[1]
	}
	return moved
}

func derivedViews(t *testing.T, pkg string) []derive.View {
	t.Helper()
	loaded, err := derive.Load(pkg)
	in, l := loaded.Inputs, loaded.Read()
	if err != nil || l.HasErrors() {
		t.Fatalf("%v %v", err, l.Sorted())
	}
	return derive.Views(in)
}

func readContract(t *testing.T, pkg string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(pkg, contract.ContractFile))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decode(t *testing.T, data []byte) *contract.Contract {
	t.Helper()
	c, l := contract.DecodeContract(contract.ContractFile, data)
	if l.HasErrors() {
		t.Fatal(l.Sorted())
	}
	return c
}
