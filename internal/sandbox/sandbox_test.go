package sandbox

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunScrubsEnvironment(t *testing.T) {
	t.Setenv("CODE2SKILL_TEST_SECRET", "s3cr3t")
	t.Setenv("NODE_OPTIONS", "--require /nonexistent.js")
	t.Setenv("GITHUB_TOKEN", "ghp_x")
	res, err := Run(context.Background(), []string{"sh", "-c", "env"}, Options{Dir: t.TempDir(), Env: []string{"CI=1", "CODE2SKILL_DRY_RUN=1"}})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(string(res.Stdout), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok {
			env[k] = v
		}
	}
	for _, banned := range []string{"CODE2SKILL_TEST_SECRET", "NODE_OPTIONS", "GITHUB_TOKEN"} {
		if _, ok := env[banned]; ok {
			t.Errorf("child saw %s", banned)
		}
	}
	if env["CI"] != "1" || env["CODE2SKILL_DRY_RUN"] != "1" {
		t.Errorf("explicit variables missing: CI=%q CODE2SKILL_DRY_RUN=%q", env["CI"], env["CODE2SKILL_DRY_RUN"])
	}
	if env["PATH"] == "" {
		t.Error("PATH not passed through")
	}
	home := env["HOME"]
	if home == "" || home == os.Getenv("HOME") {
		t.Errorf("HOME = %q, want a fresh temporary directory", home)
	}
	if _, err := os.Stat(home); !os.IsNotExist(err) {
		t.Errorf("temporary HOME %s left behind", home)
	}
	if !strings.HasPrefix(env["TMPDIR"], home) {
		t.Errorf("TMPDIR %q not inside HOME %q", env["TMPDIR"], home)
	}
}

func TestRunExitCodeAndOutputCap(t *testing.T) {
	res, err := Run(context.Background(), []string{"sh", "-c", "i=0; while [ $i -lt 2000 ]; do echo line$i; i=$((i+1)); done; echo bad >&2; exit 7"},
		Options{Dir: t.TempDir(), OutputLimit: 64})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 7 {
		t.Errorf("exit code = %d, want 7", res.ExitCode)
	}
	if len(res.Stdout) != 64 || res.StdoutDropped == 0 {
		t.Errorf("stdout kept %d bytes, dropped %d; want 64 kept and some dropped", len(res.Stdout), res.StdoutDropped)
	}
	if !strings.HasSuffix(string(res.Stdout), "line1999\n") {
		t.Errorf("stdout tail = %q, want the end of the output", res.Stdout)
	}
	if string(res.Stderr) != "bad\n" {
		t.Errorf("stderr = %q", res.Stderr)
	}
}

func TestRunTimeoutKillsWholeGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "bg.pid")
	// The background sleep would outlive its parent if only the parent were killed.
	res, err := Run(context.Background(), []string{"sh", "-c", "sleep 60 & echo $! > bg.pid; sleep 60"},
		Options{Dir: dir, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.ExitCode != -1 {
		t.Fatalf("TimedOut=%v ExitCode=%d, want a timed-out kill", res.TimedOut, res.ExitCode)
	}
	if res.Duration > 10*time.Second {
		t.Errorf("run took %s after a 300ms limit", res.Duration)
	}
	assertGone(t, pidFile, res.Isolation)
}

func TestRunKillsLeftoversAfterNormalExit(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "bg.pid")
	res, err := Run(context.Background(), []string{"sh", "-c", "sleep 60 >/dev/null 2>&1 & echo $! > bg.pid; exit 0"},
		Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("exit code %d", res.ExitCode)
	}
	assertGone(t, pidFile, res.Isolation)
}

// assertGone checks that the process whose PID the child wrote is dead. In a
// PID namespace the recorded PID is not ours to look up, and the namespace
// guarantees the kill, so only the host-namespace case is checked directly.
func assertGone(t *testing.T, pidFile string, iso Isolation) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatalf("child did not record its background PID: %v", err)
	}
	if iso.NetworkDenied && strings.Contains(iso.Detail, "PID") {
		return
	}
	var pid int
	for _, c := range strings.TrimSpace(string(b)) {
		pid = pid*10 + int(c-'0')
	}
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("background process %d survived the run", pid)
}

