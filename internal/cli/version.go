package cli

import (
	"context"
	"fmt"
	"runtime/debug"
)

// Version is the code2skill version. Release builds set it with
// -ldflags "-X github.com/code2skill/code2skill/internal/cli.Version=v1.2.3";
// otherwise the module version recorded by "go install" is used.
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

func versionCmd() *command {
	c := &command{
		name:    "version",
		summary: "print the code2skill version",
		usage: `Usage: code2skill version

Prints the code2skill version and the Go version it was built with.
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
		goVersion := "unknown"
		if bi, ok := debug.ReadBuildInfo(); ok {
			goVersion = bi.GoVersion
		}
		fmt.Fprintf(stdio.Out, "code2skill %s (%s)\n", version(), goVersion)
		return ExitPassed
	}
	return c
}
