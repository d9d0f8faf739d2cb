// Package sandbox is the only place code2skill starts child processes.
//
// Every child gets:
//   - an environment reduced to an allowlist (no credentials, tokens or
//     NODE_OPTIONS), plus the variables the caller sets explicitly;
//   - a fresh temporary HOME and TMPDIR, removed afterwards;
//   - its own process group and, where the OS allows, new user, network and
//     PID namespaces, so that it cannot reach the network and its whole
//     process tree dies with it;
//   - a time limit, after which the whole group is killed;
//   - an output cap: only the last OutputLimit bytes of each stream are kept.
//
// Run is for commands that run to completion (node --test, npm ci); Start is
// for long-lived children spoken to over stdin/stdout (MCP servers).
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Defaults applied when Options leaves a field zero.
const (
	DefaultTimeout     = 2 * time.Minute
	DefaultOutputLimit = 1 << 20 // bytes kept per stream
)

// Network says whether a child may use the network.
type Network uint8

const (
	// DenyNetwork runs the child in a new network namespace with no usable
	// interface, where the OS allows it. It is the default.
	DenyNetwork Network = iota
	// AllowNetwork runs the child in the caller's network namespace. Only
	// for runs a user explicitly authorised (installing dependencies,
	// runtime verification).
	AllowNetwork
)

// Options describe how to run one child.
type Options struct {
	Dir         string        // working directory; must exist
	Env         []string      // KEY=VALUE pairs added after the allowlist (they win)
	Timeout     time.Duration // whole-run limit for Run; 0 means DefaultTimeout
	OutputLimit int           // bytes kept per stream; 0 means DefaultOutputLimit
	Network     Network
}

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

func (o Options) outputLimit() int {
	if o.OutputLimit > 0 {
		return o.OutputLimit
	}
	return DefaultOutputLimit
}

// allowedEnv lists the variables a child inherits from code2skill's own
// environment. Everything else (tokens, cloud credentials, npm auth, proxy
// settings, NODE_OPTIONS that could preload code) is dropped.
var allowedEnv = []string{
	"PATH",
	"LANG",
	"LC_ALL",
	"LC_CTYPE",
	"LC_MESSAGES",
	"TZ",
	"SYSTEMROOT", // Windows needs it to start anything
}

// ErrNotFound reports that the program to run is not on PATH.
var ErrNotFound = errors.New("not found on PATH")

// LookPath resolves a program name against code2skill's PATH, the same PATH
// the sandboxed child inherits.
func LookPath(name string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, ErrNotFound)
	}
	return p, nil
}

// home is a temporary HOME (with TMPDIR inside it) for one child.
type home struct{ dir string }

func newHome() (*home, error) {
	dir, err := os.MkdirTemp("", "code2skill-home-")
	if err != nil {
		return nil, fmt.Errorf("creating temporary HOME: %w", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o700); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("creating temporary TMPDIR: %w", err)
	}
	return &home{dir: dir}, nil
}

func (h *home) remove() {
	// A child may have made files read-only; make them writable first so
	// that nothing is left behind.
	filepath.WalkDir(h.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	os.RemoveAll(h.dir)
}

// environ builds the child's environment: the allowlist, a fresh HOME and
// TMPDIR, then the caller's extra variables.
func environ(h *home, extra []string) []string {
	env := make([]string, 0, len(allowedEnv)+len(extra)+4)
	for _, k := range allowedEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	tmp := filepath.Join(h.dir, "tmp")
	env = append(env, "HOME="+h.dir, "USERPROFILE="+h.dir, "TMPDIR="+tmp, "TMP="+tmp, "TEMP="+tmp)
	// Later entries win in exec.Cmd; drop earlier duplicates so the
	// environment the child sees is unambiguous.
	env = append(env, extra...)
	seen := make(map[string]int, len(env))
	out := env[:0]
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if i, ok := seen[k]; ok {
			out[i] = kv
			continue
		}
		seen[k] = len(out)
		out = append(out, kv)
	}
	return out
}
