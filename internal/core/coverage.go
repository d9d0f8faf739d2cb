package core

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// Tests that prove something.
//
// "17/17 tests passed" says nothing about a Tool whose Function no test
// calls: one assert.ok(true) passes too. The test run therefore collects
// V8's own coverage (NODE_V8_COVERAGE: every node process writes the
// block counts of every script it ran), and validate reads it:
//
//   - each Tool's Function (the export of a package module its handler
//     refers to) must have run at least once;
//   - each await of a request in the package's modules (fetch, or a
//     module function that sends one; jsmod.RequestAwaits) that ran must
//     have continued at least once: the code after it ran, so some test
//     answered the request. The sandbox denies the network, so that answer
//     came from a test's mock. A request reached only through a helper
//     other Tools share is proven once for all of them.
//
// V8 counts a function's calls and, inside it, the blocks that ran,
// including the continuation after each await; offsets are in UTF-16 code
// units of the source.

// coverageDir is where the test run's node processes write their coverage.
type coverageDir struct {
	dir string
}

func newCoverageDir() (*coverageDir, error) {
	dir, err := os.MkdirTemp("", "code2skill-coverage-")
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("preparing the test coverage directory: %w", err)
	}
	return &coverageDir{dir: dir}, nil
}

// bind shows the coverage directory to the test run: where a mount
// namespace exists, as a directory of the run's own capped at
// sandbox.CollectSize whose files are copied here once it has ended;
// elsewhere as this directory itself, uncapped, as HOME is there.
func (d *coverageDir) bind() sandbox.Bind {
	return sandbox.Bind{Source: d.dir, Writable: true, Collect: sandbox.Mounts(sandbox.DenyNetwork)}
}
func (d *coverageDir) env() string { return "NODE_V8_COVERAGE=" + d.dir }
func (d *coverageDir) remove()     { os.RemoveAll(d.dir) }

// v8Function is one function of a script in a coverage report.
type v8Function struct {
	Name   string    `json:"functionName"`
	Ranges []v8Range `json:"ranges"`
}

type v8Range struct {
	Start int `json:"startOffset"`
	End   int `json:"endOffset"`
	Count int `json:"count"`
}

// coverage is what the test processes ran of the package's modules: per
// module, the functions of each process that loaded it.
type coverage map[string][][]v8Function

// maxCoverageFile bounds one coverage report read (the SDK's and zod's
// scripts are in it too).
const maxCoverageFile = 64 << 20

// packageScripts returns the functions a coverage report lists for the
// package's modules. A report holds every script the process ran, node's
// own and the dependencies' too, so the package's are found by their URL
// before anything is decoded: V8 writes each script as
// {"scriptId":…,"url":…,"functions":[…]}.
func packageScripts(report, prefix []byte, moduleOf map[string]string) (map[string][]v8Function, error) {
	out := map[string][]v8Function{}
	for off := 0; ; {
		at := bytes.Index(report[off:], prefix)
		if at < 0 {
			return out, nil
		}
		at += off
		off = at + len(prefix)
		end := bytes.IndexByte(report[at+len(`"url":"`):], '"')
		if end < 0 {
			return nil, errors.New("a script's url does not end")
		}
		m, ok := moduleOf[string(report[at+len(`"url":"`):at+len(`"url":"`)+end])]
		if !ok {
			continue // a test file, a dependency
		}
		start := bytes.LastIndex(report[:at], []byte(`{"scriptId"`))
		if start < 0 {
			return nil, errors.New("a script entry does not start with its scriptId")
		}
		var script struct {
			Functions []v8Function `json:"functions"`
		}
		if err := canonjson.UnmarshalFirst(report[start:], &script); err != nil {
			return nil, err
		}
		out[m] = script.Functions
	}
}

// read reads the reports the test processes wrote, keeping the package's
// own modules, and counts the reports. A module no test process loaded
// has no entry.
func (d *coverageDir) read(pkgDir string, modules []string) (coverage, int, error) {
	moduleOf := map[string]string{}
	for _, m := range modules {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(pkgDir, filepath.FromSlash(m)))}
		moduleOf[u.String()] = m
	}
	root := url.URL{Scheme: "file", Path: filepath.ToSlash(pkgDir) + "/"}
	prefix := []byte(`"url":"` + root.String())
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, 0, err
	}
	cov, reports := coverage{}, 0
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || !e.Type().IsRegular() {
			continue
		}
		b, err := pkgdir.ReadFile(filepath.Join(d.dir, e.Name()), maxCoverageFile)
		if err != nil {
			return nil, 0, err
		}
		reports++
		found, err := packageScripts(b, prefix, moduleOf)
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", e.Name(), err)
		}
		for _, m := range modules {
			if fns, ok := found[m]; ok {
				cov[m] = append(cov[m], fns)
			}
		}
	}
	return cov, reports, nil
}

// calls counts the calls of a module's function by name, over all
// processes (a name declared twice counts its most called declaration).
func (cov coverage) calls(module, name string) int {
	total := 0
	for _, fns := range cov[module] {
		most := 0
		for _, f := range fns {
			if f.Name == name && len(f.Ranges) > 0 {
				most = max(most, f.Ranges[0].Count)
			}
		}
		total += most
	}
	return total
}

