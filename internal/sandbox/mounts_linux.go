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
// the host lacks are left out. Everything else a child sees is listed by
// rootFor: the program and node (programBinds), its HOME, its working
// directory and the caller's Binds.
var (
	systemDirs = []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/nix/store"}
	etcEntries = []string{
		"alternatives", "ca-certificates", "ca-certificates.conf", "crypto-policies", "gai.conf",
		"group", "host.conf", "hosts", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime",
		"mime.types", "nsswitch.conf", "os-release", "passwd", "pki", "resolv.conf", "ssl",
	}
	devices = []string{"full", "null", "random", "urandom", "zero"}
)

// Sizes of the child's own file systems. HOME (with TMPDIR inside it) and
// /tmp are each a tmpfs of 64 MiB: a child cannot fill the host's disk.
const (
	tmpOptions  = "mode=1777,size=64m"
	homeOptions = "mode=0700,size=64m"
	devOptions  = "mode=0755,size=64k"
)

var (
	systemOnce   sync.Once
	systemMounts []mountSpec
	nodePath     string // node's real path, "" when node is not on PATH
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
			// An entry that is a link (resolv.conf, localtime) is shown
			// as what it leads to, and only that.
			p := filepath.Join("/etc", e)
			if real, err := realPath(p); err == nil {
				ms = append(ms, mountSpec{Kind: mountBind, Source: real, Target: p})
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
			nodePath, _ = realPath(p)
		}
	})
	return systemMounts
}

// programBinds returns what of a program's installation a child needs to
// run it: the program file itself, the npm package it is a script of (npm's
// npm-cli.js) and, for node, the global packages installed beside it
// (lib/node_modules: npm, corepack). Never the whole prefix it was
// installed under, which may be a home directory (~/.local/bin/node).
func programBinds(program string) []string {
	if program == "" {
		return nil
	}
	out := []string{program}
	if dir := filepath.Dir(program); filepath.Base(dir) == "bin" && filepath.Base(program) == "node" {
		global := filepath.Join(filepath.Dir(dir), "lib", "node_modules")
		if fi, err := os.Lstat(global); err == nil && fi.IsDir() {
			out = append(out, global)
		}
	}
	if pkg := npmPackageOf(program); pkg != "" {
		out = append(out, pkg)
	}
	return out
}

// npmPackageOf returns the npm package directory a file lies in
// (…/node_modules/<name> or …/node_modules/@scope/<name>), or "".
func npmPackageOf(file string) string {
	parts := strings.Split(file, string(filepath.Separator))
	for j := len(parts) - 2; j >= 0; j-- {
		if parts[j] != "node_modules" {
			continue
		}
		n := j + 2
		if strings.HasPrefix(parts[j+1], "@") {
			n++
		}
		if n > len(parts)-1 {
			return "" // the file is not inside the package's directory
		}
		return strings.Join(parts[:n], string(filepath.Separator))
	}
	return ""
}

// homeMount is the child's HOME: a capped tmpfs holding TMPDIR.
func homeMount(dir string) mountSpec {
	return mountSpec{Kind: mountTmpfs, Target: dir, Options: homeOptions, Subdirs: []string{"tmp"}}
}

// rootFor lists the mounts of a confined child's root: the system, the
// program and node where they lie elsewhere, HOME, the working directory
// and the caller's binds; parents before children.
func rootFor(w what) *rootConfig {
	ms := slices.Clone(system())
	visible := func(p string) bool {
		return slices.ContainsFunc(ms, func(m mountSpec) bool {
			return m.Kind == mountBind && within(m.Target, p)
		})
	}
	for _, prog := range []string{nodePath, w.path} {
		for _, p := range programBinds(prog) {
			if filepath.IsAbs(p) && !visible(p) {
				ms = append(ms, mountSpec{Kind: mountBind, Source: p, Target: p})
			}
		}
	}
	ms = append(ms, homeMount(w.home.dir))
	if w.dir != w.home.dir {
		ms = append(ms, mountSpec{Kind: mountBind, Source: w.dir, Target: w.dir, Writable: w.opts.WritableDir})
	}
	for i, b := range w.opts.Binds {
		ms = append(ms, bindSpec(b, w.home.layer(i), w.home.blank()))
	}
	sortMounts(ms)
	// Covers come last: the mounts they lie in are in place.
	ms = append(ms, hides(ms, w.home.empty())...)
	return &rootConfig{Dir: w.home.root, Mounts: ms, Work: w.dir}
}

// sortMounts puts parents before their children.
func sortMounts(ms []mountSpec) {
	slices.SortStableFunc(ms, func(a, b mountSpec) int { return depth(a.Target) - depth(b.Target) })
}

// depth counts the elements of a clean absolute path.
func depth(p string) int { return strings.Count(filepath.Clean(p), "/") }

// within reports whether p is dir or below it; both clean and absolute.
func within(dir, p string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}
