package pipeline

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/code2skill/code2skill/internal/derive"
)

func TestTreeDigest(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.txt"), "a")
	writeFile(t, filepath.Join(root, "a", "b.txt"), "b")
	base := treeOf(t, root)

	// Skipped directories and files do not count.
	writeFile(t, filepath.Join(root, "node_modules", "x.js"), "x")
	writeFile(t, filepath.Join(root, ".git", "HEAD"), "ref")
	writeFile(t, filepath.Join(root, ".DS_Store"), "junk")
	if got := treeOf(t, root); got != base {
		t.Error("node_modules, .git or .DS_Store changed the digest")
	}
	// Content, names and links count; what a link points to does not.
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "one")
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	linked := treeOf(t, root)
	if linked == base {
		t.Error("a new link did not change the digest")
	}
	writeFile(t, filepath.Join(outside, "secret.txt"), "two")
	if got := treeOf(t, root); got != linked {
		t.Error("the digest followed a directory link")
	}
	writeFile(t, filepath.Join(root, "a", "b.txt"), "B")
	if got := treeOf(t, root); got == linked {
		t.Error("a content change did not change the digest")
	}
	// Excluded directories (the package inside a source) do not count.
	writeFile(t, filepath.Join(root, "pkg", "c.txt"), "c")
	with := treeOf(t, root)
	d, err := treeDigest(root, []string{filepath.Join(root, "pkg")}, nil)
	if err != nil || d == with {
		t.Errorf("excluding pkg/: %v, same digest %v", err, d == with)
	}
	if d, _ := treeDigest(filepath.Join(root, "nowhere"), nil, nil); d != digestMissing {
		t.Errorf("a missing root digests to %q", d)
	}
}

func TestTreeDigestIgnoresFIFOs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.txt"), "a")
	base := treeOf(t, root)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if got := treeOf(t, root); got != base { // and it returned: the FIFO was not opened
		t.Error("a FIFO changed the digest")
	}
	if d, err := fileDigest(filepath.Join(root, "pipe")); err != nil || d != "not-a-regular-file" {
		t.Errorf("fileDigest of a FIFO = %q, %v", d, err)
	}
}

func TestTreeDigestBoundsTheFileCount(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		writeFile(t, filepath.Join(root, n), n)
	}
	old := maxTreeFiles
	maxTreeFiles = 2
	defer func() { maxTreeFiles = old }()
	if _, err := treeDigest(root, nil, nil); err == nil {
		t.Error("a tree larger than the bound was hashed")
	}
}

func TestDocumentDigestNormalizesMarkers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "SKILL.md")
	marker := func(c string) string { return derive.MarkerPrefix + strings64(c) + derive.MarkerSuffix }
	writeFile(t, path, "# A\n"+marker("a")+"\ntext\n")
	one, _ := documentDigest(path)
	writeFile(t, path, "# A\n"+marker("b")+"\ntext\n")
	two, _ := documentDigest(path)
	writeFile(t, path, "# A\n"+marker("b")+"\nother text\n")
	three, _ := documentDigest(path)
	if one != two || two == three {
		t.Errorf("marker change: %v; prose change: %v", one == two, two != three)
	}
}

func strings64(c string) string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c[0]
	}
	return string(b)
}

func TestFingerprintIgnoresOrder(t *testing.T) {
	t.Parallel()
	a, _ := fingerprint([]input{{"b", "2"}, {"a", "1"}})
	b, _ := fingerprint([]input{{"a", "1"}, {"b", "2"}})
	c, _ := fingerprint([]input{{"a", "1"}, {"b", "3"}})
	if a != b || a == c {
		t.Errorf("fingerprints: same inputs %v, changed input %v", a == b, a != c)
	}
}
