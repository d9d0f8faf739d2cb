package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// Isolation describes the isolation a child actually got.
type Isolation struct {
	NetworkDenied bool   // the child ran in a network namespace of its own
	Detail        string // what was applied, or why network isolation was not possible
}

// Result is the outcome of Run.
type Result struct {
	ExitCode       int    // -1 when the child was killed by a signal or the time limit
	Stdout, Stderr []byte // the last OutputLimit bytes of each stream
	// StdoutDropped and StderrDropped count earlier bytes the cap discarded.
	StdoutDropped, StderrDropped int64
	TimedOut                     bool
	Isolation                    Isolation
	Duration                     time.Duration
}

// pipeGrace bounds how long Wait keeps reading output after the child exited.
const pipeGrace = time.Second

// Run starts argv under the sandbox, waits for it (or its time limit), kills
// whatever is left of its process group and returns its outcome. A non-zero
// exit is not an error; an error means the child could not be run.
func Run(ctx context.Context, argv []string, opts Options) (*Result, error) {
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
	defer h.remove()

	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()

	stdout := newTailBuffer(opts.outputLimit())
	stderr := newTailBuffer(opts.outputLimit())
	env := environ(h, opts.Env)
	mk := func() *exec.Cmd {
		cmd := exec.Command(path, argv[1:]...)
		cmd.Args[0] = argv[0]
		cmd.Dir = opts.Dir
		cmd.Env = env
		cmd.Stdout = stdout
		cmd.Stderr = stderr
		// Grandchildren that outlive the child may hold the output pipes
		// open; don't wait for them longer than this.
		cmd.WaitDelay = pipeGrace
		return cmd
	}
	began := time.Now()
	cmd, iso, err := startIsolated(mk, opts.Network)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	res := &Result{Isolation: iso}
	select {
	case err = <-done:
	case <-ctx.Done():
		res.TimedOut = true
		killGroup(cmd)
		err = <-done
	}
	// The tree may outlive its root (background children, grandchildren of
	// node --test); nothing it started may survive the run.
	killGroup(cmd)
	res.Duration = time.Since(began)
	res.Stdout, res.StdoutDropped = stdout.Bytes(), stdout.Dropped()
	res.Stderr, res.StderrDropped = stderr.Bytes(), stderr.Dropped()
	res.ExitCode = exitCode(err)
	if err != nil && res.ExitCode == -1 && !res.TimedOut {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			return nil, fmt.Errorf("waiting for %s: %w", argv[0], err)
		}
	}
	return res, nil
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		return exitErr.ExitCode() // -1 when killed by a signal
	}
	return -1
}
