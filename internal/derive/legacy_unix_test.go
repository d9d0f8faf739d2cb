//go:build unix

package derive_test

import (
	"errors"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
)

// A FIFO at the bundle's path makes a legacy package (whose bundle reading
// then refuses), never a hang.
func TestIsLegacyWithAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, derive.BundleFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := derive.IsLegacy(dir); err != nil || !got {
		t.Errorf("IsLegacy = %v, %v; want true", got, err)
	}
}

// Reading a legacy package reads the bundle as a regular, bounded file, and
// names the Portable Core inputs it ignores.
func TestReadLegacy(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, derive.BundleFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(touch(dir, contract.TopologyFile), touch(dir, contract.ExportProfileFile)); err != nil {
		t.Fatal(err)
	}
	b, l, err := derive.ReadLegacy(dir)
	if err != nil || b != nil {
		t.Fatalf("ReadLegacy = %v, %v", b, err)
	}
	var got []string
	for _, d := range l.Sorted() {
		got = append(got, d.Rule+" "+d.Severity.String()+" "+d.File)
	}
	want := []string{
		"PKG_INPUT_NOT_REGULAR error capability-bundle.json",
		"DERIVE_LEGACY_INPUT_IGNORED warning export-profile.json",
		"DERIVE_LEGACY_INPUT_IGNORED warning source-topology.json",
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("findings (-want +got):\n%s", cmp.Diff(want, got))
	}
}
