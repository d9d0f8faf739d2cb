package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/code2skill/code2skill/internal/buildinfo"
)

func versionCmd() *command {
	c := &command{
		name:    "version",
		summary: "print the code2skill version",
		about: `Prints the code2skill version (the module version "go install" recorded, or
"devel"), the version control revision it was built from when the build
recorded one ("+modified" when the working tree had changes), and the Go
version it was built with.`,
		exits: `Exit codes:
  0  the version was printed
  2  usage error
`,
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		if len(pos) > 0 {
			return usageError(stdio, c, "unexpected argument %q", pos[0])
		}
		bi, _ := debug.ReadBuildInfo()
		fmt.Fprintln(stdio.Out, versionLine(bi))
		return ExitPassed
	}
	return c
}

// versionLine renders "code2skill <version> (<revision>[+modified], <go>)"
// from the build information, leaving out what the build did not record.
func versionLine(bi *debug.BuildInfo) string {
	version, revision := buildinfo.FromBuildInfo(bi)
	goVersion, modified := "unknown Go version", false
	if bi != nil {
		goVersion = bi.GoVersion
		for _, s := range bi.Settings {
			if s.Key == "vcs.modified" {
				modified = s.Value == "true"
			}
		}
	}
	var about []string
	if revision != "" {
		if modified {
			revision += "+modified"
		}
		about = append(about, "revision "+revision)
	}
	about = append(about, goVersion)
	return fmt.Sprintf("code2skill %s (%s)", version, strings.Join(about, ", "))
}
