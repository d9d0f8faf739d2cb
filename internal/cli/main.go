// Package cli wires the code2skill subcommands: flags, output formats and
// exit codes. Each subcommand lives in a file of its own and returns an exit
// code; only this package prints.
package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/scratch"
)

// Exit codes shared by every subcommand.
const (
	ExitPassed   = 0 // the command did its job and found nothing wrong
	ExitFindings = 1 // the package did not pass: error findings were reported
	ExitUsage    = 2 // bad flags or arguments
	ExitFailure  = 3 // the tool could not do its job (node missing, I/O failure, timeout)
)

// Stdio are the streams a command reads and writes.
type Stdio struct {
	In       io.Reader
	Out, Err io.Writer
	// Progress receives progress lines; it is stderr when stderr is a
	// terminal and io.Discard otherwise.
	Progress io.Writer
}

// command is one subcommand, or one subcommand of a command that has them
// ("pipeline run").
type command struct {
	name    string // "validate", "pipeline run"
	summary string // one line for the command list
	// args are the arguments of the synopsis, after the name: "<pkg>",
	// "<pkg> --out DIR".
	args string
	// about is the command's page: what it does, in prose. The help adds
	// the synopsis, the flags as they are defined, and the exit codes.
	about string
	// exits are its exit codes, when they say more than exitCodesHelp.
	exits string
	// topics are the help topics its page refers to.
	topics []string
	// subs are its subcommands; a command has subcommands or a run.
	subs []*command
	run  func(ctx context.Context, stdio *Stdio, args []string) int
	// flags are the flags of this invocation, once run has defined them.
	flags *flagSet
}

// commands lists the subcommands in the order --help shows them.
func commands() []*command {
	return []*command{
		// The default flow.
		demoCmd(),
		initCmd(),
		validateCmd(),
		probeCmd(),
		skillsCmd(),
		// The strict flow, in the order it runs.
		checkContractCmd(),
		deriveCmd(),
		compileCmd(),
		vectorsCmd(),
		finalizeCmd(),
		pipelineCmd(),
		diffCmd(),
		rulesCmd(),
		versionCmd(),
	}
}

const exitCodesHelp = `Exit codes:
  0  passed
  1  the package did not pass (findings were reported)
  2  usage error (bad flags or arguments)
  3  the tool could not do its job (node missing, I/O failure, timeout)
`

// signalGrace is how long a command may take to stop once interrupted.
const signalGrace = 5 * time.Second

// Main runs code2skill with the process's arguments and streams and returns
// the exit code.
func Main() int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	// stderr carries messages for people only, some holding what a
	// package named (paths, errors): escape it all. stdout's text reports
	// escape their own fields, and its JSON stays exact.
	stderr := diag.EscapingWriter(os.Stderr)
	stdio := &Stdio{In: os.Stdin, Out: os.Stdout, Err: stderr, Progress: io.Discard}
	if isTerminal(os.Stderr) {
		stdio.Progress = stderr
	}
	return untilSignalled(sigs, stdio.Err, signalGrace, func(ctx context.Context) int {
		return Run(ctx, os.Args[1:], stdio)
	})
}

// Called when a signal stops a command: stopChildren at once, removeScratch
// before the command ends. Tests replace them.
var (
	stopChildren  = sandbox.Interrupt
	removeScratch = scratch.RemoveAll
)

// untilSignalled runs run and returns its exit code, unless a signal
// arrives first: then run's context is cancelled (writes are abandoned
// before their rename) and every sandboxed child is stopped at once, and
// once run has returned, or after grace or a second signal if it is blocked
// somewhere that ignores the context, the temporary directories still
// there are removed and the command ends with ExitFailure. An interrupted
// command never reports success and leaves nothing behind.
func untilSignalled(sigs <-chan os.Signal, stderr io.Writer, grace time.Duration, run func(context.Context) int) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- run(ctx) }()
	select {
	case code := <-done:
		return code
	case sig := <-sigs:
		fmt.Fprintf(stderr, "code2skill: %v: stopping\n", sig)
		cancel()
		stopped := make(chan struct{})
		go func() {
			stopChildren()
			close(stopped)
		}()
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-done:
			<-stopped
		case <-sigs:
		case <-t.C:
			fmt.Fprintf(stderr, "code2skill: still busy %s after %v: exiting\n", grace, sig)
		}
		removeScratch()
		return ExitFailure
	}
}

