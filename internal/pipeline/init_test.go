package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract/contracttest"
)

func TestInitFresh(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		create bool
	}{{"missing directory", false}, {"empty directory", true}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "new-feature")
			if tc.create {
				if err := os.Mkdir(dir, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			p := &Pipeline{Dir: dir, Now: newClock().now, Version: "test"}
			res, err := p.Init(InitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Mode != ModeFresh || res.Created == tc.create {
				t.Errorf("mode %s, created %v", res.Mode, res.Created)
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				t.Errorf("the package directory does not exist after init: %v", err)
			}
			if _, err := os.Stat(filepath.Join(DefaultStateDir(dir), ModeSummaryFile)); err != nil {
				t.Errorf("no mode summary: %v", err)
			}
			if len(res.Summary.NextSteps) == 0 {
				t.Error("a fresh package gets no next steps")
			}
		})
	}
}

func TestInitChangedOnly(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	before := treeOf(t, fx.dir)
	res := fx.init(InitOptions{})
	// First sight: every capability is new to the pipeline.
	if res.Mode != ModeChangedOnly || len(res.Summary.Added) != 2 || len(res.Summary.Unchanged) != 0 {
		t.Fatalf("first init: %+v", res.Summary)
	}
	if res = fx.init(InitOptions{}); len(res.Summary.Unchanged) != 2 {
		t.Fatalf("second init: %+v", res.Summary)
	}
	if after := treeOf(t, fx.dir); after != before {
		t.Error("init modified the package")
	}
	fx.run(RunOptions{})
	// Re-serialised in another order, no capability changed.
	path := filepath.Join(fx.dir, "canonical-contract.json")
	data, _ := os.ReadFile(path)
	writeFile(t, path, string(contracttest.Reorder(data, 5)))
	if res = fx.init(InitOptions{}); len(res.Summary.Unchanged) != 2 {
		t.Fatalf("after a reorder: %+v", res.Summary)
	}
	writeFile(t, path, string(data))
	// One capability's description changes, one is added, none removed.
	text := strings.Replace(string(data), `"capabilityId": "quote-voucher",`, `"capabilityId": "quote-voucher-renamed",`, 1)
	writeFile(t, path, text)
	res = fx.init(InitOptions{})
	if !slices.Equal(res.Summary.Added, []string{"quote-voucher-renamed"}) || !slices.Equal(res.Summary.Removed, []string{"quote-voucher"}) ||
		!slices.Equal(res.Summary.Unchanged, []string{"redeem-voucher"}) {
		t.Errorf("after a rename: %+v", res.Summary)
	}
}

func TestInitMigrate(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "legacy")
	writeFile(t, filepath.Join(dir, "capability-bundle.json"), `{"schemaVersion": "v1"}`)
	writeFile(t, filepath.Join(dir, "PAGE.md"), "# A page\n")
	writeFile(t, filepath.Join(dir, "workflow.json"), `{}`)
	writeFile(t, filepath.Join(dir, "export-profile.json"), `{"pageRoute": "/old"}`)
	before := treeOf(t, dir)
	p := &Pipeline{Dir: dir, Now: newClock().now, Version: "test", Steps: newFakes().steps(), Key: testKey}
	res, err := p.Init(InitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != ModeMigrate || res.MigrationAcknowledged || len(res.Summary.Files) != 4 {
		t.Fatalf("legacy package: %+v", res)
	}
	for _, want := range []string{"PAGE.md", "workflow.json", "pageRoute"} {
		if !slices.ContainsFunc(res.Summary.RequiredActions, func(a string) bool { return strings.Contains(a, want) }) {
			t.Errorf("required actions do not mention %s: %q", want, res.Summary.RequiredActions)
		}
	}
	_, err = p.Run(context.Background(), RunOptions{})
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "--acknowledge-migration") {
		t.Errorf("run before acknowledging: %v", err)
	}
	res, err = p.Init(InitOptions{AcknowledgeMigration: true})
	if err != nil || !res.MigrationAcknowledged {
		t.Fatalf("acknowledged init: %+v, %v", res, err)
	}
	// Now the run proceeds, and analyze says what is missing.
	rep, err := p.Run(context.Background(), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Stages[0].Status != StatusFailed {
		t.Errorf("analyze of a package without a contract: %+v", rep.Stages[0])
	}
	if after := treeOf(t, dir); after != before {
		t.Error("init or a failed analyze modified the package")
	}
}

func TestInitRefusesCorePackages(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "core")
	writeFile(t, filepath.Join(dir, "package.json"), `{"name": "core", "code2skill": {"profile": "core-export-v1"}}`)
	_, err := (&Pipeline{Dir: dir}).Init(InitOptions{})
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "core-export-v1") {
		t.Errorf("init of a core package: %v", err)
	}
}

func TestStateBelongsToOnePackage(t *testing.T) {
	t.Parallel()
	fx := newFixture(t)
	fx.init(InitOptions{})
	other := filepath.Join(fx.root, "other")
	writeFile(t, filepath.Join(other, "canonical-contract.json"), "{}")
	p := &Pipeline{Dir: other, StateDir: DefaultStateDir(fx.dir)}
	_, err := p.Init(InitOptions{})
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "belongs to the package") {
		t.Errorf("init of another package into a used state directory: %v", err)
	}
}

func treeOf(t *testing.T, dir string) string {
	t.Helper()
	d, err := treeDigest(dir, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