// at returns, over all processes, how often the code at a UTF-16 offset
// ran, and how often the function holding it did.
func (cov coverage) at(module string, offset int) (code, function int) {
	for _, fns := range cov[module] {
		var inner, innerFn *v8Range
		for _, f := range fns {
			for i := range f.Ranges {
				r := &f.Ranges[i]
				if r.Start > offset || offset >= r.End {
					continue
				}
				if inner == nil || r.End-r.Start <= inner.End-inner.Start {
					inner = r
				}
				if i == 0 && (innerFn == nil || r.End-r.Start <= innerFn.End-innerFn.Start) {
					innerFn = r
				}
			}
		}
		if inner != nil {
			code += inner.Count
		}
		if innerFn != nil {
			function += innerFn.Count
		}
	}
	return code, function
}

// utf16Offset converts a byte offset of src into UTF-16 code units.
func utf16Offset(src []byte, off int) int {
	n := 0
	for i := 0; i < off && i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// afterAwait returns the byte offset where the code after an await
// starts: past the semicolon and the space that end its statement.
func afterAwait(src []byte, end int) int {
	i := end
	skip := func() {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
			i++
		}
	}
	if i < len(src) && src[i] == ';' {
		i++
		skip()
	}
	return i
}

// judgeCoverage reads the coverage a passing test run wrote and judges it;
// without any report, it says that what the tests ran is not known.
func (c *checker) judgeCoverage(cov *coverageDir) {
	covered, reports, err := cov.read(c.pkg.Dir(), c.coveredModules())
	if err != nil || reports == 0 {
		why := "node wrote no report"
		if err != nil {
			why = err.Error()
		}
		c.add(RuleTestsCoverageMissing.New("tests", "the coverage of the test run could not be read (%s): whether the tests run each Tool's Function is not known", why))
		return
	}
	c.checkCoverage(covered)
}

// checkCoverage judges the coverage of a passing test run.
func (c *checker) checkCoverage(cov coverage) {
	for f := range c.toolFunctions() {
		if cov.calls(f.module, f.local) > 0 {
			continue
		}
		d := RuleTestsFunctionNotRun.New(f.module, "tool %q's Function %s never ran in the tests: "+
			"call it with a mocked request (context.fetch) and pin the request it sends and the result it returns; passing tests that never run it prove nothing about it",
			f.tool, f.imported)
		if pos := c.modules[f.module].TopLevelFunctionPos(f.local); pos.IsValid() {
			d = d.At(pos.Line, pos.Column)
		}
		c.add(d)
	}
	for _, file := range sortedKeys(c.modules) {
		m := c.modules[file]
		src, err := c.pkg.ReadFile(file)
		if err != nil {
			continue
		}
		for _, a := range m.RequestAwaits() {
			code, fn := cov.at(file, utf16Offset(src, afterAwait(src, a.End)))
			if fn > 0 && code == 0 {
				c.add(RuleTestsRequestNotAnswered.New(file, "the request awaited here (%s) never got an answer in the tests, though its function ran %s: "+
					"no test answered it with a mock (context.fetch or the client's stand-in), so what the Function does with a response is untested",
					clipText(a.Operand, 60), plural(fn, "time")).At(a.Pos.Line, a.Pos.Column))
			}
		}
	}
}

// toolFunc is a Function a Tool's handler imports.
type toolFunc struct {
	tool     string // the Tool's name
	module   string // the module the Function is declared in
	local    string // its name there
	imported string // the name the handler imports it by
}

// toolFunctions yields the Functions the literal registrations' handlers
// import, registrations in module and source order.
func (c *checker) toolFunctions() iter.Seq[toolFunc] {
	return func(yield func(toolFunc) bool) {
		for _, file := range sortedKeys(c.modules) {
			for _, r := range c.modules[file].ToolRegistrations() {
				if r.Name == "" {
					continue
				}
				for _, use := range r.Uses {
					if target, local := c.toolFunction(file, use); local != "" {
						if !yield(toolFunc{tool: r.Name, module: target, local: local, imported: use.Name}) {
							return
						}
					}
				}
			}
		}
	}
}

// toolFunction returns the module and local name of the Function a Tool's
// handler imports, or "" for an import that is not one (a package, the
// reviewed result projection).
func (c *checker) toolFunction(from string, use jsmod.ImportRef) (string, string) {
	if use.Name == "*" || use.Name == "default" || !isRelative(use.Specifier) {
		return "", ""
	}
	target := path.Clean(path.Join(path.Dir(from), use.Specifier))
	m, ok := c.modules[target]
	if !ok || target == assets.AgentResult.Name() {
		return "", ""
	}
	return target, m.LocalFunction(use.Name)
}

// coveredModules lists the package modules whose coverage matters.
func (c *checker) coveredModules() []string {
	return slices.DeleteFunc(sortedKeys(c.modules), func(m string) bool { return m == assets.AgentResult.Name() })
}

func clipText(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
