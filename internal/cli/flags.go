package cli

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// errHelp is returned by parseArgs when --help was asked for; the help
// has been printed to stdout.
var errHelp = errors.New("help requested")

// parseArgs parses flags that may come before or after positional arguments
// ("code2skill validate pkg --skip-tests" and "code2skill validate
// --skip-tests pkg" are the same) and returns the positional arguments.
// Everything after "--" is positional.
func parseArgs(fs *flagSet, c *command, stdio *Stdio, args []string) ([]string, error) {
	var rest []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, rest = args[:i], args[i+1:]
	}
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(stdio.Out, c.help(fs))
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

// parseOrExit parses the command line; ok is false when the command should
// stop with the returned exit code (help shown or a usage error).
func parseOrExit(fs *flagSet, c *command, stdio *Stdio, args []string) (positional []string, code int, ok bool) {
	positional, err := parseArgs(fs, c, stdio, args)
	switch {
	case errors.Is(err, errHelp):
		return nil, ExitPassed, false
	case err != nil:
		return nil, usageError(stdio, c, "%s", flagError(fs, err)), false
	}
	fs.warnDeprecated(stdio, c)
	return positional, 0, true
}

// flagError is the flag package's message about a command line, with flag
// names written --timeout, as the help writes them, and for a flag the
// command does not have, the one the user probably meant.
func flagError(fs *flagSet, err error) string {
	msg := flagNames.ReplaceAllString(err.Error(), "$1--$2")
	if name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -"); ok {
		msg += didYouMean(strings.TrimPrefix(name, "-"), fs.order, func(s string) string { return "--" + s })
	}
	return msg
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

// String writes the duration as the help shows defaults: 2m, 10s.
func (d *durationFlag) String() string {
	s := time.Duration(*d).String()
	s, _ = strings.CutSuffix(s, "m0s")
	if len(s) < len(time.Duration(*d).String()) {
		s += "m"
	}
	return s
}

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

// addDurationFlag defines a time-limit flag with a default (defaultLimit);
// what names what the limit bounds ("the whole test run").
func addDurationFlag(fs *flagSet, name string, def time.Duration, what string) *time.Duration {
	d := defaultLimit(def)
	fs.Var((*durationFlag)(&d), name, "time limit of "+what+": `D` in seconds (30) or as a duration (30s, 2m)")
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

func addFormatFlag(fs *flagSet) *formatFlag {
	f := formatFlag(formatText)
	fs.Var(&f, "format", formatUsage(formatText, formatJSON))
	return &f
}

// formatUsage is the usage of --format: one meaning, the output format,
// whose values are the command's.
func formatUsage(values ...string) string {
	u := "print the report as `" + strings.Join(values, "|") + "`"
	if slices.Contains(values, formatSARIF) {
		u += "; sarif is a SARIF 2.1.0 log of the findings, for code scanning"
	}
	return u + "; see code2skill help formats"
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
func addFindingsFormatFlag(fs *flagSet) *formatFlag {
	f := formatFlag(formatText)
	fs.Var(findingsFormatFlag{&f}, "format", formatUsage(formatText, formatJSON, formatSARIF))
	return &f
}

// choiceFlag is a flag whose value is one of a few words.
type choiceFlag struct {
	value   string
	choices []string
}

func (f *choiceFlag) String() string { return f.value }

func (f *choiceFlag) Set(s string) error {
	if !slices.Contains(f.choices, s) {
		return fmt.Errorf("must be %s or %s", strings.Join(f.choices[:len(f.choices)-1], ", "), f.choices[len(f.choices)-1])
	}
	f.value = s
	return nil
}

// stringsFlag is a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// addRuntimeFlag defines --runtime, the runtime profile of a core package.
func addRuntimeFlag(fs *flagSet) *string {
	return fs.String("runtime", string(pkgdir.RuntimeNode),
		"the runtime of the package, `R`: node-stdio, or go-stdio (a Go module on the official Go MCP SDK)")
}

// addForceFlag defines --force, which lets a command write into a
// directory that is not empty.
func addForceFlag(fs *flagSet) *bool {
	return fs.Bool("force", false, "write into a non-empty directory: replace this command's own files there and leave every other file alone")
}

// addEnvFlag defines the repeatable --env KEY[=VALUE].
func addEnvFlag(fs *flagSet, env *stringsFlag) {
	fs.Var(env, "env", "give the package's server the variable `KEY[=VALUE]`; KEY alone passes code2skill's own value (repeatable)")
}

// sourcesFlags binds --source-root and the repeatable --source-map ID=PATH,
// the flags of every command that resolves evidence locators to files.
type sourcesFlags struct {
	sources contract.Sources
}

func addSourcesFlags(fs *flagSet) *sourcesFlags {
	f := &sourcesFlags{}
	addSourceRootFlag(fs, &f.sources.Base)
	addSourceMapFlag(fs, &f.sources)
	return f
}

// addSourceRootFlag defines --source-root, which stores the absolute path
// of the directory it names in root.
func addSourceRootFlag(fs *flagSet, root *string) {
	fs.Func("source-root", "the directory `D` of the application's source: a strict package's relative source roots "+
		"are resolved against it, and a go-stdio package's local replace directives may lead into it", func(v string) error {
		switch {
		case v == "":
			return errors.New("must not be empty")
		case *root != "":
			return errors.New("is given twice: name one directory")
		}
		abs, err := filepath.Abs(v)
		if err != nil {
			return err
		}
		*root = abs
		return nil
	})
}

// addSourceMapFlag defines the repeatable --source-map ID=PATH.
func addSourceMapFlag(fs *flagSet, sources *contract.Sources) {
	fs.Func("source-map", "where the declared source ID is on this machine, `ID=PATH` with an absolute PATH (repeatable)", sources.AddMapping)
}
