//go:build linux

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// What a confined child sees of the host, read-only: the system's programs
// and libraries, and the few files of /etc that programs read to run (name
// resolution, certificates, time zone, the dynamic linker's cache). Entries
// the host lacks are left out.
var (
	systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/nix/store"}
	etcEntries = []string{
		"alternatives", "ca-certificates", "ca-certificates.conf", "crypto-policies", "gai.conf",
		"group", "host.conf", "hosts", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime",
		"mime.types", "nsswitch.conf", "os-release", "passwd", "pki", "resolv.conf", "ssl",
	}
	devices = []string{"full", "null", "random", "urandom", "zero"}
)

// Sizes of the child's own file systems.
const (
	tmpOptions = "mode=1777,size=64m"
	devOptions = "mode=0755,size=64k"
)

var (
	systemOnce   sync.Once
	systemMounts []mountSpec
	nodePrefix   string // the node installation's prefix, "" when node is not on PATH
)

// system returns the mounts every confined child gets, computed once.
func system() []mountSpec {
	systemOnce.Do(func() {
		var ms []mountSpec
		for _, d := range systemDirs {
			fi, err := os.Lstat(d)
			switch {
			case err != nil:
			case fi.Mode()&os.ModeSymlink != 0:
				if link, err := os.Readlink(d); err == nil {
					ms = append(ms, mountSpec{Kind: mountSymlink, Source: link, Target: d})
				}
			case fi.IsDir():
				ms = append(ms, mountSpec{Kind: mountBind, Source: d, Target: d})
			}
		}
		for _, e := range etcEntries {
			p := filepath.Join("/etc", e)
			if _, err := os.Stat(p); err == nil {
				ms = append(ms, mountSpec{Kind: mountBind, Source: p, Target: p})
			}
		}
		ms = append(ms, mountSpec{Kind: mountTmpfs, Target: "/dev", Options: devOptions, ReadOnlyAfter: true})
		for _, d := range devices {
			p := "/dev/" + d
			if _, err := os.Stat(p); err == nil {
				// Device files are written to (/dev/null); a read-only
				// mount does not stop that, but it is clearer not to ask.
				ms = append(ms, mountSpec{Kind: mountBind, Source: p, Target: p, Writable: true})
			}
		}
		for _, l := range [][2]string{{"fd", "/proc/self/fd"}, {"stdin", "/proc/self/fd/0"}, {"stdout", "/proc/self/fd/1"}, {"stderr", "/proc/self/fd/2"}} {
			ms = append(ms, mountSpec{Kind: mountSymlink, Source: l[1], Target: "/dev/" + l[0]})
		}
		ms = append(ms,
			mountSpec{Kind: mountProc, Target: "/proc"},
			mountSpec{Kind: mountTmpfs, Target: "/tmp", Options: tmpOptions},
		)
		systemMounts = ms
		if p, err := exec.LookPath("node"); err == nil {
			nodePrefix = installPrefix(p)
		}
	})
	return systemMounts
}

// installPrefix returns the directory a program was installed under: the
// parent of its bin directory (where node keeps its lib/node_modules), or
// its own directory. The program's symbolic links are resolved first.
func installPrefix(program string) string {
	if p, err := filepath.EvalSymlinks(program); err == nil {
		program = p
	}
	dir := filepath.Dir(program)
	if filepath.Base(dir) == "bin" {
		return filepath.Dir(dir)
	}
	return dir
}

// rootFor lists the mounts of a confined child's root: the system, the
// program's and node's installations when they lie elsewhere, HOME, the
// working directory and the caller's binds; parents before children.
func rootFor(w what) *rootConfig {
	ms := slices.Clone(system())
	visible := func(p string) bool {
		return slices.ContainsFunc(ms, func(m mountSpec) bool {
			return m.Kind == mountBind && within(m.Target, p)
		})
	}
	prefixes := []string{nodePrefix}
	if w.path != "" {
		prefixes = append(prefixes, installPrefix(w.path))
	}
	for _, prefix := range prefixes {
		if filepath.IsAbs(prefix) && prefix != "/" && !visible(prefix) {
			ms = append(ms, mountSpec{Kind: mountBind, Source: prefix, Target: prefix})
		}
	}
	ms = append(ms, mountSpec{Kind: mountBind, Source: w.home.dir, Target: w.home.dir, Writable: true})
	if w.dir != w.home.dir {
		ms = append(ms, mountSpec{Kind: mountBind, Source: w.dir, Target: w.dir, Writable: w.opts.WritableDir})
	}
	for _, b := range w.opts.Binds {
		ms = append(ms, mountSpec{Kind: mountBind, Source: b.Source, Target: b.target(), Writable: b.Writable})
	}
	slices.SortStableFunc(ms, func(a, b mountSpec) int { return depth(a.Target) - depth(b.Target) })
	return &rootConfig{Dir: w.home.root, Mounts: ms, Work: w.dir}
}

// depth counts the elements of a clean absolute path.
func depth(p string) int { return strings.Count(filepath.Clean(p), "/") }

// within reports whether p is dir or below it; both clean and absolute.
func within(dir, p string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
