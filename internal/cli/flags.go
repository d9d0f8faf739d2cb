package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/contract"
)

// errHelp is returned by parseArgs when --help was asked for; the usage has
// been printed to stdout.
var errHelp = errors.New("help requested")

// newFlagSet returns a flag set that reports errors instead of exiting.
func newFlagSet(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseArgs parses flags that may come before or after positional arguments
// ("code2skill validate pkg --skip-tests" and "code2skill validate
// --skip-tests pkg" are the same) and returns the positional arguments.
// Everything after "--" is positional.
func parseArgs(fs *flag.FlagSet, c *command, stdio *Stdio, args []string) ([]string, error) {
	var rest []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, rest = args[:i], args[i+1:]
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdio.Out, c.usage)
				return nil, errHelp
			}
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
	return append(positional, rest...), nil
}

// usageError prints a usage error with the command's help and returns
// ExitUsage.
func usageError(stdio *Stdio, c *command, format string, args ...any) int {
	fmt.Fprintf(stdio.Err, "code2skill %s: %s\n\n%s", c.name, fmt.Sprintf(format, args...), c.usage)
	return ExitUsage
}

// parseOrExit parses the command line; ok is false when the command should
// stop with the returned exit code (help shown or a usage error).
func parseOrExit(fs *flag.FlagSet, c *command, stdio *Stdio, args []string) (positional []string, code int, ok bool) {
	positional, err := parseArgs(fs, c, stdio, args)
	switch {
	case errors.Is(err, errHelp):
		return nil, ExitPassed, false
	case err != nil:
		return nil, usageError(stdio, c, "%s", flagNames.ReplaceAllString(err.Error(), "$1--$2")), false
	}
	return positional, 0, true
}

// packageDir returns the one positional argument of a command that works
// on an existing package directory, or the usage error's exit code.
func packageDir(stdio *Stdio, c *command, pos []string) (dir string, code int, ok bool) {
	if len(pos) != 1 {
		return "", usageError(stdio, c, "want exactly one package directory, got %d arguments", len(pos)), false
	}
	if fi, err := os.Stat(pos[0]); err != nil || !fi.IsDir() {
		return "", usageError(stdio, c, "%s is not a directory", pos[0]), false
	}
	return pos[0], 0, true
}

// flagNames finds the flag names in the flag package's messages ("for flag
// -timeout", "not defined: -x"), which code2skill writes --timeout, as its
// help does.
var flagNames = regexp.MustCompile(`(flag |for |defined: |argument: )-([A-Za-z])`)

// durationFlag is a positive time limit, given the same way to every
// command: seconds ("30", "2.5") or a duration ("30s", "2m").
type durationFlag time.Duration

func (d *durationFlag) String() string { return time.Duration(*d).String() }

func (d *durationFlag) Set(v string) error {
	t, err := time.ParseDuration(v)
	if err != nil {
		secs, ferr := strconv.ParseFloat(v, 64)
		if ferr != nil || math.IsNaN(secs) || math.IsInf(secs, 0) || secs > math.MaxInt64/float64(time.Second) {
			return errors.New("want seconds (30) or a duration (30s, 2m)")
		}
		t = time.Duration(secs * float64(time.Second))
	}
	if t <= 0 {
		return errors.New("must be positive")
	}
	*d = durationFlag(t)
	return nil
}

// addDurationFlag defines a time-limit flag with a default (defaultLimit).
func addDurationFlag(fs *flag.FlagSet, name string, def time.Duration) *time.Duration {
	d := defaultLimit(def)
	fs.Var((*durationFlag)(&d), name, "")
	return &d
}

// formatFlag is the --format flag shared by the reporting commands.
type formatFlag string

const (
	formatText  = "text"
	formatJSON  = "json"
	formatSARIF = "sarif"
)

func (f *formatFlag) String() string { return string(*f) }

func (f *formatFlag) Set(s string) error {
	switch s {
	case formatText, formatJSON:
		*f = formatFlag(s)
		return nil
	}
	return fmt.Errorf("must be %s or %s", formatText, formatJSON)
}

func addFormatFlag(fs *flag.FlagSet) *formatFlag {
	f := formatFlag(formatText)
	fs.Var(&f, "format", "output format: text or json")
	return &f
}

// findingsFormatFlag is --format of the commands whose report lists
// findings, which can also print them as a SARIF log.
type findingsFormatFlag struct{ *formatFlag }

func (f findingsFormatFlag) Set(s string) error {
	if s == formatSARIF {
		*f.formatFlag = formatSARIF
		return nil
	}
	if err := f.formatFlag.Set(s); err != nil {
		return fmt.Errorf("must be %s, %s or %s", formatText, formatJSON, formatSARIF)
	}
	return nil
}

// addFindingsFormatFlag is addFormatFlag with SARIF too.
func addFindingsFormatFlag(fs *flag.FlagSet) *formatFlag {
	f := formatFlag(formatText)
	fs.Var(findingsFormatFlag{&f}, "format", "output format: text, json or sarif")
	return &f
}

// stringsFlag is a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// sourcesFlags binds --source-root and the repeatable --source-map ID=PATH,
// the flags of every command that resolves evidence locators to files.
type sourcesFlags struct {
	sources contract.Sources
}

func addSourcesFlags(fs *flag.FlagSet) *sourcesFlags {
	f := &sourcesFlags{}
	fs.Func("source-root", "base directory of relative source roots", func(v string) error {
		if v == "" {
			return errors.New("must not be empty")
		}
		abs, err := filepath.Abs(v)
		if err != nil {
			return err
		}
		f.sources.Base = abs
		return nil
	})
	fs.Func("source-map", "ID=PATH: the authorised root of one declared source (repeatable)", f.sources.AddMapping)
	return f
}
