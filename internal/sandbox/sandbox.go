// Package sandbox is the only place code2skill starts child processes.
//
// Every child gets:
//   - an environment reduced to an allowlist (no credentials, tokens or
//     NODE_OPTIONS), plus the variables the caller sets explicitly;
//   - a fresh temporary HOME and TMPDIR, removed afterwards (where a mount
//     namespace allows, a tmpfs of 64 MiB, so that a child cannot fill the
//     disk);
//   - a supervisor: code2skill re-executes itself as a small supervisor
//     that sets up the child's view of the system, starts the child, and
//     kills every descendant when the child ends (it is their subreaper),
//     however they detached;
//   - where the OS allows, new user, mount, network, PID, IPC and UTS
//     namespaces: the child sees only its working directory (read-only
//     unless the caller says otherwise), node and the system libraries
//     read-only, a private HOME and /tmp and a fresh /proc, has no network,
//     and cannot see or signal any process but its own. Every path bound
//     into its view is mounted as it was resolved before the run: a
//     directory swapped for a symbolic link since fails the run;
//   - where a mount namespace exists (confined or not): the caller's
//     read-only binds read-only, a Layer bind (a build cache) read-only
//     under a capped writable layer of its own that is gone when it ends, a
//     Collect bind (a coverage directory) as a capped directory of its own
//     whose files are copied out when it ends, and the files Hide names (the
//     evidence key) covered by an empty file; where none exists, a Layer or
//     Collect bind is refused, and so is every child while a hidden file
//     exists;
//   - a time limit, after which everything it started is killed;
//   - an output cap: only the last OutputLimit bytes of each stream are kept.
//
// code2skill itself is made non-dumpable before the first child starts, so
// that no child can read its environment through /proc/<pid>/environ even
// where namespaces are refused. Isolation reports the level reached
// (LevelConfined, LevelPartial, LevelNone); the environment variable
// CODE2SKILL_SANDBOX_LEVEL (confined, partial or none) caps the level tried,
// so that the fallbacks can be exercised on a host that supports more.
//
// Run is for commands that run to completion (node --test, npm ci); Start is
// for long-lived children spoken to over stdin/stdout (MCP servers).
// Interrupt stops them all at once, for a command told to stop.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/code2skill/code2skill/internal/scratch"
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
	// WritableDir lets a confined child write into Dir (npm ci installing
	// node_modules). By default Dir is mounted read-only.
	WritableDir bool
	// Binds are further host paths a confined child sees. Without a mount
	// namespace (Isolation.FileSystem false) the child sees the host's
	// file system as it is, so a Bind whose Target does not already lead to
	// its Source (a symbolic link) cannot be honoured and Start and Run
	// refuse it with ErrBindUnavailable: callers check Available first.
	Binds []Bind
}

// Bind makes the host path Source visible to a confined child at Target
// (Source when empty), read-only unless Writable. Source is resolved
// (symbolic links followed); Target is used as given, so that a child
// finds a directory under the path a symbolic link gave it.
//
// Two kinds of Bind keep what a child writes from outliving it, where a
// mount namespace exists (Mounts; elsewhere Start and Run refuse them with
// ErrBindUnavailable), confined or not:
//   - Layer shows the directory Source read-only under a writable layer of
//     the child's own, on a tmpfs of LayerSize: the child may write there
//     (a build cache), and what it writes is gone when it ends.
//   - Collect shows the child an empty directory on a tmpfs of CollectSize
//     instead of Source; once the child has ended, the regular files it
//     left there (not those below) are copied into Source, which the child
//     never saw.
//
// Anonymous shows Source read-only as Layer does without the layer: an
// overlay of it alone, so that the child's mount table (/proc/self/mountinfo)
// names no host path of it, where a plain bind names the directory it
// lies in. It needs a mount namespace too.
type Bind struct {
	Source, Target string
	Writable       bool
	Layer          bool
	Collect        bool
	Anonymous      bool
}

// mounted reports whether the bind is one only a mount namespace gives.
func (b Bind) mounted() bool { return b.Layer || b.Collect || b.Anonymous }

func (b Bind) target() string {
	if b.Target == "" {
		return b.Source
	}
	return b.Target
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

// Sizes of the tmpfs under a Layer and of a Collect directory.
const (
	LayerSize   = 2 << 30
	CollectSize = 256 << 20
)

var (
	hiddenMu sync.Mutex
	hidden   = map[string]string{} // resolved path → what it is
)

// Hide keeps the file at path out of every child's sight from now on:
// where a mount namespace exists an empty file covers it in the child's
// view (confined or not); where none exists, Start and Run refuse to start
// a child, with ErrCannotHide, rather than let it read the file. what names
// the file in that refusal ("the evidence key"). A path that does not
// exist is not hidden.
func Hide(path, what string) {
	real, err := realPath(path)
	if err != nil {
		return
	}
	hiddenMu.Lock()
	defer hiddenMu.Unlock()
	hidden[real] = what
}

// hiddenPaths returns the hidden files that still exist, sorted.
func hiddenPaths() []string {
	hiddenMu.Lock()
	defer hiddenMu.Unlock()
	var out []string
	for p := range hidden {
		if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// ErrCannotHide reports a child not started because a hidden file would
// be readable in its view: no mount namespace could be had to cover it.
var ErrCannotHide = errors.New("no mount namespace to hide it in")

// cannotHide is the refusal to start a child that would see path.
func cannotHide(path string) error {
	hiddenMu.Lock()
	what := hidden[path]
	hiddenMu.Unlock()
	return fmt.Errorf("%s (%s) would be readable by the child: %w; code2skill does not run the package's code while it holds it (run where the kernel allows user and mount namespaces)", what, path, ErrCannotHide)
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

// home is the per-child temporary directory: HOME (with TMPDIR inside it)
// and an empty directory on which a confined child's root is mounted.
type home struct {
	made string // the temporary directory holding both, as made
	base string // the same, free of symbolic links
	dir  string // HOME
	root string // mount point of a confined child's root file system
}

func newHome() (*home, error) {
	made, err := scratch.Dir("", "code2skill-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("creating temporary HOME: %w", err)
	}
	// The child sees these paths: make them symlink-free.
	base, err := filepath.EvalSymlinks(made)
	if err != nil {
		scratch.Remove(made)
		return nil, fmt.Errorf("creating temporary HOME: %w", err)
	}
	h := &home{made: made, base: base, dir: filepath.Join(base, "home"), root: filepath.Join(base, "root")}
	for _, d := range []string{h.dir, filepath.Join(h.dir, "tmp"), h.root, h.blank()} {
		if err := os.Mkdir(d, 0o700); err != nil {
			h.remove()
			return nil, fmt.Errorf("creating temporary HOME: %w", err)
		}
	}
	if err := os.WriteFile(h.empty(), nil, 0o444); err != nil {
		h.remove()
		return nil, fmt.Errorf("creating temporary HOME: %w", err)
	}
	return h, nil
}

func (h *home) remove() { scratch.Remove(h.made) }

// layer is the directory the writable layer of the i-th Bind is mounted
// on, made by prepare.
func (h *home) layer(i int) string { return filepath.Join(h.base, "layer-"+strconv.Itoa(i)) }

// empty is an empty file that covers hidden files, made by newHome.
func (h *home) empty() string { return filepath.Join(h.base, "empty") }

// blank is an empty directory a read-only overlay stacks its source on,
// made by newHome.
func (h *home) blank() string { return filepath.Join(h.base, "blank") }

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
