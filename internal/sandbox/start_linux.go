//go:build linux

package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Time limits of the supervisor's own work.
const (
	// setupTimeout bounds how long the supervisor may take to report that
	// the child started.
	setupTimeout = 30 * time.Second
	// killGrace bounds how long the supervisor may take to kill
	// everything once asked, before it is killed itself.
	killGrace = 5 * time.Second
)

var parentOnce sync.Once

// protectParent makes code2skill non-dumpable before a child that shares
// its user namespace starts: /proc/<pid>/environ and /proc/<pid>/mem of a
// non-dumpable process are readable only with CAP_SYS_PTRACE, so that even
// a child that sees code2skill in /proc cannot read the credentials in its
// environment. A child in a user namespace of its own never can (ptrace
// access across user namespaces needs CAP_SYS_PTRACE in code2skill's), and
// there code2skill must stay dumpable: an unprivileged parent writes the
// child's uid_map, which a non-dumpable parent's child does not let it do.
// It is called once the supervisor has started and before it is told what
// to run: a level the kernel refuses leaves code2skill as it was, for the
// user namespace of the next level. Levels are only ever lowered, so a
// process that has become non-dumpable never tries a user namespace again.
func protectParent(idx int) {
	if idx < len(levels) && levels[idx].user {
		return
	}
	parentOnce.Do(func() { unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) })
}

// child is a started supervisor and what it reports.
type child struct {
	cmd    *exec.Cmd
	iso    Isolation
	status *bufio.Reader

	exited  chan struct{} // closed once the supervisor has exited
	waitErr error
	final   supervisorStatus // the supervisor's last report, if any
}

// startChild starts the program under a supervisor with the strongest
// isolation the kernel accepts, falling back and remembering the choice
// when a level is refused. mk returns a command with its standard streams
// set; startChild fills in the rest.
func startChild(w what, mk func() *exec.Cmd) (*child, error) {
	for idx := firstLevel(); ; {
		if idx >= len(levels) || levels[idx].view != viewConfined {
			mounts := mountsAt(idx)
			if err := unconfinedBinds(w.opts.Binds, mounts); err != nil {
				return nil, err
			}
			if p := hiddenPaths(); len(p) > 0 && !mounts {
				return nil, fmt.Errorf("starting %s: %w", w.argv[0], cannotHide(p[0]))
			}
		}
		c, why, err := tryLevel(w, mk(), idx, false)
		if err == nil {
			worked(idx)
			track(c)
			return c, nil
		}
		if why == "" {
			return nil, err
		}
		if errors.Is(err, errSetup) {
			// The view failed: because of the kernel, or of what this
			// run asked to mount? Only the first lowers the level; a run
			// must not fall back to less isolation over its own mistake.
			if ok, _ := check(idx, w.opts.Network); ok {
				return nil, fmt.Errorf("starting %s: %w", w.argv[0], err)
			}
		}
		remember(idx+1, why)
		idx = firstLevel()
	}
}

// ErrBindUnavailable reports a Bind that moves a path while the child's
// file system cannot be confined.
var ErrBindUnavailable = errors.New("cannot mount a path elsewhere without a mount namespace")

// unconfinedBinds checks that binds need no mount elsewhere where the
// child sees the host's file system: each target is, or already leads to,
// its source (but for an Anonymous bind, mounted at its target, which must
// exist); and that a Layer, Collect or Anonymous bind has the mount
// namespace it needs.
func unconfinedBinds(binds []Bind, mounts bool) error {
	for _, b := range binds {
		t, err := realPath(b.target())
		if err != nil || t != b.Source && !(b.Anonymous && mounts) || b.mounted() && !mounts {
			return fmt.Errorf("%s at %s: %w", b.Source, b.Target, ErrBindUnavailable)
		}
	}
	return nil
}

// errSetup marks a supervisor that could not build the confined root.
var errSetup = errors.New("sandbox setup failed")

