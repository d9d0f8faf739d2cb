// Package core checks core-export-v1 packages, the default package profile:
// a small runnable package of Skills, a Function core, a stdio MCP server and
// offline tests (spec 003).
//
// Validate runs three stages and reports each on its own, so that a summary
// never claims more than was checked:
//
//   - structure: layout, Skills, package.json, MCP-SETUP.md and every
//     JavaScript file (syntax, environment reads and their fallbacks,
//     credentials, annotations against the requests), the Skills against
//     the Tools and the scaffold's placeholders, checked in-process without
//     running anything;
//   - discovery: the MCP server started in the sandbox and asked, through the
//     official Go SDK, for initialize and tools/list, whose Tools' inputs
//     are checked for credentials, addresses and generic proxies;
//   - tests: the package's own tests under node --test in the sandbox, with
//     CODE2SKILL_DRY_RUN=1, CI=1 and no network.
//
// Validate never installs dependencies, never runs npm scripts and never
// reaches the network itself.
package core

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/endpoint"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/skillmd"
)

// Profile is the package.json code2skill.profile value of core packages.
const Profile = "core-export-v1"

// Stage outcomes.
type Stage string

const (
	StagePassed Stage = "passed"
	StageFailed Stage = "failed"
	StageNotRun Stage = "not-run"
)

// Options tune Validate.
type Options struct {
	// SkipTests checks the structure only: nothing of the package is run.
	SkipTests bool
	// TestTimeout limits the node --test run; 0 means DefaultTestTimeout.
	TestTimeout time.Duration
	// RequestTimeout limits each MCP request; 0 means
	// DefaultRequestTimeout.
	RequestTimeout time.Duration
	// InitializeTimeout, when set, limits the first MCP request instead,
	// which waits for the server to start.
	InitializeTimeout time.Duration
	// Progress receives one line per stage; nil discards it.
	Progress io.Writer
	// SourceRoots are the authorised source roots of a go-stdio package
	// whose go.mod replaces a module with the application's own source
	// (style B): a replace must lead inside one of them.
	SourceRoots []string
}

// The time limits Validate applies when Options leaves them zero.
const (
	DefaultTestTimeout    = 2 * time.Minute
	DefaultRequestTimeout = 10 * time.Second
)

// The flags that raise validate's time limits, named by the finding of a
// limit reached: the tests' (go vet and go build of a go-stdio package
// get it plus buildTime) and each MCP request's.
const (
	timeoutFlag        = "validate --test-timeout"
	requestTimeoutFlag = "validate --request-timeout"
)

// buildTime is what a go command of a go-stdio package gets beyond the
// tests' time limit: compiling comes first. A variable for the tests.
var buildTime = 3 * time.Minute

func (o Options) testTimeout() time.Duration {
	if o.TestTimeout > 0 {
		return o.TestTimeout
	}
	return DefaultTestTimeout
}

func (o Options) requestTimeout() time.Duration {
	if o.RequestTimeout > 0 {
		return o.RequestTimeout
	}
	return DefaultRequestTimeout
}

// Result is the outcome of Validate.
type Result struct {
	Diagnostics diag.List
	Structure   Stage
	Discovery   Stage
	Tests       Stage
	// RequiresHostIntegration is package.json code2skill.requiresHostIntegration:
	// the package cannot complete its goals without the host's help, so
	// runtime verification stays open whatever passes here.
	RequiresHostIntegration bool
	// Requests is the stage of the reachability calls, made in the
	// discovery session: what each Tool sends (internal/reach).
	Requests        Stage
	Reach           *ReachSummary // nil when the calls were not made
	ProtocolVersion string        // negotiated during discovery
	Tools           []string      // tool names from tools/list, in server order
	TestCounts      *TestCounts   // nil when the tests did not run
	// Isolation is the weakest isolation any of the package's processes
	// got; nil when nothing ran.
	Isolation *sandbox.Isolation
	// NodeProcesses counts the node processes started, including the
	// per-file children of node --test.
	NodeProcesses int
	// Runtime is the package's runtime profile: node-stdio or go-stdio.
	Runtime pkgdir.Runtime
}

// ErrNodeMissing means node is not on PATH, so the package cannot be run.
var ErrNodeMissing = errors.New("node is not on PATH; install Node.js 20 or later, or pass --skip-tests to check the structure only")

// checker holds the state of one validation.
type checker struct {
	pkg    *pkgdir.Package
	opts   Options
	result *Result
	mu     sync.Mutex // guards result and failures while stages run concurrently
	failed []error
	// Filled by the structure stage, read after it:
	declared map[string]int            // per test file, the tests it declares that must run (jsmod's TestsDeclared)
	envVars  []string                  // the environment variables the package's code reads
	public   endpoint.List             // the public endpoints package.json declares
	modules  map[string]*jsmod.Module  // the package's own modules (not its tests) that parse, by path
	tests    map[string]*jsmod.Module  // the test files that parse, by path
	skills   map[string]*skillmd.Skill // the Skills that parse, by path
	// listed is the tools/list answer of discovery; nil when it did not
	// run or failed.
	listed []mcpcheck.Tool
	// pendingPost are the warnings about read-only Tools whose Function
	// writes POST, until the reachability calls settle them.
	pendingPost map[string]diag.Diagnostic
	// view is what the package's processes may see of node_modules.
	viewOnce sync.Once
	view     *pkgdir.ModuleView
}

func newChecker(pkg *pkgdir.Package, opts Options, res *Result) *checker {
	return &checker{
		pkg: pkg, opts: opts, result: res,
		declared: map[string]int{},
		modules:  map[string]*jsmod.Module{},
		tests:    map[string]*jsmod.Module{},
		skills:   map[string]*skillmd.Skill{},
	}
}

