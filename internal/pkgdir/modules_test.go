//go:build unix

package pkgdir

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// project is a workspace: project/node_modules holds the hoisted packages
// and the workspace links; the package run is project/packages/pkg.
func project(t *testing.T) (root, pkg string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pkg = filepath.Join(root, "packages", "pkg")
	write(t, root, map[string]string{
		"package.json":                         `{"name": "self"}`,
		"node_modules/hoisted/package.json":    `{"name": "hoisted"}`,
		"packages/package.json":                `{"name": "pkgparent"}`,
		"packages/a/package.json":              `{"name": "ws-a"}`,
		"packages/b/package.json":              `{"name": "@org/b"}`,
		"packages/c/package.json":              `{"name": "other"}`,
		"packages/pkg/package.json":            `{"name": "pkg"}`,
		"packages/pkg/lib/index.mjs":           "export {}",
		"packages/pkg/node_modules/plain/x.js": "",
	})
	return root, pkg
}

func view(t *testing.T, dir string, above bool) *ModuleView {
	t.Helper()
	p, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p.ModuleView(above)
}

func findings(v *ModuleView) []string {
	var out []string
	for _, d := range v.Findings {
		where := d.File
		if where == "" {
			// Findings about directories above the package name them in
			// the message.
			where = strings.Fields(d.Message)[0]
		}
		out = append(out, d.Rule+" "+where)
	}
	slices.Sort(out)
	return out
}

// A link in the package's own node_modules may lead only where the child
// sees anyway; any other, at any depth, is refused and the package's code
// does not run. An npm package elsewhere is no exception: the package
// chose the link.
func TestModuleViewOwnLinks(t *testing.T) {
	root, pkg := project(t)
	outside := t.TempDir()
	write(t, outside, map[string]string{"evil/package.json": `{"name": "evil"}`})
	nm := filepath.Join(pkg, "node_modules")
	must(t, os.MkdirAll(filepath.Join(nm, "@scope"), 0o755))
	for link, target := range map[string]string{
		"alias":           "plain",                                        // inside
		"lib":             "../lib",                                       // inside the package
		"gone":            "nothing",                                      // dangling inside
		"hoisted":         filepath.Join(root, "node_modules", "hoisted"), // above: visible when above is
		"etc":             "/etc",
		"evil":            filepath.Join(outside, "evil"),
		"@scope/tmp":      "/tmp",
		"plain/deep":      "/root",
		"plain/away":      "../../../../../nowhere", // dangling outside
		"plain/sock-dir/": "/run",
	} {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(nm, link)), 0o755))
		must(t, os.Symlink(target, filepath.Join(nm, strings.TrimSuffix(link, "/"))))
	}
	want := []string{
		"PKG_MODULE_LINK_OUTSIDE node_modules/@scope/tmp",
		"PKG_MODULE_LINK_OUTSIDE node_modules/etc",
		"PKG_MODULE_LINK_OUTSIDE node_modules/evil",
		"PKG_MODULE_LINK_OUTSIDE node_modules/plain/away",
		"PKG_MODULE_LINK_OUTSIDE node_modules/plain/deep",
		"PKG_MODULE_LINK_OUTSIDE node_modules/plain/sock-dir",
	}
	v := view(t, pkg, true)
	if diff := cmp.Diff(want, findings(v)); diff != "" {
		t.Errorf("above: (-want +got)\n%s", diff)
	}
	if v.Runnable() || v.Own != nm || len(v.Linked) != 0 {
		t.Errorf("view = %+v", v)
	}
	// Without the directories above (a detached copy), a link into them
	// leaves what the child sees too.
	v = view(t, pkg, false)
	if diff := cmp.Diff(append(want, "PKG_MODULE_LINK_OUTSIDE node_modules/hoisted"), findings(v), cmpSorted); diff != "" {
		t.Errorf("not above: (-want +got)\n%s", diff)
	}
}

var cmpSorted = cmp.Transformer("sort", func(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
})

// A FIFO, socket or device in the package or its node_modules stops the
// run; plain packages run.
func TestModuleViewSpecialFiles(t *testing.T) {
	_, pkg := project(t)
	if v := view(t, pkg, false); !v.Runnable() || len(v.Findings) > 0 {
		t.Fatalf("a plain package: %v", findings(v))
	}
	must(t, os.Remove(filepath.Join(pkg, "package.json")))
	must(t, syscall.Mkfifo(filepath.Join(pkg, "package.json"), 0o644))
	must(t, syscall.Mkfifo(filepath.Join(pkg, "node_modules", "plain", "package.json"), 0o644))
	// A socket path must be short: listen from inside the directory.
	wd, _ := os.Getwd()
	must(t, os.Chdir(filepath.Join(pkg, "node_modules", "plain")))
	ln, err := net.Listen("unix", "agent.sock")
	os.Chdir(wd)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	v := view(t, pkg, false)
	want := []string{
		"PKG_SPECIAL_FILE node_modules/plain/agent.sock",
		"PKG_SPECIAL_FILE node_modules/plain/package.json",
		"PKG_SPECIAL_FILE package.json",
	}
	if diff := cmp.Diff(want, findings(v)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if v.Runnable() {
		t.Error("a package with a FIFO is runnable")
	}
}

// Above the package, a real node_modules directory is seen and a link in
// it followed only to an npm package of the project that names it.
func TestModuleViewAbove(t *testing.T) {
	root, pkg := project(t)
	nm := filepath.Join(root, "node_modules")
	must(t, os.MkdirAll(filepath.Join(nm, "@org"), 0o755))
	for link, target := range map[string]string{
		"ws-a":      "../packages/a",
		"@org/b":    "../../packages/b",
		"misnamed":  "../packages/c",
		"etc":       "/etc",
		"self":      "..",
		"pkgparent": "../packages",
		"mine":      "../packages/pkg",
		"gone":      "../packages/nothing",
	} {
		must(t, os.Symlink(target, filepath.Join(nm, link)))
	}
	// A node_modules above that is itself a link is not seen at all.
	must(t, os.Symlink("/etc", filepath.Join(root, "packages", "node_modules")))
	v := view(t, pkg, true)
	var above []string
	for _, d := range v.Above {
		if within(root, d) {
			above = append(above, d)
		}
	}
	if diff := cmp.Diff([]string{nm}, above); diff != "" {
		t.Errorf("Above (-want +got)\n%s", diff)
	}
	want := []string{filepath.Join(root, "packages", "b"), filepath.Join(root, "packages", "a")}
	if diff := cmp.Diff(want, v.Linked, cmpSorted); diff != "" {
		t.Errorf("Linked (-want +got)\n%s", diff)
	}
	var got []string
	for _, f := range findings(v) {
		if strings.Contains(f, root) {
			got = append(got, strings.ReplaceAll(f, root, "$ROOT"))
		}
	}
	wantFindings := []string{
		"PKG_MODULE_LINK_HIDDEN $ROOT/node_modules/etc",
		"PKG_MODULE_LINK_HIDDEN $ROOT/node_modules/misnamed",
		"PKG_MODULE_LINK_HIDDEN $ROOT/node_modules/pkgparent",
		"PKG_MODULE_LINK_HIDDEN $ROOT/node_modules/self",
		"PKG_MODULE_LINK_HIDDEN $ROOT/packages/node_modules",
	}
	if diff := cmp.Diff(wantFindings, got); diff != "" {
		t.Errorf("findings (-want +got)\n%s", diff)
	}
	if !v.Runnable() {
		t.Error("hidden links above the package stop it from running")
	}
}
