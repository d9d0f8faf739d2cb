//go:build !linux

package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
)

// Without Linux namespaces a child runs with the environment scrubbed, in a
// process group of its own, and nothing more.

type child struct {
	cmd     *exec.Cmd
	iso     Isolation
	exited  chan struct{}
	waitErr error
}

func isolation(network Network) Isolation {
	iso := Isolation{Level: LevelNone, NetworkAllowed: network == AllowNetwork, Detail: "no namespaces: they are only available on Linux"}
	return iso
}

// ErrBindUnavailable reports a Bind that moves a path while the child's
// file system cannot be confined.
var ErrBindUnavailable = errors.New("cannot mount a path elsewhere without a mount namespace")

// Mounts reports whether a child gets a mount namespace of its own: never
// here.
func Mounts(Network) bool { return false }

func startChild(w what, mk func() *exec.Cmd) (*child, error) {
	for _, b := range w.opts.Binds {
		if t, err := realPath(b.target()); err != nil || t != b.Source || b.mounted() {
			return nil, fmt.Errorf("%s at %s: %w", b.Source, b.Target, ErrBindUnavailable)
		}
	}
	if p := hiddenPaths(); len(p) > 0 {
		return nil, fmt.Errorf("starting %s: %w", w.argv[0], cannotHide(p[0]))
	}
	cmd := mk()
	cmd.Path, cmd.Args, cmd.Env, cmd.Dir = w.path, w.argv, w.env, w.dir
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", w.argv[0], err)
	}
	c := &child{cmd: cmd, iso: isolation(w.opts.Network), exited: make(chan struct{})}
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	track(c)
	return c, nil
}

func (c *child) exitCode() int { return exitCode(c.waitErr) }
func (c *child) terminate()    { terminateGroup(c.cmd) }
func (c *child) kill()         { killGroup(c.cmd) }

// Available reports the isolation a child started now would get.
func Available(network Network) Isolation { return isolation(network) }
