package sandbox

import (
	"bufio"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/testtier"
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
	p.Close(testtier.Scaled(100 * time.Millisecond))
	select {
	case <-p.Exited():
	default:
		t.Fatal("child still running after Close")
	}
	if !p.Forced() {
		t.Error("Close did not report that it had to force the child")
	}
	if d := time.Since(began); d > testtier.Scaled(5*time.Second) {
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
	p.Close(testtier.Budget(t))
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
	p.Close(testtier.Budget(t)) // the exit fully processed before reading
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
