package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Process is a long-lived sandboxed child spoken to over stdin and stdout,
// such as a stdio MCP server. Its stderr is kept (capped) for reports.
type Process struct {
	Stdin io.WriteCloser
	// Stdout yields everything the child wrote, up to EOF once the child and
	// whatever inherited its stdout are gone, even when read after the child
	// exited (a server's last words matter to a report). The caller closes
	// it when done; Close leaves it open.
	Stdout io.ReadCloser

	cmd       *exec.Cmd
	home      *home
	stderr    *tailBuffer
	isolation Isolation
	exited    chan struct{}
	waitErr   error
	closeOnce sync.Once
	forced    bool
}

// Start starts argv under the sandbox and returns it running. The caller must
// call Close. Options.Timeout is not applied to a Process: callers set a
// deadline per request and Close stops the child.
func Start(argv []string, opts Options) (*Process, error) {
	if len(argv) == 0 {
		return nil, errors.New("sandbox: empty command")
	}
	path, err := LookPath(argv[0])
	if err != nil {
		return nil, err
	}
	h, err := newHome()
	if err != nil {
		return nil, err
	}
	p := &Process{home: h, stderr: newTailBuffer(opts.outputLimit()), exited: make(chan struct{})}
	env := environ(h, opts.Env)
	var stdin io.WriteCloser
	// Stdout is a plain pipe rather than cmd.StdoutPipe: exec closes the
	// read end of StdoutPipe as soon as the child exits, which loses what it
	// wrote last. Each start attempt gets fresh pipes; the parent's copies
	// of the write ends are closed once the child holds its own.
	var readEnds, writeEnds []*os.File
	mk := func() *exec.Cmd {
		cmd := exec.Command(path, argv[1:]...)
		cmd.Args[0] = argv[0]
		cmd.Dir = opts.Dir
		cmd.Env = env
		cmd.Stderr = p.stderr
		cmd.WaitDelay = pipeGrace
		stdin, err = cmd.StdinPipe()
		if err == nil {
			var r, w *os.File
			if r, w, err = os.Pipe(); err == nil {
				readEnds, writeEnds = append(readEnds, r), append(writeEnds, w)
				cmd.Stdout = w
			}
		}
		return cmd
	}
	cmd, iso, startErr := startIsolated(mk, opts.Network)
	for _, w := range writeEnds {
		w.Close()
	}
	if err != nil || startErr != nil {
		for _, r := range readEnds {
			r.Close()
		}
		h.remove()
		return nil, fmt.Errorf("starting %s: %w", argv[0], errors.Join(err, startErr))
	}
	for _, r := range readEnds[:len(readEnds)-1] {
		r.Close()
	}
	p.cmd, p.isolation, p.Stdin, p.Stdout = cmd, iso, stdin, readEnds[len(readEnds)-1]
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// Isolation reports the isolation the child got.
func (p *Process) Isolation() Isolation { return p.isolation }

// Exited is closed once the child has exited.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Stderr returns the last bytes the child wrote to stderr.
func (p *Process) Stderr() []byte { return p.stderr.Bytes() }

// ExitCode returns the child's exit code once it has exited: -1 when it was
// killed by a signal. It must not be called before Exited is closed.
func (p *Process) ExitCode() int { return exitCode(p.waitErr) }

// Forced reports whether Close had to signal the child to stop it.
func (p *Process) Forced() bool { return p.forced }

// Close stops the child the way the MCP stdio transport prescribes: "the
// client SHOULD initiate shutdown by first closing the input stream to the
// child process, waiting for the server to exit, or sending SIGTERM if the
// server does not exit within a reasonable time, and SIGKILL if the server
// does not exit within a reasonable time after SIGTERM." Each wait lasts at
// most grace. Whatever is left of the process group is killed, and the
// temporary HOME is removed. Stdout stays open for the caller to drain.
// Close is idempotent.
func (p *Process) Close(grace time.Duration) {
	p.closeOnce.Do(func() {
		p.Stdin.Close()
		if !p.waitFor(grace) {
			p.forced = true
			terminate(p.cmd)
			if !p.waitFor(grace) {
				killGroup(p.cmd)
				<-p.exited
			}
		}
		killGroup(p.cmd)
		p.home.remove()
	})
}

// Kill stops the child at once.
func (p *Process) Kill() {
	p.forced = true
	killGroup(p.cmd)
}

func (p *Process) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// Wait waits for the child to exit or ctx to end.
func (p *Process) Wait(ctx context.Context) error {
	select {
	case <-p.exited:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
