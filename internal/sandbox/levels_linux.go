//go:build linux

package sandbox

import (
	"errors"
	"os"
	"strings"
	"sync"
	"syscall"
)

// level is one way of isolating a child, tried from the strongest down.
// The first one the kernel accepts is remembered for the rest of the
// process.
type level struct {
	flags uintptr
	user  bool // map the caller to root in a new user namespace
	view  view // what the child is shown of the file system
}

// view is what a level builds of the child's file system.
type view uint8

const (
	// viewConfined: a root of its own holding only what the sandbox
	// mounts.
	viewConfined view = iota
	// viewPrivate: the host's file system, with a /proc and a HOME of its
	// own (a fresh /proc where one can be mounted, an empty one where
	// not; HOME on a capped tmpfs).
	viewPrivate
	// viewHost: the host's file system as it is, /proc included.
	viewHost
)

const (
	allNamespaces = syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	// Without a mount namespace (where none can be had).
	bareNamespaces = syscall.CLONE_NEWNET | syscall.CLONE_NEWPID | syscall.CLONE_NEWUTS
)

var levels = []level{
	// Unprivileged: a user namespace makes the others available to any user.
	{syscall.CLONE_NEWUSER | allNamespaces, true, viewConfined},
	// Root where user namespaces are refused (some container runtimes).
	{allNamespaces, false, viewConfined},
	// Where a confined root cannot be built (a /proc that cannot be mounted).
	{syscall.CLONE_NEWUSER | allNamespaces, true, viewPrivate},
	{allNamespaces, false, viewPrivate},
	// Where not even a /proc or HOME of its own can be mounted.
	{syscall.CLONE_NEWUSER | bareNamespaces, true, viewHost},
	{bareNamespaces, false, viewHost},
}

// firstUnmounted is the index of the first level that builds no root:
// partial.
const firstUnmounted = 2

// cloneFlags returns the namespaces of the level for a run with the given
// network policy.
func (l level) cloneFlags(network Network) uintptr {
	if network == AllowNetwork {
		return l.flags &^ syscall.CLONE_NEWNET
	}
	return l.flags
}

// namespaceNames names the namespaces in flags: "user, mount, network, PID
// and IPC namespaces".
func namespaceNames(flags uintptr) string {
	var names []string
	for _, ns := range []struct {
		flag uintptr
		name string
	}{
		{syscall.CLONE_NEWUSER, "user"},
		{syscall.CLONE_NEWNS, "mount"},
		{syscall.CLONE_NEWNET, "network"},
		{syscall.CLONE_NEWPID, "PID"},
		{syscall.CLONE_NEWIPC, "IPC"},
		{syscall.CLONE_NEWUTS, "UTS"},
	} {
		if flags&ns.flag != 0 {
			names = append(names, ns.name)
		}
	}
	if len(names) == 1 {
		return names[0] + " namespace"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " namespaces"
}

// levelEnv names the variable that caps the strongest level tried.
const levelEnv = "CODE2SKILL_SANDBOX_LEVEL"

var (
	levelMu     sync.Mutex
	levelChosen = -1 // index into levels of the next level to try; len(levels) means none works
	levelReason string
	levelWorked = -1 // the index of a level a child has been started with
)

// worked records that a child started at level idx.
func worked(idx int) {
	levelMu.Lock()
	defer levelMu.Unlock()
	levelWorked = idx
}

// known returns the level children start at, once one has; ok is false
// before.
func known() (idx int, ok bool) {
	levelMu.Lock()
	defer levelMu.Unlock()
	return levelWorked, levelWorked >= 0 && levelWorked == levelChosen
}

// firstLevel returns the index of the strongest level worth trying.
func firstLevel() int {
	levelMu.Lock()
	defer levelMu.Unlock()
	if levelChosen < 0 {
		levelChosen = 0
		switch v := os.Getenv(levelEnv); Level(v) {
		case LevelPartial:
			levelChosen, levelReason = firstUnmounted, levelEnv+"="+v
		case LevelNone:
			levelChosen, levelReason = len(levels), levelEnv+"="+v
		}
	}
	return levelChosen
}

// remember records that the levels before idx are not available.
func remember(idx int, why string) {
	levelMu.Lock()
	defer levelMu.Unlock()
	if idx > levelChosen {
		levelChosen = idx
		if why != "" {
			levelReason = why
		}
	}
}

func reason() string {
	levelMu.Lock()
	defer levelMu.Unlock()
	return levelReason
}

// isolation describes what level idx gives a child.
func isolation(idx int, network Network) Isolation {
	iso := Isolation{Level: LevelNone, NetworkAllowed: network == AllowNetwork}
	if idx >= len(levels) {
		iso.Detail = "no namespaces: " + reason() + "; the child sees your processes and files" + uncapped + asRoot()
		return iso
	}
	l := levels[idx]
	flags := l.cloneFlags(network)
	iso.Level, iso.FileSystem = LevelPartial, l.view == viewConfined
	iso.Processes = flags&syscall.CLONE_NEWPID != 0
	iso.NetworkDenied = network == DenyNetwork
	iso.Detail = namespaceNames(flags)
	switch l.view {
	case viewConfined:
		iso.Level = LevelConfined
	case viewPrivate:
		iso.Detail += "; file system not confined: " + reason() + "; a /proc and a capped HOME of its own" + asRoot()
	case viewHost:
		iso.Detail += "; file system not confined: " + reason() + "; no mount namespace: the child sees your processes in /proc" + uncapped + asRoot()
	}
	if network == AllowNetwork {
		iso.Detail += "; network allowed for this run"
	}
	return iso
}

// uncapped says, where the sandbox cannot mount a tmpfs, that the child's
// HOME and TMPDIR are directories of the host.
const uncapped = "; HOME and TMPDIR are not size-capped"

// asRoot warns, where the file system is not confined, that code2skill
// runs as root: its children keep root's file permissions (without
// capabilities), and /proc/sys honours those.
func asRoot() string {
	if os.Geteuid() == 0 {
		return "; code2skill runs as root, and so does the package's code (without capabilities)"
	}
	return ""
}

// namespaceRefused reports whether a start failure comes from the kernel
// refusing the namespaces rather than from the program itself.
func namespaceRefused(err error) bool {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return false
	}
	switch errno {
	case syscall.EPERM, syscall.EINVAL, syscall.ENOSPC, syscall.EUSERS, syscall.EACCES:
		return true
	}
	return false
}
