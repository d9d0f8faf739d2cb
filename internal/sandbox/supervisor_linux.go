//go:build linux

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// The supervisor is code2skill itself, re-executed through /proc/self/exe
// with argv[0] set to supervisorName. It reads its configuration from file
// descriptor 3, reports on descriptor 4, sets up the child's view of the
// system (in a mount namespace), drops every privilege, starts the child as
// its own child, and once the child has ended kills whatever it left
// behind: as PID 1 of the child's PID namespace, or as the child's
// subreaper where there is no PID namespace, every descendant ends up as
// its child however it detached.
const supervisorName = "code2skill-sandbox"

// Descriptors the supervisor inherits besides stdin, stdout and stderr.
const (
	configFD = 3
	statusFD = 4
)

// maxConfig bounds the configuration the supervisor reads.
const maxConfig = 4 << 20

// Signals the parent sends the supervisor. SIGTERM (and SIGINT, SIGHUP)
// are forwarded to the child's process group; sigKillAll makes the
// supervisor kill every descendant at once and exit.
const sigKillAll = syscall.SIGUSR1

func init() {
	// Runs before main in every binary that links the sandbox (code2skill
	// and its test binaries), so that re-executing the binary under this
	// name starts a supervisor and nothing else.
	if len(os.Args) == 1 && os.Args[0] == supervisorName {
		os.Exit(supervise())
	}
}

// supervisorConfig is what the parent sends the supervisor.
type supervisorConfig struct {
	Path string   `json:"path"` // absolute path of the program
	Args []string `json:"args"`
	Env  []string `json:"env"`
	Dir  string   `json:"dir"`
	// Root describes the confined root file system; nil without one.
	Root *rootConfig `json:"root,omitempty"`
	// Private describes the /proc and HOME of a child that sees the host's
	// file system; nil without a mount namespace.
	Private *privateConfig `json:"private,omitempty"`
	// PIDNamespace: the supervisor is PID 1 of a namespace of its own.
	PIDNamespace bool `json:"pidNamespace"`
	// Check sets up the root and exits without starting anything: Available
	// uses it to learn what the kernel allows.
	Check bool `json:"check,omitempty"`
}

// supervisorStatus is one line the supervisor writes on its status pipe:
// first Ready (or SetupError or StartError), then, when the child has
// ended and everything it started is gone, Exited.
type supervisorStatus struct {
	Ready      bool   `json:"ready,omitempty"`
	SetupError string `json:"setupError,omitempty"`
	StartError string `json:"startError,omitempty"`
	Exited     bool   `json:"exited,omitempty"`
	ExitCode   int    `json:"exitCode,omitempty"`
	Signal     int    `json:"signal,omitempty"`
}

func supervise() int {
	// Capabilities, the bounding set and no_new_privs are attributes of a
	// thread; the child is forked from this one and inherits them.
	runtime.LockOSThread()
	syscall.CloseOnExec(configFD)
	syscall.CloseOnExec(statusFD)
	status := os.NewFile(statusFD, "status")
	report := func(s supervisorStatus) {
		b, _ := json.Marshal(s)
		status.Write(append(b, '\n'))
	}
	var cfg supervisorConfig
	// The parent writes the configuration and closes its end.
	data, err := io.ReadAll(io.LimitReader(os.NewFile(configFD, "config"), maxConfig))
	if err == nil {
		err = canonjson.Unmarshal(data, &cfg)
	}
	if err != nil {
		report(supervisorStatus{SetupError: "reading the supervisor's configuration: " + err.Error()})
		return 1
	}
	syscall.Close(configFD)
	var setup error
	switch {
	case cfg.Root != nil:
		setup = setupRoot(cfg.Root)
	case cfg.Private != nil:
		setup = setupPrivate(cfg.Private)
	}
	if setup != nil {
		report(supervisorStatus{SetupError: setup.Error()})
		return 1
	}
	if cfg.Check {
		report(supervisorStatus{Ready: true})
		return 0
	}
	// The configuration in the supervisor's memory is not the child's.
	unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	// Orphans anywhere below come back to the supervisor (in a PID
	// namespace, PID 1 is their reaper anyway).
	unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	if err := dropPrivileges(); err != nil {
		report(supervisorStatus{SetupError: err.Error()})
		return 1
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, sigKillAll)

	cmd := &exec.Cmd{
		Path:   cfg.Path,
		Args:   cfg.Args,
		Env:    cfg.Env,
		Dir:    cfg.Dir,
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{
			Setpgid:   true,
			Pdeathsig: syscall.SIGKILL, // dies with its supervisor
		},
	}
	if err := cmd.Start(); err != nil {
		report(supervisorStatus{StartError: err.Error()})
		return 1
	}
	report(supervisorStatus{Ready: true})
	// The child holds its own copies of the standard streams.
	os.Stdin.Close()
	os.Stdout.Close()

	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var waitErr error
wait:
	for {
		select {
		case sig := <-sigs:
			if sig == sigKillAll {
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				waitErr = <-done
				break wait
			}
			syscall.Kill(-cmd.Process.Pid, sig.(syscall.Signal))
		case waitErr = <-done:
			break wait
		}
	}
	killDescendants(cfg.PIDNamespace)
	collect()
	final := supervisorStatus{Exited: true}
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil:
	case errors.As(waitErr, &exitErr):
		ws, _ := exitErr.Sys().(syscall.WaitStatus)
		if ws.Signaled() {
			final.Signal = int(ws.Signal())
		} else {
			final.ExitCode = ws.ExitStatus()
		}
	default:
		final.Signal = int(syscall.SIGKILL)
	}
	report(final)
	return 0
}

// killDescendants kills everything the child left behind and reaps it. As
// PID 1 of a namespace, kill(-1) reaches every other process in it. As a
// subreaper, every descendant whose parent died is a child of the
// supervisor: kill those, and repeat while their own children, orphaned in
// turn, come back.
func killDescendants(pidNamespace bool) {
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); errors.Is(err, syscall.ECHILD) {
		return // nothing was left behind
	}
	if pidNamespace {
		for {
			syscall.Kill(-1, syscall.SIGKILL)
			if _, err := syscall.Wait4(-1, nil, 0, nil); errors.Is(err, syscall.ECHILD) {
				return
			}
		}
	}
	self := os.Getpid()
	for {
		kids := childrenOf(self)
		if len(kids) == 0 {
			return
		}
		for _, pid := range kids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
		for _, pid := range kids {
			syscall.Wait4(pid, nil, 0, nil)
		}
	}
}

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var kids []int
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(p); ok && ppid == pid {
			kids = append(kids, p)
		}
	}
	return kids
}

// parentOf reads the parent PID of pid from /proc/<pid>/stat.
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// "pid (comm) state ppid ...": comm may hold spaces and parentheses.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	fields := strings.Fields(s[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(fields[1])
	return ppid, err == nil
}

// dropPrivileges leaves the child no capability it could use to undo its
// confinement (remounting a read-only directory writable, for one): the
// bounding set is emptied, so that even root in the user namespace gains
// nothing on exec, and no_new_privs forbids gaining any through setuid
// binaries. Outside a user namespace, an ordinary user has nothing to drop.
func dropPrivileges() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	for c := 0; c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); errors.Is(err, unix.EINVAL) {
			break // past the last capability the kernel knows
		}
	}
	unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("dropping capabilities: %w", err)
	}
	return nil
}
