//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/code2skill/code2skill/internal/nofollow"
)

// rootConfig describes the root file system of a confined child: an empty
// tmpfs mounted on Dir, holding only the mounts listed, which becomes the
// child's "/".
type rootConfig struct {
	Dir    string      `json:"dir"`    // empty host directory to build the root on
	Mounts []mountSpec `json:"mounts"` // parents before their children
	Work   string      `json:"work"`   // the child's working directory
}

// Kinds of mountSpec.
const (
	mountBind    = "bind"    // Source (a host path) at Target
	mountTmpfs   = "tmpfs"   // a fresh tmpfs at Target with Options
	mountProc    = "proc"    // a fresh /proc for the child's PID namespace
	mountSymlink = "symlink" // a symbolic link at Target pointing to Source
)

// procReadOnly lists the parts of a fresh /proc that are mounted
// read-only over themselves.
var procReadOnly = []string{"bus", "fs", "irq", "sys", "sysrq-trigger"}

// mountSpec is one entry of the child's root.
type mountSpec struct {
	Kind     string `json:"kind"`
	Source   string `json:"source,omitempty"`
	Target   string `json:"target"`
	Writable bool   `json:"writable,omitempty"`
	Options  string `json:"options,omitempty"`
	// ReadOnlyAfter remounts a tmpfs read-only once everything below it
	// is mounted.
	ReadOnlyAfter bool `json:"readOnlyAfter,omitempty"`
	// Subdirs are directories made in a fresh tmpfs (HOME's TMPDIR).
	Subdirs []string `json:"subdirs,omitempty"`
	// Work is the sandbox's own directory an overlay keeps its writable
	// layer in, or, for a read-only overlay, the empty directory it
	// stacks its source on.
	Work string `json:"work,omitempty"`
}

// privateConfig describes the view of a child that sees the host's file
// system (no confined root) but gets a /proc and a HOME of its own.
type privateConfig struct {
	Home string `json:"home"` // the child's HOME, covered by a capped tmpfs
	// Mounts are the read-only binds, layers, collected directories and
	// hidden files of the child's view, parents before their children.
	Mounts []mountSpec `json:"mounts,omitempty"`
}

// setupPrivate gives the supervisor, in a fresh mount namespace, a /proc of
// its PID namespace (or, where the kernel refuses one, an empty /proc: the
// host's processes stay out of sight either way) and a HOME on a capped
// tmpfs.
func setupPrivate(pc *privateConfig) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	if err := mountOne(mountSpec{Kind: mountProc, Target: "/proc"}, "/proc"); err != nil {
		const flags = unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC
		if err := unix.Mount("tmpfs", "/proc", "tmpfs", flags, "mode=0555,size=4k"); err != nil {
			return fmt.Errorf("hiding the host's /proc: %w", err)
		}
	}
	home := homeMount(pc.Home)
	if err := mountOne(home, home.Target); err != nil {
		return fmt.Errorf("mounting HOME: %w", err)
	}
	for _, m := range pc.Mounts {
		if err := mountOne(m, m.Target); err != nil {
			return fmt.Errorf("mounting %s: %w", m.Target, err)
		}
	}
	return nil
}

