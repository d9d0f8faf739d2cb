//go:build linux

package sandbox

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/code2skill/code2skill/internal/nofollow"
)

// Kinds of mountSpec that keep what a child writes from outliving it, and
// what it must not read out of its sight.
const (
	// mountOverlay shows Source read-only under a writable layer on a
	// tmpfs (Options) mounted on Work, a directory of the sandbox's own.
	mountOverlay = "overlay"
	// mountCollect is an empty tmpfs (Options) at Target whose regular
	// files the supervisor copies into Source once the child has ended.
	mountCollect = "collect"
	// mountHide covers the file at Target with Source, an empty file.
	mountHide = "hide"
)

// Sizes of the tmpfs under a layer and of a collected directory.
var (
	layerOptions   = "mode=0755,size=" + strconv.Itoa(LayerSize)
	collectOptions = "mode=0755,size=" + strconv.Itoa(CollectSize)
)

// Mounts reports whether a child started now with the given network
// policy gets a mount namespace of its own: Layer and Collect binds and
// hidden files need one.
func Mounts(network Network) bool {
	Available(network)
	idx, _ := known()
	return mountsAt(idx)
}

// mountsAt reports whether a child started at the level idx gets a mount
// namespace of its own.
func mountsAt(idx int) bool { return idx >= 0 && idx < len(levels) && levels[idx].view != viewHost }

// bindSpec is the mount of a caller's Bind: work is the directory of its
// writable layer, blank an empty directory.
func bindSpec(b Bind, work, blank string) mountSpec {
	switch {
	case b.Layer:
		return mountSpec{Kind: mountOverlay, Source: b.Source, Target: b.target(), Options: layerOptions, Work: work}
	case b.Collect:
		return mountSpec{Kind: mountCollect, Source: b.Source, Target: b.target(), Options: collectOptions}
	case b.Anonymous:
		return mountSpec{Kind: mountOverlay, Source: b.Source, Target: b.target(), Work: blank}
	}
	return mountSpec{Kind: mountBind, Source: b.Source, Target: b.target(), Writable: b.Writable}
}

// hides lists the mounts that cover the hidden files a child's view
// holds: ms are the mounts of that view, in which a bind shows its Source
// at its Target.
func hides(ms []mountSpec, empty string) []mountSpec {
	var out []mountSpec
	for _, p := range hiddenPaths() {
		for _, m := range ms {
			if (m.Kind == mountBind || m.Kind == mountOverlay) && within(m.Source, p) {
				out = append(out, mountSpec{Kind: mountHide, Source: empty, Target: filepath.Join(m.Target, strings.TrimPrefix(p, m.Source))})
			}
		}
	}
	return out
}

// privateMounts lists what a child that sees the host's file system gets
// besides its /proc and HOME: the caller's read-only binds mounted
// read-only over themselves (a module cache stays as it is), its layers
// and collected directories, and covers on the hidden files.
func privateMounts(w what) []mountSpec {
	var ms []mountSpec
	for i, b := range w.opts.Binds {
		if b.Writable && !b.mounted() {
			continue
		}
		ms = append(ms, bindSpec(b, w.home.layer(i), w.home.blank()))
	}
	sortMounts(ms)
	host := []mountSpec{{Kind: mountBind, Source: "/", Target: "/"}}
	return append(ms, hides(host, w.home.empty())...)
}

// mountLayer mounts an overlay of m.Source at dst: with its writable layer
// on a tmpfs (m.Options) mounted on m.Work, or, without Options, read-only
// on the empty directory m.Work. The overlay names its source by a
// descriptor, never by its path.
func mountLayer(m mountSpec, dst string) error {
	// Opened with no link on its path, as a bind's source is.
	fd, err := nofollow.Open(m.Source, unix.O_PATH|unix.O_DIRECTORY)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	opts := "lowerdir=/proc/self/fd/" + strconv.Itoa(fd)
	flags := uintptr(unix.MS_NOSUID | unix.MS_NODEV)
	if m.Options == "" {
		// Read-only: the source stacked on an empty directory (an
		// overlay needs two layers without a writable one).
		opts += ":" + m.Work
		flags |= unix.MS_RDONLY
	} else {
		if err := unix.Mount("tmpfs", m.Work, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, m.Options); err != nil {
			return err
		}
		upper, work := filepath.Join(m.Work, "upper"), filepath.Join(m.Work, "work")
		for _, d := range []string{upper, work} {
			if err := os.Mkdir(d, 0o755); err != nil {
				return err
			}
		}
		opts += ",upperdir=" + upper + ",workdir=" + work
	}
	err = unix.Mount("overlay", dst, "overlay", flags, opts)
	if err == unix.EINVAL || err == unix.EPERM {
		// In a user namespace overlayfs keeps its attributes in user.*.
		err = unix.Mount("overlay", dst, "overlay", flags, opts+",userxattr")
	}
	if err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	return nil
}

// collected are the Collect directories of the supervisor's child: the
// host directory, opened before the tmpfs covered it, and the tmpfs.
var collected []collectDir

type collectDir struct {
	fd   int
	path string
}

// mountCollected mounts the empty tmpfs of a Collect bind at dst, and
// remembers where its files go.
func mountCollected(m mountSpec, dst string) error {
	fd, err := nofollow.Open(m.Source, unix.O_PATH|unix.O_DIRECTORY)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		unix.Close(fd)
		return err
	}
	if err := unix.Mount("tmpfs", dst, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, m.Options); err != nil {
		unix.Close(fd)
		return err
	}
	collected = append(collected, collectDir{fd: fd, path: m.Target})
	return nil
}

// mountHidden covers the file at dst with an empty one, read-only; a path
// that is no regular file in the view is left alone.
func mountHidden(m mountSpec, dst string) error {
	if fi, err := os.Lstat(dst); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return mountOne(mountSpec{Kind: mountBind, Source: m.Source, Target: m.Target}, dst)
}

// collect copies the regular files the child left in each Collect
// directory into its host directory, never through a link and never over
// a file already there. The tmpfs bounds what is copied.
func collect() {
	for _, c := range collected {
		entries, _ := os.ReadDir(c.path)
		for _, e := range entries {
			if e.Type().IsRegular() {
				copyOut(c, e.Name())
			}
		}
	}
}

func copyOut(c collectDir, name string) {
	src, err := unix.Open(filepath.Join(c.path, name), unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return
	}
	in := os.NewFile(uintptr(src), name)
	defer in.Close()
	dst, err := unix.Openat(c.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return
	}
	out := os.NewFile(uintptr(dst), name)
	defer out.Close()
	io.Copy(out, in)
}
