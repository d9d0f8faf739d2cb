package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/code2skill/code2skill/internal/testtier"
)

// docs/sandbox.md promises, level by level, what a child can
// and cannot do. Each test here checks one promise in every mode: the
// strongest level this host allows, and the forced fallbacks. Where a level
// does not promise something, the test checks that the child really does
// reach the resource (so that the resource is real and the test can fail)
// and that the child's Isolation says so.

func TestMain(m *testing.M) {
	if action := os.Getenv(helperEnv); action != "" {
		args := os.Args[1:]
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		os.Exit(runHelper(action, args))
	}
	os.Exit(m.Run())
}

// mode is one isolation level the tests force.
type mode struct {
	name  string
	index int // into levels; len(levels) for none
	level Level
}

func modes() []mode {
	return []mode{
		{"confined", 0, LevelConfined},
		// As root where user namespaces are refused.
		{"confined-root", 1, LevelConfined},
		{"partial", firstUnmounted, LevelPartial},
		{"partial-root", firstUnmounted + 1, LevelPartial},
		// Without a mount namespace at all.
		{"partial-bare", firstUnmounted + 2, LevelPartial},
		{"partial-bare-root", firstUnmounted + 3, LevelPartial},
		{"none", len(levels), LevelNone},
	}
}

// asRoot reports whether the mode's level works without a user namespace,
// which only root may create the other namespaces in.
func (m mode) asRoot() bool { return m.index < len(levels) && !levels[m.index].user }

// requireConfinedEnv names the variable that turns a level the host cannot
// give into a failure rather than a skip; CI sets it, so that a sandbox
// that lost a namespace fails its tests instead of skipping them.
const requireConfinedEnv = "CODE2SKILL_REQUIRE_CONFINED"

// force makes the sandbox start at the mode's level for the rest of the
// test, and skips when the host cannot give it: with
// CODE2SKILL_REQUIRE_CONFINED=1, every level must be reachable (those
// without a user namespace only for root), and one that is not fails.
func force(t *testing.T, m mode) {
	t.Helper()
	levelMu.Lock()
	saved, savedReason := levelChosen, levelReason
	levelChosen, levelReason = m.index, "forced by the test"
	levelMu.Unlock()
	t.Cleanup(func() {
		levelMu.Lock()
		levelChosen, levelReason = saved, savedReason
		levelMu.Unlock()
		// A lower level made the test process non-dumpable for good; the
		// next test may force a user namespace again.
		parentOnce = sync.Once{}
		unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
	})
	if got := Available(DenyNetwork); got.Level != m.level || firstLevel() != m.index {
		if os.Getenv(requireConfinedEnv) == "1" && (!m.asRoot() || os.Geteuid() == 0) {
			t.Fatalf("%s=1 and this host cannot give the %s level: %s", requireConfinedEnv, m.name, got.Detail)
		}
		t.Skipf("this host cannot give the %s level: %s (set %s=1 to make that a failure)", m.name, got.Detail, requireConfinedEnv)
	}
}

// helper runs the test binary as a sandboxed child doing action.
func helper(t *testing.T, opts Options, action string, args ...string) (string, Isolation) {
	t.Helper()
	res := helperRun(t, context.Background(), opts, action, args...)
	return strings.TrimSpace(string(res.Stdout)), res.Isolation
}

// helperRun runs the test binary as a sandboxed child doing action, until
// it exits or ctx ends, and returns its result.
func helperRun(t *testing.T, ctx context.Context, opts Options, action string, args ...string) *Result {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	opts.Env = append(opts.Env, helperEnv+"="+action)
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	if opts.Timeout == 0 {
		opts.Timeout = testtier.Budget(t)
	}
	res, err := Run(ctx, append([]string{self, "--"}, args...), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 && !res.TimedOut {
		t.Fatalf("helper %s exited %d: %s %s", action, res.ExitCode, res.Stdout, res.Stderr)
	}
	return res
}

// waitForOutput waits until a child Run is running has written want to
// its stdout, and reports whether it has (false once ctx ended first).
func waitForOutput(ctx context.Context, want string) bool {
	for {
		running.Lock()
		wrote := false
		for c := range running.children {
			if out, ok := c.cmd.Stdout.(*tailBuffer); ok && strings.Contains(string(out.Bytes()), want) {
				wrote = true
			}
		}
		running.Unlock()
		if wrote {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Millisecond):
		}
	}
}

func TestPromiseNoHostLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("cannot listen on the host's loopback: %v", err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			fmt.Fprintln(c, "host-listener")
			c.Close()
		}
	}()
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			out, iso := helper(t, Options{}, "connect-tcp", ln.Addr().String())
			if iso.NetworkDenied {
				if !strings.HasPrefix(out, "DENIED") {
					t.Errorf("a child without network reached the host's loopback listener: %q", out)
				}
				return
			}
			if out != "REACHED host-listener" {
				t.Errorf("without a network namespace the child should reach the listener; got %q", out)
			}
			if m.level != LevelNone || iso.Level != LevelNone {
				t.Errorf("Isolation = %+v: network not denied at level %s", iso, m.name)
			}
		})
	}
}

func TestPromiseNoHostUnixSocket(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "agent.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("cannot listen on a unix socket: %v", err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			fmt.Fprintln(c, "host-socket")
			c.Close()
		}
	}()
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			out, iso := helper(t, Options{}, "connect-unix", sock)
			if iso.FileSystem {
				if !strings.HasPrefix(out, "DENIED") {
					t.Errorf("a confined child connected to a host unix socket: %q", out)
				}
				return
			}
			// A network namespace does not hide path-named sockets.
			if out != "REACHED host-socket" {
				t.Errorf("an unconfined child should reach the socket; got %q", out)
			}
		})
	}
}

func TestPromiseNoHostFiles(t *testing.T) {
	canary := filepath.Join(t.TempDir(), "id_rsa")
	if err := os.WriteFile(canary, []byte("canary-secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			out, iso := helper(t, Options{}, "read", canary)
			if iso.FileSystem {
				if out != fmt.Sprintf("DENIED open %s: no such file or directory", canary) {
					t.Errorf("a confined child read a file outside its sandbox: %q", out)
				}
				return
			}
			if out != `READ "canary-secret"` {
				t.Errorf("an unconfined child should read the file; got %q", out)
			}
		})
	}
}

func TestPromiseOwnFilesVisible(t *testing.T) {
	// What the child is given stays readable: its working directory and
	// the read-only binds.
	dir, shared := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("pkg"), 0o644)
	os.Mkdir(filepath.Join(dir, "deps"), 0o755)
	os.WriteFile(filepath.Join(shared, "dep.txt"), []byte("dep"), 0o644)
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			if out, _ := helper(t, Options{Dir: dir}, "read", "mine.txt"); out != `READ "pkg"` {
				t.Errorf("working directory: %q", out)
			}
			if out, _ := helper(t, Options{Dir: dir, Binds: []Bind{{Source: shared}}}, "read", filepath.Join(shared, "dep.txt")); out != `READ "dep"` {
				t.Errorf("bind: %q", out)
			}
			// A bind elsewhere needs a mount namespace, and says so without one.
			moved := Options{Dir: dir, Binds: []Bind{{Source: shared, Target: filepath.Join(dir, "deps")}}}
			if m.level == LevelConfined {
				if out, _ := helper(t, moved, "read", "deps/dep.txt"); out != `READ "dep"` {
					t.Errorf("bind elsewhere: %q", out)
				}
				return
			}
			if _, err := Run(context.Background(), []string{"true"}, moved); !errors.Is(err, ErrBindUnavailable) {
				t.Errorf("bind elsewhere without a mount namespace: %v, want ErrBindUnavailable", err)
			}
		})
	}
}

