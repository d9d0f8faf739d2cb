package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

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
// whatever it left behind and returns its outcome. A non-zero exit is not an
// error; an error means the child could not be run.
func Run(ctx context.Context, argv []string, opts Options) (*Result, error) {
	w, err := prepare(argv, opts)
	if err != nil {
		return nil, err
	}
	defer w.home.remove()

	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()

	stdout := newTailBuffer(opts.outputLimit())
	stderr := newTailBuffer(opts.outputLimit())
	mk := func() *exec.Cmd {
		cmd := &exec.Cmd{Stdout: stdout, Stderr: stderr}
		// Whatever escaped the child may hold the output pipes open; don't
		// wait for it longer than this.
		cmd.WaitDelay = pipeGrace
		return cmd
	}
	began := time.Now()
	c, err := startChild(w, mk)
	if err != nil {
		return nil, err
	}
	res := &Result{Isolation: c.iso}
	select {
	case <-c.exited:
	case <-ctx.Done():
		res.TimedOut = true
		c.kill()
		<-c.exited
	}
	res.Duration = time.Since(began)
	res.Stdout, res.StdoutDropped = stdout.Bytes(), stdout.Dropped()
	res.Stderr, res.StderrDropped = stderr.Bytes(), stderr.Dropped()
	res.ExitCode = c.exitCode()
	return res, nil
}

// what is the program a child runs.
type what struct {
	path string // absolute and symlink-free
	argv []string
	env  []string
	dir  string // absolute and symlink-free
	home *home
	opts Options
}

// prepare resolves what Run and Start run: the program on PATH, the
// working directory and the binds, all absolute and free of symbolic links
// (a confined child sees them at those paths), and a fresh HOME.
func prepare(argv []string, opts Options) (what, error) {
	if len(argv) == 0 {
		return what{}, errors.New("sandbox: empty command")
	}
	if interrupted() {
		return what{}, fmt.Errorf("starting %s: %w", argv[0], ErrInterrupted)
	}
	path, err := LookPath(argv[0])
	if err != nil {
		return what{}, err
	}
	if path, err = realPath(path); err != nil {
		return what{}, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	if dir, err = realPath(dir); err != nil {
		return what{}, fmt.Errorf("starting %s: working directory: %w", argv[0], err)
	}
	opts.Binds = append([]Bind(nil), opts.Binds...)
	for i, b := range opts.Binds {
		src, err := realPath(b.Source)
		if err != nil {
			return what{}, fmt.Errorf("starting %s: %w", argv[0], err)
		}
		target := filepath.Clean(b.target())
		if !filepath.IsAbs(target) {
			return what{}, fmt.Errorf("starting %s: bind target %q is not absolute", argv[0], b.Target)
		}
		b.Source, b.Target = src, target
		opts.Binds[i] = b
	}
	h, err := newHome()
	if err != nil {
		return what{}, err
	}
	for i, b := range opts.Binds {
		if b.Layer {
			if err := os.Mkdir(h.layer(i), 0o700); err != nil {
				h.remove()
				return what{}, fmt.Errorf("starting %s: %w", argv[0], err)
			}
		}
	}
	return what{path: path, argv: argv, env: environ(h, opts.Env), dir: dir, home: h, opts: opts}, nil
}

// realPath returns p absolute and with every symbolic link resolved.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", err
	}
	return abs, nil
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
