package layers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestRepository checks code2skill itself against its rules.
func TestRepository(t *testing.T) {
	module, pkgs, err := Load(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if module != "github.com/code2skill/code2skill" {
		t.Fatalf("module = %q", module)
	}
	// Guard against a walk that finds nothing and so passes: the packages
	// at both ends of the house must be there, with the imports between.
	found := map[string]bool{}
	imports := 0
	for _, p := range pkgs {
		found[p.Path] = true
		for _, f := range p.Files {
			imports += len(f.Imports)
		}
	}
	for _, want := range []string{"", "cmd/code2skill", "internal/cli", "internal/sandbox", "internal/diag"} {
		if !found[want] {
			t.Errorf("Load did not find package %q", want)
		}
	}
	if len(pkgs) < 50 || imports < 1000 {
		t.Errorf("Load found %d packages with %d imports; expected the whole module", len(pkgs), imports)
	}
	for _, v := range Check(Code2skill, module, pkgs) {
		t.Error(v)
	}
}

// fixtureRules are the rules the fixtures in testdata are checked against.
var fixtureRules = Rules{
	Floors: []Floor{
		{Name: "low", Packages: []string{"", "lib"}},
		{Name: "middle", Packages: []string{"run", "proc"}},
		{Name: "high", Packages: []string{"app"}},
	},
	TestSupport:       []string{"helper"},
	ProcessStarter:    "run",
	ProcessExceptions: map[string]string{"helper": "a test helper"},
	JSONCodec:         "lib",
	JSONExceptions:    map[string]string{"proc": "foreign code", "app/recorder.go": "compiled elsewhere"},
}

// TestFixtures checks each testdata/*.txtar module against fixtureRules:
// the archive's "want" file lists the violations, one a line.
func TestFixtures(t *testing.T) {
	archives, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(archives) == 0 {
		t.Fatal("no fixtures")
	}
	for _, name := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(name)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			var want []string
			for _, f := range a.Files {
				if f.Name == "want" {
					want = strings.Split(strings.TrimSpace(string(f.Data)), "\n")
					if want[0] == "" {
						want = nil
					}
					continue
				}
				path := filepath.Join(dir, filepath.FromSlash(f.Name))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			module, pkgs, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, v := range Check(fixtureRules, module, pkgs) {
				got = append(got, v.String())
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}

func TestListedTwice(t *testing.T) {
	r := Rules{Floors: []Floor{
		{Name: "low", Packages: []string{"lib"}},
		{Name: "high", Packages: []string{"lib"}},
	}, TestSupport: []string{"lib"}}
	pkgs := []Package{{Path: "lib"}}
	var got []string
	for _, v := range Check(r, "example.com/m", pkgs) {
		got = append(got, v.String())
	}
	want := []string{
		`lib: listed twice, on floor "low" and on floor "high"`,
		`lib: listed twice, on floor "low" and on test support`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := Load(dir); err == nil {
		t.Error("Load without go.mod: no error")
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.go"), []byte("package m\nimport (\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "bad.go") {
		t.Errorf("Load of a file that does not parse: err = %v, want one naming bad.go", err)
	}
}

// TestDocumentedLayout checks that docs/layout.md lists every package
// under the floor it stands on.
func TestDocumentedLayout(t *testing.T) {
	root := filepath.Join("..", "..")
	page, err := os.ReadFile(filepath.Join(root, "docs", "layout.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(page), "\n```\n")
	if !ok {
		t.Fatal("docs/layout.md has no listing")
	}
	block, _, _ = strings.Cut(block, "\n```\n")
	_, pkgs, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range CheckLayout(Code2skill, block, pkgs) {
		t.Errorf("docs/layout.md: %s", msg)
	}
}

func TestCheckLayout(t *testing.T) {
	r := fixtureRules
	r.Floors = append([]Floor(nil), r.Floors...)
	r.Floors[2].Packages = []string{"app", "app/sub"}
	pkgs := []Package{{Path: ""}, {Path: "lib"}, {Path: "run"}, {Path: "proc"}, {Path: "app"}, {Path: "app/sub"}, {Path: "helper"}}
	const good = `
[high]
app/         the app, and app/sub below it
[middle]
run/         runs
proc/        processes
[low]
m.go         the root package
lib/         a library
docs/        not a package: may stand anywhere
[test support]
helper/      for tests
[not Go]
bench/run    benchmarks
`
	if got := CheckLayout(r, good, pkgs); len(got) != 0 {
		t.Errorf("CheckLayout(good) = %q, want nothing", got)
	}
	const bad = `
[middle]
run/         runs
app/         the app, on the wrong floor
[high]
[low]
lib/
[test support]
helper/
`
	want := []string{
		`app/ is listed under [middle]; it stands on high`,
		`sections are [middle] [high] [low] [test support]; want [high] [middle] [low] [test support] first`,
		`the module's root package is not listed under [low]`,
		`proc is not listed under [middle]`,
		`app is not listed under [high]`,
		`app/sub is not listed under [high]`,
	}
	if diff := cmp.Diff(want, CheckLayout(r, bad, pkgs)); diff != "" {
		t.Errorf("CheckLayout(bad) (-want +got):\n%s", diff)
	}
}