func (c *checker) add(ds ...diag.Diagnostic) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.result.Diagnostics.Add(ds...)
}

func (c *checker) failure(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.failed = append(c.failed, err)
}

func (c *checker) hasFindings(rules ...*diag.Rule) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.ContainsFunc(rules, c.result.Diagnostics.Has)
}

// noteIsolation records the isolation one of the package's processes got;
// the result keeps the weakest.
func (c *checker) noteIsolation(iso sandbox.Isolation) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.result.Isolation != nil {
		iso = sandbox.Weakest(*c.result.Isolation, iso)
	}
	c.result.Isolation = &iso
}

// reportIsolation says what the package's processes could reach, once all
// have run.
func (c *checker) reportIsolation() {
	iso := c.result.Isolation
	if iso == nil {
		return
	}
	if !iso.NetworkDenied {
		c.add(RuleNetworkOpen.New("", "the package ran with network access: %s", iso.Detail))
	}
	c.add(sandbox.Findings(*iso)...)
}

func (c *checker) progress(format string, args ...any) {
	if c.opts.Progress != nil {
		fmt.Fprintf(c.opts.Progress, format+"\n", args...)
	}
}

// Validate checks the core-export-v1 package in dir. Findings about the
// package are in the Result; the error reports that validation itself could
// not be done (node missing, I/O failure).
func Validate(ctx context.Context, dir string, opts Options) (*Result, error) {
	res := &Result{Structure: StageNotRun, Discovery: StageNotRun, Requests: StageNotRun, Tests: StageNotRun, Runtime: pkgdir.RuntimeNode}
	pkg, ds, err := pkgdir.Open(dir)
	if err != nil {
		return nil, err
	}
	res.Diagnostics.Add(ds...)
	if pkg == nil {
		res.Structure = StageFailed
		return res, nil
	}
	c := newChecker(pkg, opts, res)
	if pkgdir.DetectCoreGo(dir) {
		res.Runtime = pkgdir.RuntimeGo
		return c.validateGo(ctx)
	}
	if !opts.SkipTests {
		// The walk of node_modules is file-system work: do it while the
		// structure stage parses.
		go c.moduleView()
	}

	c.progress("checking structure")
	skills := c.checkLayout()
	m := c.checkManifest()
	if m != nil {
		res.RequiresHostIntegration = m.host
		c.public = m.public
	}
	c.checkSkills(skills)
	c.envVars = c.checkScripts()
	c.checkDroppedCalls()
	c.checkSetup(c.envVars)
	c.checkAnnotations()
	c.checkPlaceholders()
	c.checkIllustrativeRequests()
	res.Structure = StagePassed
	if res.Diagnostics.HasErrors() {
		res.Structure = StageFailed
	}

	if opts.SkipTests {
		c.crossCheck(nil)
		return res, nil
	}
	if _, err := sandbox.LookPath("node"); err != nil {
		return nil, ErrNodeMissing
	}
	if !c.runnable() || !c.dependenciesInstalled() {
		c.crossCheck(nil)
		return res, nil
	}

	// Discovery and tests are independent node processes: run them side by
	// side so that the package's start-up costs are paid once in wall time.
	var wg sync.WaitGroup
	if pkg.Has("mcp-tool/index.mjs") {
		wg.Go(func() {
			c.progress("starting the MCP server for initialize and tools/list")
			c.discover(ctx)
		})
	}
	if files := c.testFiles(); len(files) > 0 {
		wg.Go(func() {
			c.progress("running %d test file(s) with node --test", len(files))
			c.runTests(ctx, files)
		})
	}
	wg.Wait()
	return c.ranPackage(ctx)
}

// ranPackage ends a validation whose package processes have run: it
// reports their isolation, fails on what kept a stage from being judged,
// and checks the Skills against the listed Tools.
func (c *checker) ranPackage(ctx context.Context) (*Result, error) {
	c.reportIsolation()
	if len(c.failed) > 0 {
		return nil, errors.Join(c.failed...)
	}
	c.crossCheck(c.listed)
	return c.result, ctx.Err()
}

// crossCheck checks the Skills against the server's Tools, once the
// tools/list answer is known (listed is nil when discovery did not run).
// Its findings belong to the structure stage.
func (c *checker) crossCheck(listed []mcpcheck.Tool) {
	c.flushPost()
	before := c.errors()
	c.checkSkillTools(listed)
	if c.errors() > before {
		c.result.Structure = StageFailed
	}
}

func (c *checker) errors() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, _ := c.result.Diagnostics.Counts()
	return e
}

// dependenciesInstalled checks that the MCP SDK and zod resolve from the
// package the way node resolves them (node_modules here or in a parent
// directory). It reports a finding and returns false when they do not.
func (c *checker) dependenciesInstalled() bool {
	var missing []string
	for _, dep := range runtimeDeps {
		if !resolves(c.pkg.Dir(), dep) {
			missing = append(missing, dep)
		}
	}
	if len(missing) == 0 {
		return true
	}
	how := "npm install"
	if c.pkg.Has("package-lock.json") {
		how = "npm ci"
	}
	c.add(RuleDepsMissing.New("package.json", "%s not installed, so the MCP server and tests were not run; run %q in the package first (npm ci with a package-lock.json, npm install without one)", joinAnd(missing), how))
	return false
}

// resolves reports whether node would find the package name from dir: a
// node_modules/<name>/package.json in dir or one of its parents.
func resolves(dir, name string) bool {
	for {
		if fi, err := os.Stat(filepath.Join(dir, "node_modules", filepath.FromSlash(name), "package.json")); err == nil && fi.Mode().IsRegular() {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}
