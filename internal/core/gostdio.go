package core

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"
	"sync"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/reach"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/scratch"
)

// goRequiredFiles are the files every go-stdio package has besides its
// Skills (docs/go-stdio.md).
var goRequiredFiles = []string{"go.mod", "go.sum", setupFile, assets.GoAgentResult.Name(), pkgdir.GoServerFile}

// validateGo checks a package of the go-stdio runtime profile: the
// structure (layout, Skills, go.mod, MCP-SETUP.md, the Go code through
// go/ast), then, with the user's go command in the sandbox and offline,
// go vet, go build of the MCP server, its discovery over MCP, and go test.
func (c *checker) validateGo(ctx context.Context) (*Result, error) {
	res := c.result
	c.progress("checking structure (go-stdio)")
	skills := c.checkGoLayout()
	c.checkAuditFiles()
	c.checkSkills(skills)
	var setup []byte
	if b, err := c.pkg.ReadFile(setupFile); err == nil {
		setup = b
	}
	_, replaced := c.checkGoMod(setup)
	src := c.parseGo()
	c.checkGoSource(src)
	c.checkGoConstrained(src)
	c.checkGoIllustrative(src)
	c.envVars = goEnvVars(src)
	c.checkSetup(c.envVars)
	c.checkPlaceholders()
	res.Structure = StagePassed
	if res.Diagnostics.HasErrors() {
		res.Structure = StageFailed
	}
	if c.opts.SkipTests {
		c.crossCheck(nil)
		return res, nil
	}
	if c.hasFindings(RuleGoReplaceOutside, RuleGoModInvalid) {
		// A module the build would read from outside the authorised
		// roots is not built.
		c.crossCheck(nil)
		return res, nil
	}
	tc, err := locateGo(ctx)
	if err != nil {
		return nil, err
	}
	if tc.work, err = scratch.Dir("", "code2skill-go-work-"); err != nil {
		return nil, err
	}
	defer scratch.Remove(tc.work)
	// The server is built with the request recorder in its package main
	// (go build -overlay): the binary discovery starts is the package's
	// own code plus the recorder, as node's gets driver.cjs preloaded.
	rec, err := reach.WriteGoRecorder()
	if err != nil {
		return nil, err
	}
	defer rec.Remove()

	// go vet, the build and discovery, and go test are independent go
	// commands: run them side by side, as node's discovery and tests are.
	var wg sync.WaitGroup
	wg.Go(func() {
		c.progress("go vet ./... (offline, module cache read-only)")
		c.vetGo(ctx, tc, replaced)
	})
	wg.Go(func() {
		c.progress("go build ./mcp-tool (with the request recorder), then initialize and tools/list")
		server, findings, err := buildGoServer(ctx, tc, c.pkg.Dir(), replaced, rec, c.noteIsolation, c.goLimit(), "raise the limit with "+timeoutFlag)
		switch {
		case err != nil:
			c.failure(err)
		case server == nil:
			c.goFindings(findings)
		default:
			defer server.Remove()
			c.discoverGo(ctx, server)
		}
	})
	wg.Go(func() {
		c.progress("running go test")
		c.runGoTests(ctx, tc, replaced, src)
	})
	wg.Wait()
	return c.ranPackage(ctx)
}

// vetGo runs go vet ./... in the sandbox.
func (c *checker) vetGo(ctx context.Context, tc *goToolchain, replaced []string) {
	vet, err := c.goRun(ctx, tc, replaced, nil, nil, "vet", "./...")
	if err != nil {
		c.failure(err)
		return
	}
	out := append(append([]byte{}, vet.Stderr...), vet.Stdout...)
	switch {
	case vet.TimedOut:
		c.goFindings([]diag.Diagnostic{goTimeout("go vet ./...", c.goLimit(), "raise the limit with "+timeoutFlag, out)})
	case vet.ExitCode == 0:
	case !c.moduleFailure(out):
		c.goFindings([]diag.Diagnostic{RuleGoVet.New("", "go vet ./... failed (exit %d)", vet.ExitCode).WithDetail(tail(out, tailLines))})
	}
}

// goFindings adds findings of the go command that fail the structure
// stage: a module the cache lacks is said once, whichever command met it.
func (c *checker) goFindings(ds []diag.Diagnostic) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range ds {
		if d.Rule == RuleGoModulesMissing.ID && c.result.Diagnostics.Has(RuleGoModulesMissing) {
			continue
		}
		c.result.Diagnostics.Add(d)
	}
	c.result.Structure = StageFailed
}

