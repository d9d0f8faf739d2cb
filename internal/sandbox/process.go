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

	child     *child
	home      *home
	stderr    *tailBuffer
	closeOnce sync.Once
	forced    bool
}

// Start starts argv under the sandbox and returns it running. The caller must
// call Close. Options.Timeout is not applied to a Process: callers set a
// deadline per request and Close stops the child.
func Start(argv []string, opts Options) (*Process, error) {
	w, err := prepare(argv, opts)
	if err != nil {
		return nil, err
	}
	p := &Process{home: w.home, stderr: newTailBuffer(opts.outputLimit())}
	var stdin io.WriteCloser
	// Stdout is a plain pipe rather than cmd.StdoutPipe: exec closes the
	// read end of StdoutPipe as soon as the child exits, which loses what it
	// wrote last. Each start attempt gets fresh pipes; the parent's copies
	// of the write ends are closed once the child holds its own.
	var readEnds, writeEnds []*os.File
	var pipeErr error
	mk := func() *exec.Cmd {
		cmd := &exec.Cmd{Stderr: p.stderr, WaitDelay: pipeGrace}
		var err error
		stdin, err = cmd.StdinPipe()
		if err == nil {
			var r, w *os.File
			if r, w, err = os.Pipe(); err == nil {
				readEnds, writeEnds = append(readEnds, r), append(writeEnds, w)
				cmd.Stdout = w
			}
		}
		pipeErr = errors.Join(pipeErr, err)
		return cmd
	}
	c, startErr := startChild(w, mk)
	for _, w := range writeEnds {
		w.Close()
	}
	if pipeErr != nil || startErr != nil {
		for _, r := range readEnds {
			r.Close()
		}
		w.home.remove()
		return nil, fmt.Errorf("starting %s: %w", argv[0], errors.Join(pipeErr, startErr))
	}
	for _, r := range readEnds[:len(readEnds)-1] {
		r.Close()
	}
	p.child, p.Stdin, p.Stdout = c, stdin, readEnds[len(readEnds)-1]
	return p, nil
}

// Isolation reports the isolation the child got.
func (p *Process) Isolation() Isolation { return p.child.iso }

// Exited is closed once the child has exited.
func (p *Process) Exited() <-chan struct{} { return p.child.exited }

// Stderr returns the last bytes the child wrote to stderr.
func (p *Process) Stderr() []byte { return p.stderr.Bytes() }

// ExitCode returns the child's exit code once it has exited: -1 when it was
// killed by a signal. It must not be called before Exited is closed.
func (p *Process) ExitCode() int { return p.child.exitCode() }

// Forced reports whether Close had to signal the child to stop it.
func (p *Process) Forced() bool { return p.forced }

// Close stops the child the way the MCP stdio transport prescribes: "the
// client SHOULD initiate shutdown by first closing the input stream to the
// child process, waiting for the server to exit, or sending SIGTERM if the
// server does not exit within a reasonable time, and SIGKILL if the server
// does not exit within a reasonable time after SIGTERM." Each wait lasts at
// most grace. Whatever the child started is killed with it, and the
// temporary HOME is removed. Stdout stays open for the caller to drain.
// Close is idempotent.
func (p *Process) Close(grace time.Duration) {
	p.closeOnce.Do(func() {
		p.Stdin.Close()
		if !p.waitFor(grace) {
			p.forced = true
			p.child.terminate()
			if !p.waitFor(grace) {
				p.child.kill()
			}
		}
		<-p.child.exited
		p.home.remove()
	})
}

// Kill stops the child, and everything it started, at once.
func (p *Process) Kill() {
	p.forced = true
	p.child.kill()
}

func (p *Process) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.child.exited:
		return true
	case <-t.C:
		return false
	}
}

// Wait waits for the child to exit or ctx to end.
func (p *Process) Wait(ctx context.Context) error {
	select {
	case <-p.child.exited:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
