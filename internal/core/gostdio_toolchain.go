package core

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/reach"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/scratch"
)

// ErrGoMissing means the go command is not on PATH, so a go-stdio package
// cannot be built.
var ErrGoMissing = errors.New("go is not on PATH; install Go 1.25 or later")

// GoCacheVariable names the build cache validate shares between runs
// (default: code2skill/go-build in the user's cache directory). Only the
// toolchain writes it: go vet and go build, while the package's code does
// not run (CGO_ENABLED=0). go test, which runs it, sees the cache
// read-only under a layer of its own (testCache).
const GoCacheVariable = "CODE2SKILL_GOCACHE"

// goToolchain is where the user's go command and its module cache are.
type goToolchain struct {
	goroot   string
	modcache string
	cache    string
	// layered shows the cache read-only under a layer of the run's own.
	layered bool
	version string
	// work is GOTMPDIR, a directory on disk: the go command's work files
	// do not fit the sandbox's small TMPDIR.
	work string
}

// userGoVars are the user's variables go env reads to say where the module
// cache is.
var userGoVars = []string{"GOPATH", "GOMODCACHE", "GOENV", "XDG_CONFIG_HOME", "GOROOT"}

// locateGo asks the user's go command, in the sandbox, where its module
// cache is (go env), with the user's HOME and go variables so that the
// answer is the one the user's own go mod download used.
func locateGo(ctx context.Context) (*goToolchain, error) {
	bin, err := sandbox.LookPath("go")
	if err != nil {
		return nil, ErrGoMissing
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return nil, fmt.Errorf("locating go: %w", err)
	}
	env := []string{"GOTOOLCHAIN=local", "GOFLAGS=", "GOWORK=off"}
	if home, err := os.UserHomeDir(); err == nil {
		env = append(env, "HOME="+home)
	}
	for _, k := range userGoVars {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	var binds []sandbox.Bind
	root := filepath.Dir(filepath.Dir(real)) // …/go/bin/go
	binds = append(binds, sandbox.Bind{Source: root})
	if cfg, err := os.UserConfigDir(); err == nil {
		if f := filepath.Join(cfg, "go", "env"); fileExists(f) {
			binds = append(binds, sandbox.Bind{Source: f})
		}
	}
	res, err := sandbox.Run(ctx, []string{"go", "env", "-json", "GOROOT", "GOMODCACHE", "GOVERSION"}, sandbox.Options{
		Dir: os.TempDir(), Env: env, Binds: binds, Timeout: 30 * time.Second,
	})
	if err != nil {
		return nil, fmt.Errorf("go env: %w", err)
	}
	var out struct{ GOROOT, GOMODCACHE, GOVERSION string }
	if res.ExitCode != 0 || canonjson.Unmarshal(res.Stdout, &out) != nil || out.GOROOT == "" || out.GOMODCACHE == "" {
		return nil, fmt.Errorf("go env did not say where the toolchain and the module cache are (exit %d): %s", res.ExitCode, tail(res.Stderr, 5))
	}
	cache := os.Getenv(GoCacheVariable)
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("locating a build cache: %w (set %s)", err, GoCacheVariable)
		}
		cache = filepath.Join(dir, "code2skill", "go-build")
	}
	if err := os.MkdirAll(cache, 0o700); err != nil {
		return nil, fmt.Errorf("creating the build cache: %w", err)
	}
	return &goToolchain{goroot: out.GOROOT, modcache: out.GOMODCACHE, cache: cache, version: out.GOVERSION}, nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// env is what every go command of the package runs with: the module cache
// read-only and no proxy (the build is offline), go.mod and go.sum as they
// are, the settings MCP-SETUP.md gives the consumer's build (no cgo, so
// the package's code does not run while it builds), the build cache.
func (tc *goToolchain) env() []string {
	env := []string{
		"GOROOT=" + tc.goroot,
		"GOMODCACHE=" + tc.modcache,
		"GOCACHE=" + tc.cache,
		"GOPROXY=off",
		"GONOSUMDB=", "GOSUMDB=off",
		"GOTOOLCHAIN=local",
		"GOTELEMETRY=off",
		"GOTMPDIR=" + tc.work,
	}
	for _, s := range goBuildSettings {
		if strings.HasPrefix(s, "GOFLAGS=") {
			// The sandbox has no git: no VCS stamp, which changes no code.
			s += " -buildvcs=false"
		}
		env = append(env, s)
	}
	return env
}