// setupRoot builds the confined root and makes it the supervisor's root.
// It runs in the supervisor, in a fresh mount namespace.
func setupRoot(rc *rootConfig) error {
	// Nothing mounted here may propagate back to the host.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	if err := unix.Mount("tmpfs", rc.Dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755,size=1m"); err != nil {
		return fmt.Errorf("mounting the root tmpfs: %w", err)
	}
	var readOnlyAfter []string
	for _, m := range rc.Mounts {
		dst := filepath.Join(rc.Dir, m.Target)
		if err := mountOne(m, dst); err != nil {
			return fmt.Errorf("mounting %s: %w", m.Target, err)
		}
		if m.ReadOnlyAfter {
			readOnlyAfter = append(readOnlyAfter, dst)
		}
	}
	for i := len(readOnlyAfter) - 1; i >= 0; i-- {
		if err := unix.Mount("", readOnlyAfter[i], "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
			return fmt.Errorf("making %s read-only: %w", readOnlyAfter[i], err)
		}
	}
	// Swap roots, then detach the host's: nothing of it stays reachable,
	// not even through the working directory, which is set afresh.
	old := filepath.Join(rc.Dir, ".old")
	if err := os.Mkdir(old, 0o700); err != nil {
		return fmt.Errorf("preparing the root: %w", err)
	}
	if err := unix.PivotRoot(rc.Dir, old); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Chdir("/"); err != nil {
		return fmt.Errorf("entering the new root: %w", err)
	}
	if err := unix.Unmount("/.old", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detaching the host's root: %w", err)
	}
	if err := os.Remove("/.old"); err != nil {
		return fmt.Errorf("preparing the root: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REMOUNT|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("making the root read-only: %w", err)
	}
	if err := unix.Chdir(rc.Work); err != nil {
		return fmt.Errorf("entering the working directory %s: %w", rc.Work, err)
	}
	return nil
}

func mountOne(m mountSpec, dst string) error {
	switch m.Kind {
	case mountOverlay:
		return mountLayer(m, dst)
	case mountCollect:
		return mountCollected(m, dst)
	case mountHide:
		return mountHidden(m, dst)
	case mountSymlink:
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.Symlink(m.Source, dst)
	case mountTmpfs:
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		if err := unix.Mount("tmpfs", dst, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, m.Options); err != nil {
			return err
		}
		for _, d := range m.Subdirs {
			if err := os.Mkdir(filepath.Join(dst, d), 0o700); err != nil {
				return err
			}
		}
		return nil
	case mountProc:
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		if err := unix.Mount("proc", dst, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return err
		}
		// What would act on the whole machine stays read-only, even for a
		// child that is root outside a user namespace.
		for _, p := range procReadOnly {
			p = filepath.Join(dst, p)
			if _, err := os.Lstat(p); err != nil {
				continue
			}
			if err := unix.Mount(p, p, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
				return err
			}
			if err := setAttr(p, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV); err != nil {
				return err
			}
		}
		return nil
	case mountBind:
		// The source was resolved before the run: opened now with no
		// link on its path, a directory swapped for a link since cannot
		// redirect the mount.
		fd, err := nofollow.Open(m.Source, unix.O_PATH)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			return err
		}
		if err := mountPoint(st.Mode&unix.S_IFMT == unix.S_IFDIR, dst); err != nil {
			return err
		}
		if err := unix.Mount("/proc/self/fd/"+strconv.Itoa(fd), dst, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return err
		}
		if !m.Writable {
			return setAttr(dst, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFCHR && st.Mode&unix.S_IFMT != unix.S_IFBLK {
			return setAttr(dst, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV)
		}
		return nil
	}
	return fmt.Errorf("unknown mount kind %q", m.Kind)
}

// mountPoint creates in the new root what a source is mounted on: a
// directory for a directory, an empty file for anything else. An existing
// one (the same path inside a directory already mounted) is used as it is.
func mountPoint(dir bool, dst string) error {
	if dir {
		return os.MkdirAll(dst, 0o755)
	}
	if _, err := os.Lstat(dst); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	return f.Close()
}

// setAttr sets mount attributes (MOUNT_ATTR_*) on the mount at dst and on
// every mount below it.
func setAttr(dst string, attrs uint64) error {
	err := unix.MountSetattr(unix.AT_FDCWD, dst, unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: attrs})
	if !errors.Is(err, unix.ENOSYS) {
		return err
	}
	// Before Linux 5.12: remount the top mount only, keeping the flags the
	// kernel locks in a user namespace.
	var st unix.Statfs_t
	if err := unix.Statfs(dst, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_NOSUID | unix.MS_NODEV)
	if attrs&unix.MOUNT_ATTR_RDONLY != 0 {
		flags |= unix.MS_RDONLY
	}
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME},
		{unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	return unix.Mount("", dst, "", flags, "")
}