func TestPromiseNoWritesOutside(t *testing.T) {
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			dir, outside := t.TempDir(), t.TempDir()
			targets := map[string]string{
				"outside":           filepath.Join(outside, "planted"),
				"working directory": filepath.Join(dir, "planted"),
			}
			for what, target := range targets {
				out, iso := helper(t, Options{Dir: dir}, "write", target)
				_, statErr := os.Stat(target)
				if iso.FileSystem {
					if out == "WROTE" || statErr == nil {
						t.Errorf("%s: a confined child wrote %s (%q)", what, target, out)
					}
					continue
				}
				if out != "WROTE" || statErr != nil {
					t.Errorf("%s: an unconfined child should write %s; got %q, %v", what, target, out, statErr)
				}
			}
			// Asked for, the working directory is writable, and HOME always is.
			target := filepath.Join(dir, "installed")
			if out, _ := helper(t, Options{Dir: dir, WritableDir: true}, "write", target); out != "WROTE" {
				t.Errorf("WritableDir: %q", out)
			}
			if m.level == LevelConfined {
				// A private /tmp: the host's is not touched.
				if out, _ := helper(t, Options{Dir: dir}, "write", "/tmp/code2skill-sandbox-test-scratch"); out != "WROTE" {
					t.Errorf("/tmp: %q", out)
				}
				if _, err := os.Stat("/tmp/code2skill-sandbox-test-scratch"); err == nil {
					os.Remove("/tmp/code2skill-sandbox-test-scratch")
					t.Error("the child's /tmp is the host's")
				}
			}
		})
	}
}

// TestPromiseNoPrivileges: root in the child's user namespace owns the
// mounts the supervisor made; without its capabilities it cannot remount
// its read-only working directory writable. A confined child cannot write
// /proc/sys either (only checked where the child has a UTS namespace of its
// own, so that a failure could change nothing but its own host name).
func TestPromiseNoPrivileges(t *testing.T) {
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			dir := t.TempDir()
			out, _ := helper(t, Options{Dir: dir}, "remount", dir)
			if !strings.HasPrefix(out, "DENIED") {
				t.Errorf("the child remounted its working directory: %q", out)
			}
			if m.level != LevelConfined || levels[m.index].flags&syscall.CLONE_NEWUTS == 0 {
				return
			}
			if out, _ := helper(t, Options{Dir: dir}, "write", "/proc/sys/kernel/hostname"); out == "WROTE" {
				t.Error("the child wrote /proc/sys")
			}
		})
	}
}

// TestPromiseDetachedGrandchildGone: a grandchild that left the child's
// process group and session is gone once Run returns, whether the child
// exited, was stopped (its context ended, as its time limit ends it) or was
// a Process that was closed.
func TestPromiseDetachedGrandchildGone(t *testing.T) {
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			marker := fmt.Sprintf("code2skill-marker-%d-%s", os.Getpid(), m.name)

			out, _ := helper(t, Options{}, "detach", marker+"-exit")
			if out != "LINGERING" {
				t.Fatalf("the grandchild did not start: %q", out)
			}
			assertNoProcess(t, marker+"-exit")

			// The hanging child is stopped as soon as it has said its
			// grandchild runs, not after a wait on the clock.
			ctx, stop := context.WithCancel(context.Background())
			defer stop()
			go func() {
				if waitForOutput(ctx, "LINGERING") {
					stop()
				}
			}()
			res := helperRun(t, ctx, Options{}, "detach-and-hang", marker+"-stopped")
			if out := strings.TrimSpace(string(res.Stdout)); out != "LINGERING" || !res.TimedOut {
				t.Fatalf("the grandchild did not start, or the child was not stopped: %q, timed out %v", out, res.TimedOut)
			}
			assertNoProcess(t, marker+"-stopped")

			self, _ := os.Executable()
			p, err := Start([]string{self, "--", marker + "-close"}, Options{Dir: t.TempDir(), Env: []string{helperEnv + "=detach-and-hang"}})
			if err != nil {
				t.Fatal(err)
			}
			line := make([]byte, len("LINGERING\n"))
			if _, err := p.Stdout.Read(line); err != nil || string(line) != "LINGERING\n" {
				t.Fatalf("the grandchild did not start: %q %v", line, err)
			}
			p.Close(testtier.Scaled(100 * time.Millisecond))
			p.Stdout.Close()
			assertNoProcess(t, marker+"-close")
		})
	}
}