// binds are what the go command sees besides the package: its toolchain
// and the module cache read-only, the build cache writable, and the
// directories local replaces lead to, read-only.
func (tc *goToolchain) binds(replaced []string) []sandbox.Bind {
	bs := []sandbox.Bind{{Source: tc.goroot}, {Source: tc.cache, Writable: true, Layer: tc.layered}, {Source: tc.work, Writable: true}}
	if fi, err := os.Stat(tc.modcache); err == nil && fi.IsDir() {
		bs = append(bs, sandbox.Bind{Source: tc.modcache})
	}
	for _, d := range replaced {
		bs = append(bs, sandbox.Bind{Source: d})
	}
	return bs
}

// testCache returns the toolchain go test runs with, whose package code
// must leave nothing behind in a build cache a later build reads: the
// shared cache read-only under a writable layer of the run's own (capped
// at sandbox.LayerSize, gone when the run ends) where a mount namespace
// exists, elsewhere a cache of the run's own, removed by done.
func (tc *goToolchain) testCache() (t *goToolchain, done func(), err error) {
	own := *tc
	if sandbox.Mounts(sandbox.DenyNetwork) {
		own.layered = true
		return &own, func() {}, nil
	}
	if own.cache, err = scratch.Dir("", "code2skill-go-test-cache-"); err != nil {
		return nil, nil, err
	}
	return &own, func() { scratch.Remove(own.cache) }, nil
}

// goLimit is the time limit of each go command of the package.
func (c *checker) goLimit() time.Duration { return c.opts.testTimeout() + buildTime }

// goTimeout is the finding of a go command stopped at its time limit:
// raise says how to give it more time.
func goTimeout(command string, limit time.Duration, raise string, out []byte) diag.Diagnostic {
	return RuleGoTimeout.New("", "%s did not finish within %s and was stopped (a cold build cache compiles every module first); %s", command, limit, raise).WithDetail(tail(out, tailLines))
}

// goRun runs one go command of the package in the sandbox.
func (c *checker) goRun(ctx context.Context, tc *goToolchain, replaced []string, extraEnv []string, extraBinds []sandbox.Bind, args ...string) (*sandbox.Result, error) {
	res, err := sandbox.Run(ctx, append([]string{"go"}, args...), sandbox.Options{
		Dir:     c.pkg.Dir(),
		Env:     append(tc.env(), extraEnv...),
		Binds:   append(tc.binds(replaced), extraBinds...),
		Timeout: c.goLimit(),
	})
	if err != nil {
		return nil, fmt.Errorf("go %s: %w", args[0], err)
	}
	c.noteIsolation(res.Isolation)
	return res, nil
}

// moduleFailure reports a go command that failed because the build needs
// a module the cache lacks, and says so (once, however many commands met
// it); it returns false for any other failure.
func (c *checker) moduleFailure(out []byte) bool {
	d, ok := modulesMissing(out)
	if ok {
		c.goFindings([]diag.Diagnostic{d})
	}
	return ok
}

// modulesMissing returns the finding for a go command's output that says
// the build needs a module the cache or go.sum lacks.
func modulesMissing(out []byte) (diag.Diagnostic, bool) {
	s := string(out)
	for _, sign := range []string{"GOPROXY=off", "missing go.sum entry", "updates to go.mod needed", "go: downloading", "no required module provides", "cannot find module providing"} {
		if strings.Contains(s, sign) {
			return RuleGoModulesMissing.New("go.mod", "the build needs modules the module cache or go.sum lacks; run \"go mod download\" (and \"go mod tidy\" if go.sum is incomplete) in the package first: the build is offline").WithDetail(tail(out, 8)), true
		}
	}
	return diag.Diagnostic{}, false
}

// goProxyVars are the user's variables go mod download honours to reach
// the module proxy: proxies, private modules, checksum database.
var goProxyVars = []string{"GOPROXY", "GONOPROXY", "GOPRIVATE", "GONOSUMDB", "GONOSUMCHECK", "GOSUMDB", "GOINSECURE",
	"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy", "SSL_CERT_FILE", "SSL_CERT_DIR"}

