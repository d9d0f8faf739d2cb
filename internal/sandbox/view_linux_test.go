package sandbox

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/scratch"
	"github.com/code2skill/code2skill/internal/testtier"
)

// TestPromiseReadOnlyView: what a confined child is shown of the host (the
// system's directories, the /etc files, the read-only binds, its working
// directory) is read-only: writing there fails with EROFS, for
// root in the child as for anyone. Its own HOME, TMPDIR and /tmp are
// writable.
func TestPromiseReadOnlyView(t *testing.T) {
	bound := t.TempDir()
	var paths []string
	for _, d := range systemDirs {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			paths = append(paths, d)
		}
	}
	for _, e := range etcEntries {
		if _, err := os.Stat(filepath.Join("/etc", e)); err == nil {
			paths = append(paths, filepath.Join("/etc", e))
		}
	}
	paths = append(paths, "/", "/dev", bound)
	for _, m := range modes() {
		if m.level != LevelConfined {
			continue
		}
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			dir := t.TempDir()
			out, iso := helper(t, Options{Dir: dir, Binds: []Bind{{Source: bound}}}, "write-each",
				append([]string{dir, "/tmp"}, paths...)...)
			if !iso.FileSystem {
				t.Fatalf("Isolation = %+v", iso)
			}
			got := map[string]string{}
			for _, line := range strings.Split(out, "\n") {
				p, res, _ := strings.Cut(line, " ")
				got[p] = res
			}
			for _, p := range append([]string{dir}, paths...) {
				if got[p] != "EROFS" {
					t.Errorf("%s: %q, want EROFS: it must be mounted read-only", p, got[p])
				}
			}
			if got["/tmp"] != "WROTE" {
				t.Errorf("/tmp: %q, want the child's own tmpfs writable", got["/tmp"])
			}
			if out, _ := helper(t, Options{Dir: dir}, "write", filepath.Join(dir, "x")); out == "WROTE" {
				t.Error("the working directory is writable")
			}
		})
	}
}

// TestPromiseHomeCapped: HOME and TMPDIR are a tmpfs of 64 MiB where the
// sandbox can mount one (confined, and partial with a mount namespace), so
// that a child cannot fill the host's disk; /tmp too, when confined. Where
// it cannot, the report says they are not capped.
func TestPromiseHomeCapped(t *testing.T) {
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			capped := m.index < len(levels) && levels[m.index].view != viewHost
			for _, where := range []string{"$HOME", "$TMPDIR", "/tmp"} {
				if where == "/tmp" && m.level != LevelConfined {
					continue
				}
				out, iso := helper(t, Options{}, "fill-env", where)
				if capped {
					if !strings.HasPrefix(out, "FULL 6") && !strings.HasPrefix(out, "FULL 5") {
						t.Errorf("%s: %q, want the 64 MiB cap to stop the writes", where, out)
					}
					if strings.Contains(iso.Detail, "not size-capped") {
						t.Errorf("Detail %q says HOME is not capped", iso.Detail)
					}
					continue
				}
				if !strings.Contains(iso.Detail, "HOME and TMPDIR are not size-capped") {
					t.Errorf("Detail %q does not say HOME is not capped", iso.Detail)
				}
			}
		})
	}
}