func TestRunDeniesNetwork(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("network namespaces are Linux-only")
	}
	if _, err := LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	script := `fetch("http://example.com/").then(() => console.log("REACHED"), (e) => console.log("DENIED", e.cause && e.cause.code))`
	res, err := Run(context.Background(), []string{"node", "-e", script}, Options{Dir: t.TempDir(), Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Isolation.NetworkDenied {
		t.Skipf("network isolation unavailable here: %s", res.Isolation.Detail)
	}
	if !strings.HasPrefix(string(res.Stdout), "DENIED") {
		t.Errorf("fetch inside the sandbox: %q", res.Stdout)
	}
}

func TestRunMissingProgram(t *testing.T) {
	_, err := Run(context.Background(), []string{"code2skill-no-such-program"}, Options{Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "not found on PATH") {
		t.Fatalf("err = %v, want not found on PATH", err)
	}
}

func TestProcessCloseStopsIgnoringChild(t *testing.T) {
	// A child that ignores stdin EOF and SIGTERM must still be gone after Close.
	p, err := Start([]string{"sh", "-c", `trap "" TERM; echo ready; while :; do sleep 1; done`}, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("read %q, %v", line, err)
	}
	began := time.Now()
	p.Close(100 * time.Millisecond)
	select {
	case <-p.Exited():
	default:
		t.Fatal("child still running after Close")
	}
	if !p.Forced() {
		t.Error("Close did not report that it had to force the child")
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("Close took %s", d)
	}
}

func TestProcessCloseOnEOF(t *testing.T) {
	p, err := Start([]string{"cat"}, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Stdin.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(p.Stdout).ReadString('\n')
	if line != "hello\n" {
		t.Fatalf("echo = %q", line)
	}
	p.Close(5 * time.Second)
	if p.Forced() || p.ExitCode() != 0 {
		t.Errorf("forced=%v exit=%d, want a clean exit on stdin EOF", p.Forced(), p.ExitCode())
	}
}

func TestProcessStdoutOutlivesChild(t *testing.T) {
	// What a child writes just before it exits must still be readable after
	// it has exited: a crashing server's last line belongs in the report.
	p, err := Start([]string{"sh", "-c", "echo last words"}, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stdout.Close()
	<-p.Exited()
	time.Sleep(50 * time.Millisecond) // let the exit be fully processed before reading
	p.Close(time.Second)
	b, err := io.ReadAll(p.Stdout)
	if err != nil || string(b) != "last words\n" {
		t.Errorf("read %q, %v; want the child's output", b, err)
	}
}

func TestTailBuffer(t *testing.T) {
	b := newTailBuffer(5)
	b.Write([]byte("abc"))
	b.Write([]byte("defg"))
	if got := string(b.Bytes()); got != "cdefg" || b.Dropped() != 2 {
		t.Errorf("got %q dropped %d", got, b.Dropped())
	}
	b.Write([]byte("0123456789"))
	if got := string(b.Bytes()); got != "56789" || b.Dropped() != 12 {
		t.Errorf("got %q dropped %d", got, b.Dropped())
	}
}

// TestRunReportsMissingIsolation: where the kernel refuses every namespace
// level, the child still runs, and its Isolation says the network was not
// isolated and why, so reports can say so.
func TestRunReportsMissingIsolation(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("namespaces are Linux-only")
	}
	levelMu.Lock()
	savedChosen, savedReason := levelChosen, levelReason
	levelChosen, levelReason = len(levels), "refused for this test"
	levelMu.Unlock()
	defer func() {
		levelMu.Lock()
		levelChosen, levelReason = savedChosen, savedReason
		levelMu.Unlock()
	}()
	res, err := Run(context.Background(), []string{"sh", "-c", "echo ran"}, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "ran\n" {
		t.Errorf("stdout = %q", res.Stdout)
	}
	if res.Isolation.NetworkDenied || !strings.Contains(res.Isolation.Detail, "not isolated: refused for this test") {
		t.Errorf("Isolation = %+v, want an honest 'not isolated' with the reason", res.Isolation)
	}
}