// Run runs one code2skill invocation.
func Run(ctx context.Context, args []string, stdio *Stdio) int {
	if stdio.Progress == nil {
		stdio.Progress = io.Discard
	}
	if len(args) == 0 {
		writeHelp(stdio.Out)
		return ExitPassed
	}
	switch args[0] {
	case "-h", "-help", "--help":
		writeHelp(stdio.Out)
		return ExitPassed
	case "help":
		return runHelp(ctx, stdio, args[1:])
	case "-version", "--version":
		args = []string{"version"}
	}
	c := lookup(args[0])
	if c == nil {
		return unknownCommand(stdio, args[0])
	}
	return c.dispatch(ctx, stdio, args[1:])
}

// dispatch runs the command, or the subcommand args name.
func (c *command) dispatch(ctx context.Context, stdio *Stdio, args []string) int {
	if len(c.subs) == 0 {
		return c.run(ctx, stdio, args)
	}
	var names []string
	for _, s := range c.subs {
		names = append(names, s.leaf())
	}
	if len(args) == 0 {
		return usageError(stdio, c, "name a subcommand: %s", strings.Join(names, ", "))
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdio.Out, c.help(nil))
		return ExitPassed
	}
	for _, s := range c.subs {
		if s.leaf() == args[0] {
			return s.dispatch(ctx, stdio, args[1:])
		}
	}
	return usageError(stdio, c, "unknown subcommand %q%s; the subcommands are %s", args[0],
		didYouMean(args[0], names, strconv.Quote), strings.Join(names, ", "))
}

// runHelp is "code2skill help [command [subcommand] | topic]".
func runHelp(ctx context.Context, stdio *Stdio, args []string) int {
	if len(args) == 0 || slices.Contains([]string{"-h", "-help", "--help"}, args[0]) {
		writeHelp(stdio.Out)
		return ExitPassed
	}
	if t := lookupTopic(args[0]); t != nil && len(args) == 1 {
		fmt.Fprint(stdio.Out, t.text())
		return ExitPassed
	}
	c := lookup(args[0])
	if c == nil {
		names := commandNames()
		for _, t := range topics() {
			names = append(names, t.name)
		}
		fmt.Fprintf(stdio.Err, "code2skill help: no command or topic %q%s\nRun \"code2skill help\" for the commands and topics.\n",
			args[0], didYouMean(args[0], names, strconv.Quote))
		return ExitUsage
	}
	return c.dispatch(ctx, stdio, append(slices.Clone(args[1:]), "--help"))
}

// unknownCommand reports a command that does not exist, with the one the
// user probably meant.
func unknownCommand(stdio *Stdio, name string) int {
	fmt.Fprintf(stdio.Err, "code2skill: unknown command %q%s\nRun \"code2skill help\" for the commands.\n",
		name, didYouMean(name, commandNames(), strconv.Quote))
	return ExitUsage
}

func lookup(name string) *command {
	cmds := commands()
	i := slices.IndexFunc(cmds, func(c *command) bool { return c.name == name })
	if i < 0 {
		return nil
	}
	return cmds[i]
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

func writeHelp(w io.Writer) {
	var b strings.Builder
	b.WriteString(`code2skill turns a feature of an application into a package other agents can use
(Agent Skills, Functions, a stdio MCP server and offline tests) and reports, capability
by capability, how far each piece is verified.

Usage:
  code2skill <command> [arguments]

Commands:
`)
	width := 0
	for _, c := range commands() {
		width = max(width, len(c.name))
	}
	for _, t := range topics() {
		width = max(width, len(t.name))
	}
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.summary)
	}
	b.WriteString("\nTopics:\n")
	for _, t := range topics() {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, t.name, t.summary)
	}
	b.WriteString("\nRun \"code2skill help <command>\" for a command's flags, \"code2skill help <topic>\" for a topic.\n\n")
	b.WriteString(exitCodesHelp)
	io.WriteString(w, b.String())
}

func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
