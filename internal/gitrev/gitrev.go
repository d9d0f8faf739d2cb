// Package gitrev reads files as they are in a revision of a git
// repository: "REV:PATH", the form git show takes.
//
// git runs as a child process in the sandbox like every other child
// (internal/sandbox): no network, a scrubbed environment with a fresh HOME
// and no system or global configuration, a time limit and an output cap.
// The confined child sees the repository's git directory (and its common
// directory and alternates, which a linked worktree keeps elsewhere), read
// only, and nothing of the working tree. Only plumbing commands run
// (rev-parse, cat-file, ls-tree), none of which reads the index, runs a
// hook or a filter, or writes. Reading the object store through git rather
// than directly keeps every object format git knows (loose, packed,
// delta-compressed, with alternates) readable without a second
// implementation of it.
package gitrev

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/sandbox"
)

// Limits of one git child.
const (
	timeout = 30 * time.Second
	// MaxFile is the largest file Read returns.
	MaxFile = 16 << 20
)

// ErrNotFound reports a revision, or a path in a revision, that does not
// exist: bad input, not a failure of the tool.
var ErrNotFound = errors.New("not found")

// notFoundError is an ErrNotFound that says what is missing.
type notFoundError struct{ msg string }

func (e *notFoundError) Error() string        { return e.msg }
func (e *notFoundError) Is(target error) bool { return target == ErrNotFound }

func notFound(format string, args ...any) error {
	return &notFoundError{fmt.Sprintf(format, args...)}
}

// ErrNotARepository reports a directory inside no git repository.
var ErrNotARepository = errors.New("not inside a git repository")

// Spec is a parsed REV:PATH.
type Spec struct{ Rev, Path string }

func (s Spec) String() string { return s.Rev + ":" + s.Path }

// Parse splits "REV:PATH". ok is false when arg has no ":" or either part
// is empty.
func Parse(arg string) (Spec, bool) {
	rev, path, ok := strings.Cut(arg, ":")
	if !ok || rev == "" || path == "" {
		return Spec{}, false
	}
	return Spec{Rev: rev, Path: path}, true
}

// Repository is a git repository found from a directory.
type Repository struct {
	// Top is the top of the working tree; GitDir the git directory; the
	// others are further directories git reads objects from.
	Top, GitDir string
	shared      []string
	// prefix is the directory the search started from, relative to Top,
	// slash-separated ("" at the top).
	prefix string
}

// Find finds the repository dir lies in, as git does: the nearest parent
// holding .git, a directory or a file naming the git directory of a linked
// worktree.
func Find(dir string) (*Repository, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, err
	}
	for cur := abs; ; {
		dotgit := filepath.Join(cur, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			r := &Repository{Top: cur}
			if r.prefix, err = filepath.Rel(cur, abs); err != nil {
				return nil, err
			}
			r.prefix = filepath.ToSlash(r.prefix)
			if r.prefix == "." {
				r.prefix = ""
			}
			if fi.IsDir() {
				r.GitDir = dotgit
			} else if r.GitDir, err = gitdirFile(dotgit, cur); err != nil {
				return nil, err
			}
			return r, r.findShared()
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return nil, fmt.Errorf("%s: %w", dir, ErrNotARepository)
		}
		cur = parent
	}
}

// gitdirFile reads a .git file: "gitdir: PATH", PATH relative to its
// directory.
func gitdirFile(name, dir string) (string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(data), "\n")
	path, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s is not a git directory link", name)
	}
	path = strings.TrimSpace(path)
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return filepath.Clean(path), nil
}

// findShared finds the directories besides the git directory that git
// reads objects and refs from: the common directory of a linked worktree
// and the object directories objects/info/alternates names.
func (r *Repository) findShared() error {
	common := r.GitDir
	if data, err := os.ReadFile(filepath.Join(r.GitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(r.GitDir, common)
		}
		common = filepath.Clean(common)
		r.shared = append(r.shared, common)
	}
	if data, err := os.ReadFile(filepath.Join(common, "objects", "info", "alternates")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(common, "objects", line)
			}
			r.shared = append(r.shared, filepath.Clean(line))
		}
	}
	return nil
}

