//go:build linux

package sandbox

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// isolation levels, tried from the strongest down. The first one the kernel
// accepts is remembered for the rest of the process.
type level struct {
	name  string
	flags uintptr
	user  bool // map the caller to root in a new user namespace
}

var levels = []level{
	// Unprivileged: a user namespace makes the network and PID namespaces
	// available to any user.
	{"user, network and PID namespaces", syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID, true},
	// Root without user namespaces (some container runtimes).
	{"network and PID namespaces", syscall.CLONE_NEWNET | syscall.CLONE_NEWPID, false},
}

var (
	levelMu     sync.Mutex
	levelChosen = -1 // index into levels; len(levels) means none works
	levelReason string
)

// prepare sets the process attributes of cmd for the given network policy and
// returns the index of the isolation level used (or len(levels) for none).
func prepare(cmd *exec.Cmd, network Network, idx int) {
	attr := &syscall.SysProcAttr{
		Setpgid:   true,
		Pdeathsig: syscall.SIGKILL, // the child dies with code2skill
	}
	if network == DenyNetwork && idx < len(levels) {
		l := levels[idx]
		attr.Cloneflags = l.flags
		if l.user {
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		}
	}
	cmd.SysProcAttr = attr
}

// startIsolated starts cmd (built by mk) with the strongest isolation the
// kernel accepts, falling back and remembering the choice when a level is
// refused. It returns a description of the isolation that was applied.
func startIsolated(mk func() *exec.Cmd, network Network) (*exec.Cmd, Isolation, error) {
	if network == AllowNetwork {
		cmd := mk()
		prepare(cmd, network, len(levels))
		return cmd, Isolation{NetworkDenied: false, Detail: "network allowed for this run"}, cmd.Start()
	}
	levelMu.Lock()
	start := levelChosen
	levelMu.Unlock()
	if start < 0 {
		start = 0
	}
	for idx := start; ; idx++ {
		cmd := mk()
		prepare(cmd, network, idx)
		err := cmd.Start()
		if idx >= len(levels) {
			return cmd, Isolation{NetworkDenied: false, Detail: "network not isolated: " + reason()}, err
		}
		if err == nil {
			remember(idx, "")
			return cmd, Isolation{NetworkDenied: true, Detail: levels[idx].name}, nil
		}
		if !namespaceRefused(err) {
			return cmd, Isolation{}, err
		}
		remember(idx+1, levels[idx].name+" refused: "+err.Error())
	}
}

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

// killGroup kills the child's whole process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// terminate asks the child's process group to stop.
func terminate(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
}