// checkGoLayout checks the files of a go-stdio package and finds its
// Skills, as checkLayout does for node-stdio.
func (c *checker) checkGoLayout() []skillFile {
	for _, f := range goRequiredFiles {
		if !c.pkg.Has(f) {
			c.add(RuleMissingFile.New(f, "required file is missing"))
		}
	}
	if len(c.pkg.Match("function-core/*.go")) == 0 {
		c.add(RuleMissingFile.New("function-core", "the Function core package (function-core/*.go) is missing"))
	}
	if len(c.pkg.Match("**/*_test.go")) == 0 {
		c.add(RuleNoTests.New("tests", "no *_test.go file; add offline go test tests that use a fake HTTP transport"))
	}
	if name := assets.GoAgentResult.Name(); c.pkg.Has(name) {
		if b, err := c.pkg.ReadFile(name); err == nil && !assets.GoAgentResult.Matches(b) {
			c.add(RuleAssetModified.New(name, "differs from the reviewed asset of this code2skill version (sha256 %s); copy it again rather than editing it, or review the change", assets.GoAgentResult.SHA256()))
		}
	}
	for _, f := range []string{"package.json", "package-lock.json"} {
		if c.pkg.Has(f) {
			c.add(RuleGoModProfile.New(f, "a go-stdio package has no %s: go.mod is its dependency manifest", f))
		}
	}
	c.checkGoWorkspace()
	for _, f := range strictFiles {
		if c.pkg.Has(f) {
			c.add(RuleStrictFile.New(f, "strict-export audit file in a core-export-v1 package; remove it, or make the package strict-export-v1"))
		}
	}
	skills := c.checkLayoutSkills()
	return skills
}

// discoverGo starts the built server in the sandbox and checks it through
// the same MCP session checks as a node server, then makes the
// reachability calls in the same session.
func (c *checker) discoverGo(ctx context.Context, server *GoServer) {
	cfg := c.reachConfig()
	setup := reach.NewSetup(cfg)
	d, err := mcpcheck.DiscoverThen(ctx, c.pkg.Dir(), mcpcheck.Options{
		RequestTimeout:    c.opts.requestTimeout(),
		InitializeTimeout: c.opts.InitializeTimeout,
		TimeoutFlag:       requestTimeoutFlag,
		Profile:           mcpcheck.ProfileCore,
		Label:             "discovery",
		Binds:             []sandbox.Bind{server.Bind},
		Command:           []string{server.Path},
		Env:               setup.Env(),
	}, func(ctx context.Context, s *mcpcheck.Session, tools []mcpcheck.Tool) error {
		return c.checkRequests(ctx, s, tools, setup, cfg)
	})
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			c.failure(fmt.Errorf("MCP discovery: %w", err))
		}
		return
	}
	c.noteIsolation(d.Isolation)
	c.mu.Lock()
	c.result.ProtocolVersion = d.ProtocolVersion
	for _, t := range d.Tools {
		c.result.Tools = append(c.result.Tools, t.Name)
	}
	c.result.Discovery = StagePassed
	if d.Diagnostics.HasErrors() {
		c.result.Discovery = StageFailed
	}
	if d.ProtocolVersion != "" && !d.Diagnostics.Has(mcpcheck.RuleToolsList) {
		c.listed = append([]mcpcheck.Tool{}, d.Tools...)
	}
	c.mu.Unlock()
	// The session's checks name node's entry point; here it is main.go.
	c.add(diag.Relocate(d.Diagnostics.Sorted(), mcpcheck.ServerFile, pkgdir.GoServerFile)...)
	c.add(diag.Relocate(checkToolInputs(d.Tools), mcpcheck.ServerFile, pkgdir.GoServerFile)...)
	if c.result.Reach == nil {
		c.add(reach.RuleNotChecked.New(pkgdir.GoServerFile, "no Tool's requests were checked: the server did not list its tools (see the discovery findings)"))
	}
}

