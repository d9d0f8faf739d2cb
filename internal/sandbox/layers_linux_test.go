package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mounted reports whether the mode's level gives the child a mount
// namespace.
func (m mode) mounted() bool { return m.index < len(levels) && levels[m.index].view != viewHost }

// TestPromiseLayerDiscarded: a child writes into a Layer bind (a build
// cache) as into a writable directory, and nothing it wrote reaches the
// host's directory: neither a new entry nor a rewritten one. The layer is
// capped. Without a mount namespace such a bind is refused.
func TestPromiseLayerDiscarded(t *testing.T) {
	defer func(o string) { layerOptions = o }(layerOptions)
	layerOptions = "mode=0755,size=8m"
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			cache, _ := filepath.EvalSymlinks(t.TempDir())
			entry := filepath.Join(cache, "entry")
			if err := os.WriteFile(entry, []byte("compiled by the toolchain"), 0o644); err != nil {
				t.Fatal(err)
			}
			opts := Options{Binds: []Bind{{Source: cache, Writable: true, Layer: true}}}
			if !m.mounted() {
				_, err := Run(context.Background(), []string{"true"}, opts)
				if !errors.Is(err, ErrBindUnavailable) {
					t.Fatalf("a layer without a mount namespace: %v, want ErrBindUnavailable", err)
				}
				return
			}
			if out, _ := helper(t, opts, "write", entry); out != "WROTE" {
				t.Fatalf("rewriting an entry of the layer: %q", out)
			}
			if out, _ := helper(t, opts, "write", filepath.Join(cache, "new")); out != "WROTE" {
				t.Fatalf("writing into the layer: %q", out)
			}
			if out, _ := helper(t, opts, "fill-env", cache); !strings.HasPrefix(out, "FULL 7") && !strings.HasPrefix(out, "FULL 8") {
				t.Errorf("filling the layer: %q, want its cap to stop the writes", out)
			}
			if b, _ := os.ReadFile(entry); string(b) != "compiled by the toolchain" {
				t.Errorf("the child's write reached the host's entry: %q", b)
			}
			if entries, _ := os.ReadDir(cache); len(entries) != 1 {
				t.Errorf("the child's files reached the host's directory: %v", entries)
			}
		})
	}
}

// TestPromiseCollectCapped: a child writes into a Collect bind (a
// coverage directory) at most its cap, and what it left there is copied
// into the host's directory once it has ended, links left out. Without a
// mount namespace such a bind is refused.
func TestPromiseCollectCapped(t *testing.T) {
	defer func(o string) { collectOptions = o }(collectOptions)
	collectOptions = "mode=0755,size=8m"
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			dir, _ := filepath.EvalSymlinks(t.TempDir())
			opts := Options{Binds: []Bind{{Source: dir, Writable: true, Collect: true}}}
			if !m.mounted() {
				_, err := Run(context.Background(), []string{"true"}, opts)
				if !errors.Is(err, ErrBindUnavailable) {
					t.Fatalf("a collected directory without a mount namespace: %v, want ErrBindUnavailable", err)
				}
				return
			}
			if out, _ := helper(t, opts, "fill-env", dir); !strings.HasPrefix(out, "FULL 7") && !strings.HasPrefix(out, "FULL 8") {
				t.Errorf("filling the directory: %q, want its cap to stop the writes", out)
			}
			if out, _ := helper(t, opts, "write", filepath.Join(dir, "report.json")); out != "WROTE" {
				t.Fatalf("writing a report: %q", out)
			}
			b, err := os.ReadFile(filepath.Join(dir, "report.json"))
			if err != nil || string(b) != "written by the child\n" {
				t.Errorf("the report was not collected: %q, %v", b, err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("collected %v, want the report alone", entries)
			}
		})
	}
}

// TestPromiseHiddenFile: a hidden file (the evidence key) is never
// readable by a child: covered by an empty file where a mount namespace
// exists, confined (inside a bind) or not; where none exists, no child
// starts, and the refusal names the file.
func TestPromiseHiddenFile(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	key := filepath.Join(dir, "evidence.key")
	if err := os.WriteFile(key, []byte("0123456789abcdef\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	Hide(key, "the evidence key")
	defer func() {
		hiddenMu.Lock()
		delete(hidden, key)
		hiddenMu.Unlock()
	}()
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			opts := Options{Binds: []Bind{{Source: dir}}}
			if !m.mounted() {
				_, err := Run(context.Background(), []string{"true"}, Options{})
				if !errors.Is(err, ErrCannotHide) || !strings.Contains(err.Error(), "the evidence key") || !strings.Contains(err.Error(), key) {
					t.Fatalf("a child without a mount namespace: %v, want ErrCannotHide naming the key", err)
				}
				return
			}
			out, _ := helper(t, opts, "read", key)
			if strings.Contains(out, "0123456789abcdef") {
				t.Fatalf("the child read the hidden file: %s", out)
			}
			if out, _ := helper(t, opts, "read", filepath.Join(dir, "other")); !strings.HasPrefix(out, "DENIED") {
				t.Errorf("reading a missing file: %q", out)
			}
		})
	}
}

// TestPromiseAnonymousBind: an Anonymous bind shows its source read-only
// at its target, and the child's mount table names no host path of it.
// Without a mount namespace such a bind is refused.
func TestPromiseAnonymousBind(t *testing.T) {
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			src := filepath.Join(t.TempDir(), "original-package", "node_modules")
			if err := os.MkdirAll(src, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(src, "dep.js"), []byte("a dependency"), 0o644); err != nil {
				t.Fatal(err)
			}
			dst := filepath.Join(t.TempDir(), "copy", "node_modules")
			if err := os.MkdirAll(dst, 0o755); err != nil {
				t.Fatal(err)
			}
			opts := Options{Binds: []Bind{{Source: src, Target: dst, Anonymous: true}}}
			if !m.mounted() {
				_, err := Run(context.Background(), []string{"true"}, opts)
				if !errors.Is(err, ErrBindUnavailable) {
					t.Fatalf("an anonymous bind without a mount namespace: %v, want ErrBindUnavailable", err)
				}
				return
			}
			if out, _ := helper(t, opts, "read", filepath.Join(dst, "dep.js")); out != `READ "a dependency"` {
				t.Errorf("reading through the bind: %q", out)
			}
			if out, _ := helper(t, opts, "write", filepath.Join(dst, "dep.js")); !strings.HasPrefix(out, "DENIED") {
				t.Errorf("writing through the bind: %q", out)
			}
			if out, _ := helper(t, opts, "read", "/proc/self/mountinfo"); strings.Contains(out, "original-package") || !strings.Contains(out, "READ") {
				t.Errorf("the mount table names the source: %s", out)
			}
		})
	}
}