// tryLevel starts the supervisor at level idx. When the level is not
// available it returns a non-empty reason, to fall back.
func tryLevel(w what, cmd *exec.Cmd, idx int, check bool) (c *child, why string, err error) {
	configR, configW, err := os.Pipe()
	if err != nil {
		return nil, "", fmt.Errorf("starting the sandbox: %w", err)
	}
	statusR, statusW, err := os.Pipe()
	if err != nil {
		configR.Close()
		configW.Close()
		return nil, "", fmt.Errorf("starting the sandbox: %w", err)
	}
	cmd.Path = "/proc/self/exe"
	cmd.Args = []string{supervisorName}
	cmd.Env = []string{}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{configR, statusW}
	attr := &syscall.SysProcAttr{
		Setpgid:   true,
		Pdeathsig: syscall.SIGKILL, // the supervisor dies with code2skill
	}
	cfg := supervisorConfig{Path: w.path, Args: w.argv, Env: w.env, Dir: w.dir, Check: check}
	if idx < len(levels) {
		l := levels[idx]
		attr.Cloneflags = l.cloneFlags(w.opts.Network)
		if l.user {
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getuid(), Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getgid(), Size: 1}}
		}
		cfg.PIDNamespace = attr.Cloneflags&syscall.CLONE_NEWPID != 0
		switch l.view {
		case viewConfined:
			cfg.Root = rootFor(w)
		case viewPrivate:
			cfg.Private = &privateConfig{Home: w.home.dir, Mounts: privateMounts(w)}
		}
	}
	cmd.SysProcAttr = attr

	err = cmd.Start()
	configR.Close()
	statusW.Close()
	if err != nil {
		configW.Close()
		statusR.Close()
		if idx < len(levels) && namespaceRefused(err) {
			return nil, namespaceNames(attr.Cloneflags) + " refused: " + err.Error(), err
		}
		return nil, "", fmt.Errorf("starting the sandbox: %w", err)
	}
	// The supervisor starts nothing before it has read its configuration.
	protectParent(idx)
	b, _ := json.Marshal(cfg)
	_, werr := configW.Write(b)
	configW.Close()

	statusR.SetReadDeadline(time.Now().Add(setupTimeout))
	r := bufio.NewReader(statusR)
	first, rerr := readStatus(r)
	statusR.SetReadDeadline(time.Time{})
	if first.Ready {
		c := &child{cmd: cmd, iso: isolation(idx, w.opts.Network), status: r, exited: make(chan struct{})}
		go c.wait(statusR)
		return c, "", nil
	}
	// The supervisor did not start the child: make sure it is gone.
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	waitErr := cmd.Wait()
	statusR.Close()
	switch {
	case first.SetupError != "":
		return nil, first.SetupError, fmt.Errorf("%w: %s", errSetup, first.SetupError)
	case first.StartError != "":
		return nil, "", fmt.Errorf("starting %s: %s", w.argv[0], first.StartError)
	}
	return nil, "", fmt.Errorf("the sandbox supervisor failed (%v): %w", waitErr, errors.Join(werr, rerr))
}

// readStatus reads the supervisor's next report.
func readStatus(r *bufio.Reader) (supervisorStatus, error) {
	var s supervisorStatus
	line, err := r.ReadBytes('\n')
	if len(line) == 0 {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return s, err
	}
	return s, canonjson.Unmarshal(line, &s)
}

// wait waits for the supervisor to exit and reads its last report.
func (c *child) wait(statusR *os.File) {
	c.waitErr = c.cmd.Wait()
	c.final, _ = readStatus(c.status)
	statusR.Close()
	close(c.exited)
}

// exitCode returns the child's exit code once the supervisor has exited:
// -1 when the child was killed by a signal, or when the supervisor was.
func (c *child) exitCode() int {
	if c.final.Exited {
		if c.final.Signal != 0 {
			return -1
		}
		return c.final.ExitCode
	}
	if c.waitErr == nil {
		return -1 // the supervisor ended without saying how the child did
	}
	return exitCode(c.waitErr)
}

// terminate asks the child's process group to stop: the supervisor
// forwards SIGTERM.
func (c *child) terminate() {
	syscall.Kill(c.cmd.Process.Pid, syscall.SIGTERM)
}

// kill stops everything the child started, at once: the supervisor kills
// every descendant and exits; should it not, its process group is killed,
// and with it (through the parent-death signal, or as the end of the PID
// namespace) the child.
func (c *child) kill() {
	syscall.Kill(c.cmd.Process.Pid, sigKillAll)
	t := time.NewTimer(killGrace)
	defer t.Stop()
	select {
	case <-c.exited:
	case <-t.C:
		syscall.Kill(-c.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// Available reports the isolation a child started now with the given
// network policy would get. Until a child has started, it tries the levels
// (a supervisor that sets up and exits, running nothing).
func Available(network Network) Isolation {
	if idx, ok := known(); ok {
		return isolation(idx, network)
	}
	for idx := firstLevel(); idx < len(levels); idx = firstLevel() {
		ok, why := check(idx, network)
		if ok {
			worked(idx)
			return isolation(idx, network)
		}
		if why == "" {
			break
		}
		remember(idx+1, why)
	}
	return isolation(len(levels), network)
}

// check starts a supervisor at level idx that sets up what every child
// gets (namespaces, the system's part of a confined root) and exits. When
// the level is not available it says why; an empty reason means the check
// itself could not be made.
func check(idx int, network Network) (ok bool, why string) {
	h, err := newHome()
	if err != nil {
		return false, ""
	}
	defer h.remove()
	w := what{opts: Options{Network: network}, argv: []string{"true"}, home: h, dir: h.dir}
	c, why, err := tryLevel(w, exec.Command("true"), idx, true)
	if err != nil {
		return false, why
	}
	<-c.exited
	return true, ""
}
