package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The promise tests run this test binary itself as the sandboxed child, so
// that they need nothing but Go: with helperEnv set, TestMain runs one of
// the helper actions below instead of the tests. Each action prints one
// line a test can judge: what it reached, read or started, or DENIED with
// the error.
const helperEnv = "CODE2SKILL_SANDBOX_TEST_HELPER"

func runHelper(action string, args []string) int {
	switch action {
	case "connect-tcp", "connect-unix":
		network := strings.TrimPrefix(action, "connect-")
		conn, err := net.DialTimeout(network, args[0], 5*time.Second)
		if err != nil {
			fmt.Println("DENIED", err)
			return 0
		}
		// Prove the connection carries data, not only that it opened.
		line, err := bufio.NewReader(conn).ReadString('\n')
		conn.Close()
		if err != nil {
			fmt.Println("DENIED", err)
			return 0
		}
		fmt.Println("REACHED", strings.TrimSpace(line))
	case "read":
		b, err := os.ReadFile(args[0])
		if err != nil {
			fmt.Println("DENIED", err)
			return 0
		}
		fmt.Printf("READ %q\n", b)
	case "write":
		if err := os.WriteFile(args[0], []byte("written by the child\n"), 0o644); err != nil {
			fmt.Println("DENIED", err)
			return 0
		}
		fmt.Println("WROTE")
	case "remount":
		if err := syscall.Mount("", args[0], "", syscall.MS_REMOUNT|syscall.MS_BIND, ""); err != nil {
			fmt.Println("DENIED", err)
			return 0
		}
		fmt.Println("REMOUNTED")
	case "environ":
		b, err := os.ReadFile("/proc/" + args[0] + "/environ")
		if err != nil {
			fmt.Println("DENIED", err)
			return 0
		}
		fmt.Printf("READ %q\n", b)
	case "detach", "detach-and-hang":
		// Start a grandchild in a session of its own, so that it leaves
		// the child's process group, and wait until it runs.
		self, _ := os.Executable()
		gc := exec.Command(self, "--", args[0])
		gc.Env = []string{helperEnv + "=linger"}
		gc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		out, err := gc.StdoutPipe()
		if err == nil {
			err = gc.Start()
		}
		if err != nil {
			fmt.Println("FAILED", err)
			return 1
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		fmt.Print(line)
		if action == "detach-and-hang" {
			os.Stdout.Close()
			time.Sleep(time.Hour) // until killed
		}
	case "linger":
		// args[0] is a marker the test finds in /proc/<pid>/cmdline. It
		// lingers longer than any test waits for it to be gone (an hour
		// without a deadline): only a kill ends it in time.
		fmt.Println("LINGERING")
		os.Stdout.Close()
		time.Sleep(2 * time.Hour)
	case "write-each":
		// One line per path: what opening it for writing (a file) or
		// creating a file in it (a directory) did. Nothing is changed: a
		// file is opened to append nothing, a file created is removed.
		for _, p := range args {
			fmt.Println(p, tryWrite(p))
		}
	case "fill-env":
		// Write up to 80 MiB into a file in the directory args[0] (with
		// $HOME or $TMPDIR expanded): FULL when the file system runs out
		// first.
		file := filepath.Join(os.ExpandEnv(args[0]), "fill")
		f, err := os.Create(file)
		if err != nil {
			fmt.Println("DENIED", err)
			return 0
		}
		chunk := make([]byte, 1<<20)
		written := 0
		for written < 80<<20 {
			n, err := f.Write(chunk)
			written += n
			if err != nil {
				fmt.Println("FULL", written>>20, err)
				f.Close()
				os.Remove(file)
				return 0
			}
		}
		f.Close()
		os.Remove(file)
		fmt.Println("WROTE", written>>20)
	case "processes":
		// Whether the process args[0] can be signalled and seen in /proc.
		pid, _ := strconv.Atoi(args[0])
		if err := syscall.Kill(pid, 0); err != nil {
			fmt.Println("SIGNAL DENIED", err)
		} else {
			fmt.Println("SIGNAL REACHED")
		}
		if _, err := os.ReadFile("/proc/" + args[0] + "/cmdline"); err != nil {
			fmt.Println("SEE DENIED", err)
		} else {
			fmt.Println("SEE REACHED")
		}
	case "sandbox-environ":
		// A code2skill stand-in whose own environment holds a secret: it
		// runs a sandboxed child that tries to read that environment.
		self, _ := os.Executable()
		return runParent(self, os.Getpid())
	default:
		fmt.Fprintf(os.Stderr, "unknown helper action %q\n", action)
		return 2
	}
	return 0
}

// tryWrite says what writing at p does: EROFS when its file system is
// read-only, WROTE when the write was possible (undone at once), or the
// error.
func tryWrite(p string) string {
	fi, err := os.Stat(p)
	if err != nil {
		return "MISSING " + err.Error()
	}
	// Opening an existing file for writing is refused for want of
	// permission before the file system is asked: the mount's flags tell
	// what a write would meet, for any user.
	var st syscall.Statfs_t
	if err := syscall.Statfs(p, &st); err == nil && st.Flags&stRDONLY != 0 {
		return "EROFS"
	}
	if fi.IsDir() {
		probe := filepath.Join(p, fmt.Sprintf(".code2skill-write-probe-%d", os.Getpid()))
		f, err := os.OpenFile(probe, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			f.Close()
			os.Remove(probe)
			return "WROTE"
		}
		return errName(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		f.Close()
		return "WROTE"
	}
	return errName(err)
}

// stRDONLY is ST_RDONLY of statfs's flags.
const stRDONLY = 1

func errName(err error) string {
	if errors.Is(err, syscall.EROFS) {
		return "EROFS"
	}
	return "DENIED " + err.Error()
}
