package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/npm"
	"github.com/code2skill/code2skill/internal/owned"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

const (
	defaultDemoDir = "code2skill-demo"
	// demoManifest records the files demo wrote, so that --force replaces
	// those and nothing else.
	demoManifest = ".code2skill-demo"
	// npmTimeout bounds the whole install.
	npmTimeout = 10 * time.Minute
	// registryProbe bounds the check that the registry answers.
	registryProbe = 10 * time.Second
)

func demoCmd() *command {
	c := &command{
		name:    "demo",
		summary: "write the bundled example package, install it and validate it",
		args:    "[dir]",
		about: `Writes the bundled example package to dir (default ./` + defaultDemoDir + `), installs
its pinned dependencies with "npm ci --ignore-scripts", then runs
"code2skill validate" on it and prints the report. The example is a
fictional community seed library: three Skills, one per goal, over four
Tools (two HTTP reads, and two writes that honour dry-run), base URLs from
per-service environment variables, and offline tests that mock fetch.

npm is looked up before anything is written, and runs in the sandbox with
the network allowed and your npm setup: the registry, proxies and tokens of
your npm configuration (~/.npmrc or $npm_config_userconfig) and your npm
cache. It installs from the cache when it can; only when the cache lacks
something is the registry asked, which must first answer within ` + registryProbe.String() + `, or
demo stops with a message naming it. The install is the only step that
uses the network.

demo records the files it wrote in dir/` + demoManifest + `. A non-empty dir is
refused unless --force is given, and --force only refreshes a previous
demo: a file demo wrote that you changed since, or a file of yours where
the example wants one, refuses the whole write.

With --runtime go-stdio, the Go twin of the example (the same Skills and
Tools as a Go module on the official Go MCP SDK) is written to dir, its
modules fetched with "go mod download" (your GOPROXY and module cache; the
only step that uses the network), then validated. It needs go, not npm.

With --strict, the strict flow end to end on a fictional sample
application: demo writes its source (a small HTTP backend written in Go and
the client calls that use it) to dir/source and its authored strict package
to dir/` + examples.StrictSampleName + ` (default dir ./` + defaultStrictDemoDir + `), serves the sample backend
in-process on a loopback port, runs "code2skill pipeline init" and
"code2skill pipeline run --enable-runtime-verify --enable-host-verify" with
the sample's writes authorised for this run, the base URL and a member token
made up for the run given as the host would give them, stops the backend
and prints each capability's verification. A row is runtime-verified only
when its live call reached the sample backend, and host-verified only when
the reference MCP host's checks held against it. It needs node, not npm,
and prints the report of pipeline run.`,
		exits: `Exit codes:
  0  the example passed
  1  the example did not pass (findings were reported)
  2  usage error, or dir holds files demo did not write (or changed since)
  3  npm (or go) is missing, the install failed, or dir could not be written
`,
		topics: []string{"formats", "sandbox"},
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		runtime := addRuntimeFlag(fs)
		strictFlow := fs.Bool("strict", false, "run the strict flow on the sample application instead")
		force := addForceFlag(fs)
		format := addFormatFlag(fs)
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		dir := defaultDemoDir
		if *strictFlow {
			dir = defaultStrictDemoDir
		}
		switch len(pos) {
		case 0:
		case 1:
			dir = pos[0]
		default:
			return usageError(stdio, c, "at most one directory")
		}
		if *strictFlow && *runtime != string(pkgdir.RuntimeNode) {
			return usageError(stdio, c, "--runtime does not apply to --strict")
		}
		if strings.TrimSpace(dir) == "" {
			return usageError(stdio, c, "the directory is empty; name one, or leave it out for ./%s", defaultDemoDir)
		}
		if *strictFlow {
			return runStrictDemo(ctx, stdio, c, format, dir, *force)
		}
		switch pkgdir.Runtime(*runtime) {
		case pkgdir.RuntimeNode:
		case pkgdir.RuntimeGo:
			return runGoDemo(ctx, stdio, c, format, dir, *force)
		default:
			return usageError(stdio, c, "--runtime must be node-stdio or go-stdio, not %q", *runtime)
		}
		// Everything that could stop the install is checked before
		// anything is written.
		if _, err := sandbox.LookPath("npm"); err != nil {
			fmt.Fprintln(stdio.Err, "code2skill demo: npm is not on PATH; install Node.js 20 or later (it ships npm); nothing was written")
			return ExitFailure
		}
		home, _ := os.UserHomeDir()
		install, err := npm.Prepare(os.LookupEnv, home)
		if err != nil {
			fmt.Fprintf(stdio.Err, "code2skill demo: %v; nothing was written\n", err)
			return ExitFailure
		}
		files, err := exampleFiles()
		if err != nil {
			fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
			return ExitFailure
		}
		var conflict *owned.ConflictError
		switch err := owned.Write(dir, demoManifest, files, *force); {
		case errors.Is(err, owned.ErrNotEmpty):
			return usageError(stdio, c, "%s exists and is not empty; choose another directory, or pass --force to refresh a previous demo there", dir)
		case errors.As(err, &conflict):
			return usageError(stdio, c, "%v; nothing was written", err)
		case err != nil:
			fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
			return ExitFailure
		}
		fmt.Fprintf(stdio.Err, "wrote the example package to %s\n", dir)
		if err := npmCI(ctx, stdio, dir, install); err != nil {
			fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
			return ExitFailure
		}
		fmt.Fprintf(stdio.Err, "validating %s\n", dir)
		return runValidate(ctx, stdio, format, dir, demoValidation(stdio.Progress), isolationFlag{new(bool)})
	}
	return c
}