// GoModDownload runs go mod download in the package dir, the user's step
// before validate (as npm ci is for node-stdio): in the sandbox with the
// network allowed, the user's proxy settings and the user's module cache
// writable. Modules the cache holds are not fetched again.
func GoModDownload(ctx context.Context, dir string) error {
	tc, err := locateGo(ctx)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(tc.modcache, 0o755); err != nil {
		return fmt.Errorf("creating the module cache: %w", err)
	}
	env := []string{"GOROOT=" + tc.goroot, "GOMODCACHE=" + tc.modcache, "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=-mod=readonly -buildvcs=false", "GOTELEMETRY=off"}
	for _, k := range goProxyVars {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	res, err := sandbox.Run(ctx, []string{"go", "mod", "download"}, sandbox.Options{
		Dir:     dir,
		Env:     env,
		Binds:   []sandbox.Bind{{Source: tc.goroot}, {Source: tc.modcache, Writable: true}},
		Timeout: 10 * time.Minute,
		Network: sandbox.AllowNetwork,
	})
	switch {
	case err != nil:
		return fmt.Errorf("go mod download: %w", err)
	case res.TimedOut:
		return errors.New("go mod download did not finish within 10m")
	case res.ExitCode != 0:
		return fmt.Errorf("go mod download failed (exit %d): check the network and GOPROXY (go env GOPROXY)\n%s", res.ExitCode, tail(res.Stderr, 20))
	}
	return nil
}

// GoServer is the MCP server of a go-stdio package, built offline into a
// directory of its own.
type GoServer struct {
	// Path is the built binary; Bind shows its directory to a sandboxed
	// child read-only.
	Path string
	Bind sandbox.Bind
	dir  string
}

// Remove deletes the built server.
func (s *GoServer) Remove() { scratch.Remove(s.dir) }

// BuildGoServer builds ./mcp-tool of the go-stdio package in dir as
// validate does (offline, module cache read-only, the shared build cache,
// the replaced directories read-only), for the commands that start its
// server (probe, the equivalence checks). A build that fails returns no
// server and its finding (CORE_GO_BUILD, or CORE_GO_MODULES_MISSING); the
// error means the build could not be tried.
func BuildGoServer(ctx context.Context, dir string, replaced []string) (*GoServer, []diag.Diagnostic, error) {
	tc, err := locateGo(ctx)
	if err != nil {
		return nil, nil, err
	}
	if tc.work, err = scratch.Dir("", "code2skill-go-work-"); err != nil {
		return nil, nil, err
	}
	defer scratch.Remove(tc.work)
	return buildGoServer(ctx, tc, dir, replaced, nil, func(sandbox.Isolation) {}, goBuildLimit,
		"build it once with code2skill validate, whose builds fill the shared build cache ("+timeoutFlag+" raises their limit), then try again")
}

// goBuildLimit bounds the build of BuildGoServer.
const goBuildLimit = 5 * time.Minute

// stripped links without the symbol table and DWARF, which nothing reads
// (a panic's trace comes from the runtime's own tables): a quarter of a
// build's time.
const stripped = "-ldflags=-s -w"

// buildGoServer builds ./mcp-tool of the package in dir into a directory
// of its own, with the request recorder compiled in when rec is not nil,
// within limit (raise says how to raise it), and tells note the isolation
// the build got.
func buildGoServer(ctx context.Context, tc *goToolchain, dir string, replaced []string, rec *reach.Driver, note func(sandbox.Isolation), limit time.Duration, raise string) (*GoServer, []diag.Diagnostic, error) {
	out, err := scratch.Dir("", "code2skill-go-server-")
	if err != nil {
		return nil, nil, err
	}
	server := filepath.Join(out, "server")
	args := []string{"go", "build", "-trimpath", stripped}
	binds := append(tc.binds(replaced), sandbox.Bind{Source: out, Writable: true})
	if rec != nil {
		args = append(args, "-overlay", rec.Path)
		binds = append(binds, rec.Bind())
	}
	res, err := sandbox.Run(ctx, append(args, "-o", server, "./mcp-tool"), sandbox.Options{
		Dir: dir, Env: tc.env(), Binds: binds, Timeout: limit,
	})
	if err != nil {
		scratch.Remove(out)
		return nil, nil, fmt.Errorf("go build ./mcp-tool: %w", err)
	}
	note(res.Isolation)
	if res.ExitCode != 0 || res.TimedOut {
		scratch.Remove(out)
		output := append(append([]byte{}, res.Stderr...), res.Stdout...)
		if res.TimedOut {
			return nil, []diag.Diagnostic{goTimeout("go build ./mcp-tool", limit, raise, output)}, nil
		}
		if d, ok := modulesMissing(output); ok {
			return nil, []diag.Diagnostic{d}, nil
		}
		return nil, []diag.Diagnostic{RuleGoBuild.New(pkgdir.GoServerFile, "go build ./mcp-tool failed (exit %d)", res.ExitCode).WithDetail(tail(output, tailLines))}, nil
	}
	return &GoServer{Path: server, Bind: sandbox.Bind{Source: out}, dir: out}, nil, nil
}
