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
	flags  uintptr
	user   bool // map the caller to root in a new user namespace
	mounts bool // build a confined root in the new mount namespace
}

var levels = []level{
	// Unprivileged: a user namespace makes the others available to any user.
	{syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS, true, true},
	// Root where user namespaces are refused (some container runtimes).
	{syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS, false, true},
	// Where a confined root cannot be built (a /proc that cannot be mounted).
	{syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID | syscall.CLONE_NEWUTS, true, false},
	{syscall.CLONE_NEWNET | syscall.CLONE_NEWPID | syscall.CLONE_NEWUTS, false, false},
}

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

// firstUnmounted is the index of the first level that builds no root.
const firstUnmounted = 2

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
		iso.Detail = "no namespaces: " + reason() + asRoot()
		return iso
	}
	l := levels[idx]
	iso.Level, iso.FileSystem, iso.Processes = LevelPartial, l.mounts, true
	iso.NetworkDenied = network == DenyNetwork
	iso.Detail = namespaceNames(l.cloneFlags(network))
	if l.mounts {
		iso.Level = LevelConfined
	} else {
		iso.Detail += "; file system not confined: " + reason()
		iso.Detail += asRoot()
	}
	if network == AllowNetwork {
		iso.Detail += "; network allowed for this run"
	}
	return iso
}

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