// exampleFiles returns the files of the bundled example.
func exampleFiles() ([]atomicfile.File, error) { return filesOf(examples.SeedLibrary()) }

// filesOf returns the files of an embedded example.
func filesOf(src fs.FS) ([]atomicfile.File, error) {
	var files []atomicfile.File
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		files = append(files, atomicfile.File{Path: p, Data: data, Perm: 0o644})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the example package: %w", err)
	}
	return files, nil
}

// npmCI installs the package's locked dependencies without running any
// install script. It is the one step of the demo that uses the network:
// the install is tried from the npm cache first, and only when the cache
// lacks something is the registry, once it has answered a probe, asked.
func npmCI(ctx context.Context, stdio *Stdio, dir string, install *npm.Install) error {
	fmt.Fprintln(stdio.Err, "installing the pinned dependencies with npm ci")
	res, err := runNPM(ctx, dir, install, "--offline")
	if err != nil {
		return err
	}
	if res.ExitCode != 0 && npm.NotCached(res.Stderr) {
		fmt.Fprintf(stdio.Err, "the npm cache lacks some of them: asking the registry %s (network)\n", install.Registry)
		if err := install.Reachable(ctx, registryProbe); err != nil {
			return fmt.Errorf("the npm registry %s could not be reached: %v; check the network, the proxy settings and the registry of your npm configuration (npm config get registry)", install.Registry, err)
		}
		if res, err = runNPM(ctx, dir, install, "--prefer-offline"); err != nil {
			return err
		}
	}
	switch {
	case res.TimedOut:
		return fmt.Errorf("npm ci did not finish within %s", npmTimeout)
	case res.ExitCode != 0:
		out := append(append([]byte(nil), res.Stderr...), res.Stdout...)
		tail := lastLines(strings.TrimSpace(string(out)), 20)
		if code, url, ok := npm.Unreachable(out); ok {
			where := "the npm registry"
			if url != "" {
				where += " (" + url + ")"
			}
			return fmt.Errorf("%s could not be reached: %s; check the network, the proxy settings and the registry of your npm configuration (npm config get registry)\n%s", where, code, tail)
		}
		return fmt.Errorf("npm ci failed (exit %d)\n%s", res.ExitCode, tail)
	}
	fmt.Fprint(stdio.Progress, string(res.Stdout))
	return nil
}

// runNPM runs npm ci in dir with one more flag (--offline or
// --prefer-offline).
func runNPM(ctx context.Context, dir string, install *npm.Install, mode string) (*sandbox.Result, error) {
	res, err := sandbox.Run(ctx, []string{"npm", "ci", mode, "--ignore-scripts", "--no-audit", "--no-fund"}, sandbox.Options{
		Dir:         dir,
		WritableDir: true,
		Binds:       install.Binds,
		Env:         install.Env,
		Timeout:     npmTimeout,
		Network:     sandbox.AllowNetwork,
	})
	switch {
	case errors.Is(err, sandbox.ErrNotFound):
		return nil, errors.New("npm is not on PATH; install Node.js 20 or later (it ships npm)")
	case err != nil:
		return nil, fmt.Errorf("npm ci: %w", err)
	}
	return res, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