// assertNoProcess checks that no process on the host has marker in its
// command line, and kills those that do once it gives up.
func assertNoProcess(t *testing.T, marker string) {
	t.Helper()
	var pids []int
	for deadline := time.Now().Add(testtier.Budget(t)); time.Now().Before(deadline); {
		pids = pids[:0]
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
			if bytes.Contains(cmdline, []byte(marker)) && !bytes.Contains(stat, []byte(") Z ")) {
				pids = append(pids, pid)
			}
		}
		if len(pids) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("processes %v (%s) survived the run", pids, marker)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// TestPromiseParentEnvironmentHidden: code2skill's own environment holds
// the user's credentials; no child may read it through /proc. The parent
// here is a separate process started with a secret in its environment,
// since /proc/<pid>/environ shows the environment a process was started
// with.
//
// Run as root, the parent's capabilities alone keep a child without any
// from reading it; so that the test proves what protects an ordinary
// user's code2skill (it is not dumpable), the parent then runs as nobody
// wherever a level needs no root.
func TestPromiseParentEnvironmentHidden(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	unprivileged := os.Geteuid() == 0
	if unprivileged {
		self = copyForNobody(t, self)
	}
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m) // to skip what the host cannot do; the parent forces its own
			cmd := exec.Command(self, "--")
			cmd.Dir = "/"
			cmd.Env = append(os.Environ(), helperEnv+"=sandbox-environ", "CODE2SKILL_TEST_CREDENTIAL=canary-credential",
				levelIndexEnv+"="+strconv.Itoa(m.index), "TMPDIR=/tmp")
			if unprivileged && !m.asRoot() {
				cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("parent: %v\n%s", err, out)
			}
			got := string(out)
			if !strings.Contains(got, "level="+string(m.level)) {
				t.Fatalf("the parent ran at another level: %s", got)
			}
			if strings.Contains(got, "canary-credential") {
				t.Errorf("the child read the credential in its parent's environment")
			} else if !strings.Contains(got, "DENIED") {
				t.Errorf("the child read its parent's environment: %.200s", got)
			}
		})
	}
}

// nobody is the unprivileged user root's tests run a parent as.
const nobody = 65534

// copyForNobody copies the test binary where nobody may run it (the build
// directory is root's alone).
func copyForNobody(t *testing.T, self string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "code2skill-sandbox-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	b, err := os.ReadFile(self)
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	exe := filepath.Join(dir, filepath.Base(self))
	if err == nil {
		err = os.WriteFile(exe, b, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

// levelIndexEnv tells the parent of TestPromiseParentEnvironmentHidden
// which level to force.
const levelIndexEnv = "CODE2SKILL_SANDBOX_TEST_LEVEL_INDEX"

// runParent is the parent side of TestPromiseParentEnvironmentHidden.
func runParent(self string, pid int) int {
	if idx, err := strconv.Atoi(os.Getenv(levelIndexEnv)); err == nil {
		levelChosen, levelReason = idx, "forced by the test"
	}
	res, err := Run(context.Background(), []string{self, "--", strconv.Itoa(pid)}, Options{
		Dir: os.TempDir(),
		Env: []string{helperEnv + "=environ"},
	})
	if err != nil {
		fmt.Println("FAILED", err)
		return 1
	}
	fmt.Printf("level=%s %s", res.Isolation.Level, res.Stdout)
	return 0
}

// TestSetupFailureOfOneRun: a confined root that fails because of what the
// run asked to mount (here a mount point inside the read-only working
// directory that does not exist) is that run's error; the sandbox does not
// fall back to running it, or anything after it, with less isolation.
func TestSetupFailureOfOneRun(t *testing.T) {
	force(t, mode{"confined", 0, LevelConfined})
	dir, shared := t.TempDir(), t.TempDir()
	_, err := Run(context.Background(), []string{"true"}, Options{Dir: dir,
		Binds: []Bind{{Source: shared, Target: filepath.Join(dir, "missing", "deps")}}})
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("err = %v, want the failed mount", err)
	}
	if got := Available(DenyNetwork); got.Level != LevelConfined {
		t.Errorf("after one run's failure the sandbox fell back to %+v", got)
	}
}
