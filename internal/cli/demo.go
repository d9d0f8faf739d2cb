package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

const defaultDemoDir = "code2skill-demo"

func demoCmd() *command {
	c := &command{
		name:    "demo",
		summary: "write the bundled example package, install it and validate it",
		usage: `Usage: code2skill demo [dir] [--force] [--format text|json]
       code2skill demo --strict [dir] [--force] [--format text|json]

Writes the bundled example package (a fictional community seed library: one
Skill per goal, an HTTP read Tool, a write Tool that honours dry-run, base
URLs from per-service environment variables, offline tests that mock fetch)
to dir (default ./` + defaultDemoDir + `), installs its pinned dependencies with
"npm ci --ignore-scripts" (the only step that uses the network), then runs
"code2skill validate" on it and prints the report.

With --strict, the strict flow end to end on a fictional sample application:
writes its source (a small HTTP backend written in Go and the client calls
that use it) to dir/source and its authored strict package to dir/<name>
(default dir ./` + defaultStrictDemoDir + `), serves the sample backend in-process on a
loopback port, runs "code2skill pipeline init" and "code2skill pipeline run
--enable-runtime-verify --authorize-write <its write>" against it, stops
the backend and prints each capability's verification. Runtime-verified
rows are those whose live calls reached the sample backend; Host
verification is not done by the demo.

Flags:
  --strict              the strict flow on the sample application
  --force               replace dir when it exists and is not empty
  --format text|json    output format of the report (default text)

` + exitCodesHelp,
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		force := fs.Bool("force", false, "")
		strictFlow := fs.Bool("strict", false, "")
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
		empty, _, err := pkgdir.IsEmptyDir(dir)
		if err != nil {
			fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
			return ExitFailure
		}
		if !empty && !*force {
			return usageError(stdio, c, "%s exists and is not empty; choose another directory or pass --force to replace it", dir)
		}
		if *strictFlow {
			return runStrictDemo(ctx, stdio, c, format, dir)
		}
		if err := writeTree(dir, examples.SeedLibrary()); err != nil {
			fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
			return ExitFailure
		}
		fmt.Fprintf(stdio.Err, "wrote the example package to %s\n", dir)
		if err := npmCI(ctx, stdio, dir); err != nil {
			fmt.Fprintf(stdio.Err, "code2skill demo: %v\n", err)
			return ExitFailure
		}
		fmt.Fprintf(stdio.Err, "validating %s\n", dir)
		return runValidate(ctx, stdio, format, dir, core.Options{Progress: stdio.Progress})
	}
	return c
}

// writeTree makes dir hold exactly the files of src. An existing dir is
// replaced only once the new tree is complete, so an interrupted demo never
// leaves a half-written package.
func writeTree(dir string, src fs.FS) error {
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
		return fmt.Errorf("reading the example package: %w", err)
	}
	return atomicfile.ReplaceDir(dir, files)
}

// npmEnv passes npm the settings it needs to reach the registry the user
// configured (registry, proxies, CA bundle) and the user's npm cache, and
// nothing else: no tokens.
func npmEnv() []string {
	var env []string
	for _, k := range []string{
		"npm_config_registry", "NPM_CONFIG_REGISTRY",
		"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy",
		"NODE_EXTRA_CA_CERTS", "npm_config_cafile",
	} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	cache := os.Getenv("npm_config_cache")
	if cache == "" {
		if home, err := os.UserHomeDir(); err == nil {
			cache = filepath.Join(home, ".npm")
		}
	}
	if cache != "" {
		env = append(env, "npm_config_cache="+cache)
	}
	return append(env, "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
}

// npmCI installs the package's locked dependencies without running any
// install script. It is the one step of the demo that uses the network.
func npmCI(ctx context.Context, stdio *Stdio, dir string) error {
	fmt.Fprintln(stdio.Err, "installing the pinned dependencies with npm ci (network)")
	res, err := sandbox.Run(ctx, []string{"npm", "ci", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"}, sandbox.Options{
		Dir:     dir,
		Env:     npmEnv(),
		Timeout: 10 * time.Minute,
		Network: sandbox.AllowNetwork,
	})
	switch {
	case errors.Is(err, sandbox.ErrNotFound):
		return errors.New("npm is not on PATH; install Node.js 20 or later (it ships npm)")
	case err != nil:
		return fmt.Errorf("npm ci: %w", err)
	case res.TimedOut:
		return errors.New("npm ci did not finish within 10 minutes; is the npm registry reachable?")
	case res.ExitCode != 0:
		out := strings.TrimSpace(string(res.Stderr) + "\n" + string(res.Stdout))
		return fmt.Errorf("npm ci failed (exit %d); is the npm registry reachable?\n%s", res.ExitCode, lastLines(out, 20))
	}
	fmt.Fprint(stdio.Progress, string(res.Stdout))
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