// goTestEvent is one line of go test -json.
type goTestEvent struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// runGoTests runs go test ./... in the sandbox under the dry-run
// variable, without network, counts the tests from its JSON events and,
// when they pass, judges what they ran (gostdio_coverage.go).
func (c *checker) runGoTests(ctx context.Context, tc *goToolchain, replaced []string, src *goSource) {
	cov, err := newCoverageDir()
	if err != nil {
		c.failure(err)
		return
	}
	defer cov.remove()
	tc, done, err := tc.testCache()
	if err != nil {
		c.failure(err)
		return
	}
	defer done()
	// go vet ./... has checked every package, test files included, with
	// all its analyzers: go test's own vet pass would repeat a part of it.
	args := append([]string{"test", "-vet=off", stripped, "-json", "-count=1", "-timeout", c.opts.testTimeout().String()}, cov.goTestArgs()...)
	res, err := c.goRun(ctx, tc, replaced, testEnv, []sandbox.Bind{cov.bind()}, append(args, c.goTestPackages(src)...)...)
	if err != nil {
		c.failure(err)
		return
	}
	counts := &TestCounts{}
	var failedNames []string
	var output strings.Builder
	for _, line := range strings.Split(string(res.Stdout), "\n") {
		var ev goTestEvent
		if canonjson.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		if ev.Action == "output" {
			output.WriteString(ev.Output)
		}
		if ev.Test == "" || strings.Contains(ev.Test, "/") {
			continue // package events and subtests: the top-level tests are counted
		}
		switch ev.Action {
		case "pass":
			counts.Tests++
			counts.Passed++
		case "fail":
			counts.Tests++
			counts.Failed++
			failedNames = append(failedNames, ev.Test)
		case "skip":
			counts.Tests++
			counts.Skipped++
		}
	}
	c.mu.Lock()
	c.result.TestCounts = counts
	c.mu.Unlock()
	out := append(append([]byte{}, res.Stderr...), []byte(output.String())...)
	switch {
	case res.TimedOut:
		// Compiling the tests took the time go test itself would have had.
		c.add(RuleTestsTimeout.New("", "go test did not finish within %s and was stopped; raise the limit with %s", c.goLimit(), timeoutFlag).WithDetail(tail(out, tailLines)))
	case strings.Contains(string(out), "panic: test timed out after"):
		c.add(RuleTestsTimeout.New("", "go test's tests did not finish within %s and were stopped; raise the limit with %s", c.opts.testTimeout(), timeoutFlag).WithDetail(tail(out, tailLines)))
	case res.ExitCode != 0 && counts.Tests == 0 && c.moduleFailure(out):
	case res.ExitCode != 0 && len(failedNames) == 0:
		c.add(RuleTestsFailed.New("", "go test ./... failed (exit %d) before any test failed: a package does not build", res.ExitCode).WithDetail(tail(out, tailLines)))
	case len(failedNames) > 0:
		c.add(RuleTestsFailed.New("", "%s failed: %s", plural(len(failedNames), "test"), summarizeNames(failedNames)).WithDetail(tail(out, tailLines)))
	case counts.Tests == 0 || counts.Skipped == counts.Tests:
		c.add(RuleTestsNone.New("", "go test ran no test, or skipped every one"))
	}
	if !c.hasFindings(RuleTestsTimeout, RuleTestsFailed, RuleTestsNone, RuleGoModulesMissing) {
		c.judgeGoCoverage(src, cov)
	}
	stage := StagePassed
	if c.hasFindings(RuleTestsTimeout, RuleTestsFailed, RuleTestsNone, RuleGoModulesMissing, RuleTestsFunctionNotRun, RuleTestsRequestNotAnswered) {
		stage = StageFailed
	}
	c.mu.Lock()
	c.result.Tests = stage
	c.mu.Unlock()
}

// goEnvVars are the environment variables the package's Go code reads:
// the literal names given to an environment read, and the constants
// holding a variable's name that the code passes on.
func goEnvVars(src *goSource) []string {
	seen := map[string]bool{}
	var out []string
	add := func(v string) {
		if envVarName.MatchString(v) && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, file := range src.sortedFiles() {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		for _, v := range goEnvNames(src.files[file]) {
			add(v)
		}
	}
	return out
}

var envVarName = regexp.MustCompile(`^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$`)

// goEnvNames lists the string literals a file gives to an environment
// read, and the values of its string constants named like variables that
// it passes as arguments.
func goEnvNames(f *ast.File) []string {
	consts := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if i < len(vs.Values) {
					if v, ok := goString(vs.Values[i]); ok {
						consts[n.Name] = v
					}
				}
			}
		}
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		for _, a := range call.Args {
			if v, ok := goString(a); ok && envRead(call) {
				out = append(out, v)
			}
			if id, ok := a.(*ast.Ident); ok {
				if v, ok := consts[id.Name]; ok {
					out = append(out, v)
				}
			}
		}
		return true
	})
	return out
}
