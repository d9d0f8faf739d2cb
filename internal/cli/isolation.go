package cli

import (
	"fmt"

	"github.com/code2skill/code2skill/internal/sandbox"
)

// isolationFlag is --require-isolation, shared by the commands that run a
// package's code.
type isolationFlag struct{ required *bool }

func addIsolationFlag(fs *flagSet) isolationFlag {
	return isolationFlag{fs.Bool("require-isolation", false,
		"exit 3 instead of running the package's code without a confined file system, network and PID namespace (for CI; code2skill help sandbox)")}
}

// before reports, before anything runs, whether the host can isolate the
// package's code as required; when it cannot it prints why and returns
// false.
func (f isolationFlag) before(stdio *Stdio, command string) bool {
	if !*f.required {
		return true
	}
	return f.after(stdio, command, sandbox.Available(sandbox.DenyNetwork))
}

// after checks the isolation a run actually got.
func (f isolationFlag) after(stdio *Stdio, command string, iso sandbox.Isolation) bool {
	if !*f.required || !iso.Missing() {
		return true
	}
	fmt.Fprintf(stdio.Err, "code2skill %s: --require-isolation: the package's code would run at isolation level %q (%s); nothing less than %q is accepted\n",
		command, iso.Level, iso.Detail, sandbox.LevelConfined)
	return false
}