// TestPromiseOwnProcesses: with a PID namespace the child can signal none
// of the host's processes, and with a /proc of its own (every level with a
// mount namespace) it cannot see them either. Where it can, the report
// says so.
func TestPromiseOwnProcesses(t *testing.T) {
	sleeper := exec.Command("sleep", "300")
	if err := sleeper.Start(); err != nil {
		t.Skipf("cannot start a host process: %v", err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	pid := strconv.Itoa(sleeper.Process.Pid)
	for _, m := range modes() {
		t.Run(m.name, func(t *testing.T) {
			force(t, m)
			out, iso := helper(t, Options{}, "processes", pid)
			signalled := strings.Contains(out, "SIGNAL REACHED")
			seen := strings.Contains(out, "SEE REACHED")
			switch {
			case m.level == LevelNone:
				if !signalled || !seen || iso.Processes {
					t.Errorf("without namespaces the child should reach the host's process (%q, %+v)", out, iso)
				}
				if !strings.Contains(iso.Detail, "sees your processes") {
					t.Errorf("Detail %q does not say the child sees the host's processes", iso.Detail)
				}
			case levels[m.index].view == viewHost:
				if signalled || !iso.Processes {
					t.Errorf("a child in a PID namespace signalled a host process (%q, %+v)", out, iso)
				}
				if !seen || !strings.Contains(iso.Detail, "sees your processes in /proc") {
					t.Errorf("without a mount namespace the host's /proc shows (%q), and the detail must say so: %q", out, iso.Detail)
				}
			default:
				if signalled || seen || !iso.Processes {
					t.Errorf("the child reached a host process (%q, %+v)", out, iso)
				}
				if strings.Contains(iso.Detail, "sees your processes") {
					t.Errorf("Detail %q", iso.Detail)
				}
			}
		})
	}
}

// TestBindSwappedForLink: a bind's source is resolved before the run and
// mounted with no link on its path: a directory swapped for a link in
// between (to a directory of secrets) fails the run rather than showing the
// child where the link leads.
func TestBindSwappedForLink(t *testing.T) {
	force(t, modes()[0])
	base, _ := filepath.EvalSymlinks(t.TempDir())
	deps, secrets := filepath.Join(base, "deps"), filepath.Join(base, "secrets")
	os.MkdirAll(filepath.Join(deps, "lib"), 0o755)
	os.WriteFile(filepath.Join(deps, "lib", "x.js"), []byte("dep"), 0o644)
	os.MkdirAll(filepath.Join(secrets, "lib"), 0o755)
	os.WriteFile(filepath.Join(secrets, "lib", "x.js"), []byte("canary-secret"), 0o644)
	self, _ := os.Executable()
	w, err := prepare([]string{self, "--", filepath.Join(deps, "lib", "x.js")}, Options{
		Dir: t.TempDir(), Env: []string{helperEnv + "=read"}, Binds: []Bind{{Source: filepath.Join(deps, "lib")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer w.home.remove()
	os.Rename(deps, deps+".moved")
	os.Symlink(secrets, deps)
	out := newTailBuffer(1 << 10)
	c, err := startChild(w, func() *exec.Cmd { return &exec.Cmd{Stdout: out} })
	if err == nil {
		<-c.exited
		t.Fatalf("the run started through a swapped bind source; the child read %q", out.Bytes())
	}
	if !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("err = %v, want it to name the link", err)
	}
	if got := Available(DenyNetwork); got.Level != LevelConfined {
		t.Errorf("one run's swapped bind lowered the level: %+v", got)
	}
}

// TestProgramBinds: of a program's installation a confined child sees the
// program, its npm package and node's global packages; never the prefix it
// was installed under, which may be a home directory.
func TestProgramBinds(t *testing.T) {
	home := t.TempDir()
	for _, d := range []string{".local/bin", ".local/lib/node_modules/npm/bin", ".local/share/keyrings"} {
		os.MkdirAll(filepath.Join(home, d), 0o755)
	}
	node := filepath.Join(home, ".local/bin/node")
	npm := filepath.Join(home, ".local/lib/node_modules/npm/bin/npm-cli.js")
	scoped := filepath.Join(home, "x/node_modules/@scope/tool/bin/cli.js")
	for _, tc := range []struct {
		program string
		want    []string
	}{
		{node, []string{node, filepath.Join(home, ".local/lib/node_modules")}},
		{npm, []string{npm, filepath.Join(home, ".local/lib/node_modules/npm")}},
		{scoped, []string{scoped, filepath.Join(home, "x/node_modules/@scope/tool")}},
		{"/usr/bin/true", []string{"/usr/bin/true"}},
	} {
		if got := programBinds(tc.program); !slices.Equal(got, tc.want) {
			t.Errorf("programBinds(%s) = %v, want %v", tc.program, got, tc.want)
		}
	}
	h, err := newHome()
	if err != nil {
		t.Fatal(err)
	}
	defer h.remove()
	rc := rootFor(what{path: npm, dir: t.TempDir(), home: h})
	for _, m := range rc.Mounts {
		if m.Target == home || m.Target == filepath.Join(home, ".local") {
			t.Errorf("the child would see %s", m.Target)
		}
	}
}

// TestInterrupt: Interrupt stops every running child at once, however it
// ignores signals, and no child starts after it; the temporary HOMEs go
// with their runs.
func TestInterrupt(t *testing.T) {
	defer func() {
		running.Lock()
		running.stopped = false
		running.Unlock()
	}()
	const hang = `trap "" TERM INT; echo ready; while :; do sleep 1; done`
	p, err := Start([]string{"sh", "-c", hang}, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if line, _ := bufio.NewReader(p.Stdout).ReadString('\n'); line != "ready\n" {
		t.Fatalf("read %q", line)
	}
	ran := make(chan *Result, 1)
	go func() {
		res, _ := Run(context.Background(), []string{"sh", "-c", hang}, Options{Dir: t.TempDir(), Timeout: time.Hour})
		ran <- res
	}()
	// Run's child has started once it is among the running children.
	for started := false; !started; {
		select {
		case res := <-ran:
			t.Fatalf("Run ended before Interrupt: %+v", res)
		case <-time.After(time.Millisecond):
		}
		running.Lock()
		started = len(running.children) >= 2
		running.Unlock()
	}
	began := time.Now()
	Interrupt()
	p.Close(testtier.Budget(t))
	select {
	case <-ran:
	case <-time.After(testtier.Budget(t)):
		t.Fatal("Run did not return after Interrupt")
	}
	if d := time.Since(began); d > testtier.Scaled(5*time.Second) {
		t.Errorf("stopping took %s", d)
	}
	for _, d := range scratch.Left() {
		if strings.Contains(d, "code2skill-sandbox-") {
			t.Errorf("%s left behind", d)
		}
	}
	if _, err := Run(context.Background(), []string{"true"}, Options{Dir: t.TempDir()}); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Run after Interrupt: %v, want ErrInterrupted", err)
	}
}
