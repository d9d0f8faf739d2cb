package pkgdir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/diag"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func rules(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Rule+" "+d.File)
	}
	return out
}

func TestOpenInventory(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"a.txt":                         "x",
		"a/b.mjs":                       "y",
		"tests/unit/x.test.mjs":         "",
		"tests/y.test.mjs":              "",
		"node_modules/zod/package.json": "{}",
		".git/HEAD":                     "",
	})
	p, ds, err := Open(root)
	if err != nil || len(ds) != 0 {
		t.Fatalf("Open: %v %v", err, ds)
	}
	var got []string
	for _, f := range p.Files() {
		got = append(got, f.Path)
	}
	want := []string{"a.txt", "a/b.mjs", "tests/unit/x.test.mjs", "tests/y.test.mjs"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got)\n%s", diff)
	}
	if !p.Has("a/b.mjs") || p.Has("node_modules/zod/package.json") || !p.HasDir("tests/unit") {
		t.Error("Has/HasDir wrong")
	}
	var tests []string
	for _, f := range p.Match("tests/**/*.test.mjs") {
		tests = append(tests, f.Path)
	}
	if diff := cmp.Diff([]string{"tests/unit/x.test.mjs", "tests/y.test.mjs"}, tests); diff != "" {
		t.Errorf("Match (-want +got)\n%s", diff)
	}
}

func TestOpenNotADirectory(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"f": ""})
	for path, rule := range map[string]*diag.Rule{
		filepath.Join(root, "missing"): RuleNotFound,
		filepath.Join(root, "f"):       RuleNotDirectory,
	} {
		p, ds, err := Open(path)
		if err != nil || p != nil || len(ds) != 1 || ds[0].Rule != rule.ID {
			t.Errorf("Open(%s) = %v, %v, %v; want one %s", path, p, ds, err, rule.ID)
		}
	}
}

func TestOpenSymlinks(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret.txt": "s"})
	root := t.TempDir()
	write(t, root, map[string]string{"real.txt": "r"})
	must(t, os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "escape-abs")))
	must(t, os.Symlink("../"+filepath.Base(outside), filepath.Join(root, "escape-rel")))
	must(t, os.Symlink("real.txt", filepath.Join(root, "inside")))
	must(t, os.Symlink("nothing-here", filepath.Join(root, "dangling")))
	p, ds, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"PKG_SYMLINK_BROKEN dangling",
		"PKG_SYMLINK_ESCAPES escape-abs",
		"PKG_SYMLINK_ESCAPES escape-rel",
	}
	got := rules(ds)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if p.Has("escape-abs") || p.Has("inside") {
		t.Error("symbolic links must not be inventoried as files")
	}
	if _, err := p.ReadFile("escape-abs"); err == nil {
		t.Error("ReadFile followed an escaping link")
	}
	if _, err := p.ReadFile("../" + filepath.Base(outside) + "/secret.txt"); err == nil {
		t.Error("ReadFile read outside the package")
	}
	if b, err := p.ReadFile("real.txt"); err != nil || string(b) != "r" {
		t.Errorf("ReadFile(real.txt) = %q, %v", b, err)
	}

	err = p.CopyTo(filepath.Join(t.TempDir(), "copy"), CopyOptions{})
	if err == nil || !strings.Contains(err.Error(), "leaves the package") {
		t.Errorf("CopyTo with an escaping link: %v", err)
	}
}

func TestCopyTo(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"mcp-tool/index.mjs":            "x",
		"node_modules/zod/package.json": "{}",
	})
	must(t, os.Chmod(filepath.Join(root, "mcp-tool/index.mjs"), 0o755))
	must(t, os.Symlink("zod", filepath.Join(root, "node_modules", "alias")))
	p, _, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	must(t, p.CopyTo(dst, CopyOptions{}))
	if _, err := os.Stat(filepath.Join(dst, "node_modules")); !os.IsNotExist(err) {
		t.Error("node_modules copied without NodeModules")
	}
	fi, err := os.Stat(filepath.Join(dst, "mcp-tool/index.mjs"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("copied file: %v %v", fi, err)
	}
	dst2 := filepath.Join(t.TempDir(), "copy")
	must(t, p.CopyTo(dst2, CopyOptions{NodeModules: true}))
	if b, err := os.ReadFile(filepath.Join(dst2, "node_modules", "alias", "package.json")); err != nil || string(b) != "{}" {
		t.Errorf("in-package link not recreated: %q %v", b, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestDetectProfile(t *testing.T) {
	for name, tc := range map[string]struct {
		files map[string]string
		want  Profile
	}{
		"core":                {map[string]string{"package.json": `{"code2skill":{"profile":"core-export-v1"}}`}, ProfileCore},
		"strict by manifest":  {map[string]string{"package.json": `{"code2skill":{"profile":"strict-export-v1"}}`}, ProfileStrict},
		"strict by contract":  {map[string]string{"package.json": `{"type":"module"}`, "canonical-contract.json": "{}"}, ProfileStrict},
		"declared wins":       {map[string]string{"package.json": `{"code2skill":{"profile":"core-export-v1"}}`, "canonical-contract.json": "{}"}, ProfileCore},
		"broken package.json": {map[string]string{"package.json": `{`}, ProfileUnknown},
		"nothing":             {map[string]string{"README.md": ""}, ProfileUnknown},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			write(t, root, tc.files)
			if got := DetectProfile(root); got != tc.want {
				t.Errorf("DetectProfile = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestOpenFileLimit(t *testing.T) {
	defer func(n int) { maxFiles = n }(maxFiles)
	maxFiles = 3
	root := t.TempDir()
	write(t, root, map[string]string{"a": "", "b": "", "c": ""})
	if _, ds, err := Open(root); err != nil || len(ds) != 0 {
		t.Fatalf("at the limit: %v %v", ds, err)
	}
	write(t, root, map[string]string{"d": ""})
	p, ds, err := Open(root)
	if err != nil || len(ds) != 1 || ds[0].Rule != RuleTooManyFiles.ID || len(p.Files()) != 3 {
		t.Fatalf("over the limit: %v %v, %d files", ds, err, len(p.Files()))
	}
}

func TestOpenUnreadableDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("permissions do not stop root")
	}
	root := t.TempDir()
	write(t, root, map[string]string{"locked/x.mjs": "", "ok.mjs": ""})
	must(t, os.Chmod(filepath.Join(root, "locked"), 0))
	defer os.Chmod(filepath.Join(root, "locked"), 0o755)
	p, ds, err := Open(root)
	if err != nil || len(ds) != 1 || ds[0].Rule != RuleUnreadable.ID || ds[0].File != "locked" || !p.Has("ok.mjs") {
		t.Fatalf("Open = %v, %v", ds, err)
	}
}