// Path returns the path of a Spec relative to the top of the working tree:
// as git show reads it, with "./" and "../" relative to the directory Find
// started from.
func (r *Repository) Path(s Spec) string {
	p := s.Path
	if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
		p = filepath.ToSlash(filepath.Join(r.prefix, p))
		if p == ".." || strings.HasPrefix(p, "../") {
			return p // outside the tree: git finds nothing there
		}
	}
	p = path.Clean("/" + p)
	return strings.TrimPrefix(p, "/") // "" is the top of the tree
}

// Kind is what a path of a revision is.
type Kind string

const (
	Blob Kind = "blob"
	Tree Kind = "tree"
)

// Stat says whether the revision exists and what its path is: ErrNotFound
// (wrapped, with what is missing) when either does not exist.
func (r *Repository) Stat(ctx context.Context, s Spec) (Kind, error) {
	if _, err := r.git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", s.Rev+"^{tree}"); err != nil {
		if errors.Is(err, errExit) {
			return "", notFound("revision %q does not exist in the repository", s.Rev)
		}
		return "", err
	}
	out, err := r.git(ctx, "cat-file", "-t", "--end-of-options", s.Rev+":"+r.Path(s))
	if errors.Is(err, errExit) {
		return "", notFound("revision %s has no %s", s.Rev, r.Path(s))
	}
	if err != nil {
		return "", err
	}
	return Kind(strings.TrimSpace(string(out))), nil
}

// List returns the names of the entries of a tree.
func (r *Repository) List(ctx context.Context, s Spec) ([]string, error) {
	out, err := r.git(ctx, "ls-tree", "--name-only", "--end-of-options", s.Rev+":"+r.Path(s))
	if errors.Is(err, errExit) {
		return nil, notFound("revision %s has no %s", s.Rev, r.Path(s))
	}
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// Read returns the content of a file of a revision.
func (r *Repository) Read(ctx context.Context, s Spec) ([]byte, error) {
	out, err := r.git(ctx, "cat-file", "blob", "--end-of-options", s.Rev+":"+r.Path(s))
	if errors.Is(err, errExit) {
		return nil, notFound("revision %s has no %s", s.Rev, r.Path(s))
	}
	return out, err
}

// errExit is a git command that ran and failed: what it was asked for does
// not exist.
var errExit = errors.New("git exited with an error")

// git runs one git command in the sandbox and returns its stdout.
func (r *Repository) git(ctx context.Context, args ...string) ([]byte, error) {
	var binds []sandbox.Bind
	for _, d := range r.shared {
		if d != r.GitDir {
			binds = append(binds, sandbox.Bind{Source: d})
		}
	}
	argv := append([]string{"git", "-c", "safe.directory=*", "-c", "core.fsmonitor=false"}, args...)
	res, err := sandbox.Run(ctx, argv, sandbox.Options{
		Dir:         r.GitDir,
		Binds:       binds,
		Timeout:     timeout,
		OutputLimit: MaxFile + 1,
		Env: []string{
			"GIT_DIR=" + r.GitDir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_NO_REPLACE_OBJECTS=1", "LC_ALL=C",
		},
	})
	switch {
	case errors.Is(err, sandbox.ErrNotFound):
		return nil, errors.New("git is not installed or not on PATH")
	case err != nil:
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	case res.TimedOut:
		return nil, fmt.Errorf("git %s did not finish within %v", args[0], timeout)
	case res.StdoutDropped > 0 || len(res.Stdout) > MaxFile:
		return nil, fmt.Errorf("git %s: the file is larger than the %d bytes code2skill reads", args[0], MaxFile)
	case res.ExitCode == 1 && len(bytes.TrimSpace(res.Stderr)) == 0, res.ExitCode == 128 && missing(res.Stderr):
		return nil, fmt.Errorf("%w: %s", errExit, firstLine(res.Stderr))
	case res.ExitCode != 0:
		return nil, fmt.Errorf("git %s exited with %d: %s", args[0], res.ExitCode, firstLine(res.Stderr))
	}
	return res.Stdout, nil
}

// missing reports whether git's message says that what it was asked for
// does not exist (rather than that it could not read the repository).
func missing(stderr []byte) bool {
	for _, m := range []string{"does not exist in", "Not a valid object name", "not a valid object name", "invalid object name", "exists on disk, but not in", "not a tree object"} {
		if bytes.Contains(stderr, []byte(m)) {
			return true
		}
	}
	return false
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(bytes.TrimSpace(b), []byte("\n"))
	return string(line)
}
