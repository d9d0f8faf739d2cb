package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// referencePackage writes the reference inputs into a fresh directory.
func referencePackage(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		if err := os.WriteFile(filepath.Join(dir, name), contracttest.Reference(t, name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runDeriveCmd(t *testing.T, args ...string) (code int, stdout string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), append([]string{"derive"}, args...), &Stdio{Out: &out, Err: &errb})
	return code, out.String()
}

func TestDeriveExitCodes(t *testing.T) {
	ok := referencePackage(t)

	findings := referencePackage(t)
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		contracttest.Set("/capabilities/0/toolName", `"List Kinds"`))
	if err := os.WriteFile(filepath.Join(findings, contract.ContractFile), data, 0o644); err != nil {
		t.Fatal(err)
	}

	ioFailure := referencePackage(t)
	if err := os.WriteFile(filepath.Join(ioFailure, "mcp-tool"), []byte("a file, not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"derived", []string{ok}, ExitPassed},
		{"findings", []string{findings}, ExitFindings},
		{"no package", nil, ExitUsage},
		{"not a directory", []string{filepath.Join(ok, contract.ContractFile)}, ExitFindings},
		{"no such directory", []string{filepath.Join(ok, "nowhere")}, ExitFindings},
		{"unknown flag", []string{"--force", ok}, ExitUsage},
		{"cannot write", []string{ioFailure}, ExitFailure},
		{"help", []string{"--help"}, ExitPassed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, out := runDeriveCmd(t, tc.args...); code != tc.want {
				t.Errorf("exit code %d, want %d; stdout:\n%s", code, tc.want, out)
			}
		})
	}

	// A failed write leaves the package exactly as it was: no view, no
	// temporary file.
	entries, err := os.ReadDir(ioFailure)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{contract.ContractFile, contract.ExportProfileFile, contract.HostProfileFile, "mcp-tool", contract.TopologyFile}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("after a failed write the package holds %v, want %v", names, want)
	}
}

// derive's output names no machine path: the files it lists are relative to
// the package.
func TestDeriveOutputIsRelative(t *testing.T) {
	dir := referencePackage(t)
	code, out := runDeriveCmd(t, dir)
	if code != ExitPassed {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if strings.Contains(out, dir) {
		t.Errorf("output contains the package's absolute path:\n%s", out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, "<!--") {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(line))); err != nil {
			t.Errorf("listed file %q was not written: %v", line, err)
		}
	}
}

// TestDeriveWritesNothingTooLargeToRead: derive never writes a view that
// no command would read back (pkgdir.MaxInputSize): it writes no view at
// all, and says which.
func TestDeriveWritesNothingTooLargeToRead(t *testing.T) {
	dir := t.TempDir()
	res := &deriveResult{}
	views := []derive.View{
		{Path: "small.json", Data: []byte("{}\n")},
		{Path: "huge.json", Data: bytes.Repeat([]byte(" "), pkgdir.MaxInputSize+1)},
	}
	if res.write(dir, views) || !res.failed {
		t.Fatal("a view larger than every command reads was written")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("views written: %v", entries)
	}
	if ds := res.list.Sorted(); len(ds) != 1 || ds[0].File != "huge.json" || !strings.Contains(ds[0].Message, "every command reads") {
		t.Errorf("findings %v", ds)
	}
}

// TestDeriveRewritesOnlyWhatChanged: a re-run of derive on an unchanged
// package replaces no view; a view whose bytes or mode changed is written
// again, and a view replaced by a symbolic link is refused as on the first
// run, even when the link's target holds the view's bytes.
func TestDeriveRewritesOnlyWhatChanged(t *testing.T) {
	dir := referencePackage(t)
	if code, out := runDeriveCmd(t, dir); code != ExitPassed {
		t.Fatalf("exit %d\n%s", code, out)
	}
	core, err := derive.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	views := core.Views().Files()
	path := func(v derive.View) string { return filepath.Join(dir, filepath.FromSlash(v.Path)) }
	stat := func(v derive.View) os.FileInfo {
		t.Helper()
		fi, err := os.Lstat(path(v))
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	before := make([]os.FileInfo, len(views))
	for i, v := range views {
		before[i] = stat(v)
	}
	if code, out := runDeriveCmd(t, dir); code != ExitPassed {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for i, v := range views {
		if !os.SameFile(before[i], stat(v)) {
			t.Errorf("%s was replaced on an unchanged package", v.Path)
		}
	}

	// One change at a time: any change writes every view.
	edited := views[0]
	if err := os.WriteFile(path(edited), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out := runDeriveCmd(t, dir); code != ExitPassed {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if data, _ := os.ReadFile(path(edited)); !bytes.Equal(data, edited.Data) {
		t.Errorf("the edited %s was not written again", edited.Path)
	}
	chmodded := views[1]
	if err := os.Chmod(path(chmodded), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, out := runDeriveCmd(t, dir); code != ExitPassed {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if m := stat(chmodded).Mode(); m != 0o644 {
		t.Errorf("%s has mode %v after derive, want -rw-r--r--", chmodded.Path, m)
	}

	linked := views[0]
	target := filepath.Join(t.TempDir(), "view")
	if err := os.WriteFile(target, linked.Data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path(linked)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path(linked)); err != nil {
		t.Fatal(err)
	}
	if code, out := runDeriveCmd(t, dir); code == ExitPassed {
		t.Errorf("derive passed with %s a symbolic link\n%s", linked.Path, out)
	}
	if fi := stat(linked); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the symbolic link %s was replaced", linked.Path)
	}
}
