package core

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/pkgdir"
)

// Tests that prove something, for go-stdio.
//
// As for node (coverage.go), passing tests say nothing of a Tool whose
// Function no test calls. go test therefore writes a cover profile of the
// module's own packages (-coverpkg=./...: the Function core, the server,
// every helper), and validate requires each Tool's Function, the one its
// mcp.AddTool handler calls, to have run at least once. A profile lists
// blocks as "import/path/file.go:line.col,line.col statements count";
// a Function ran when a block of its body has a count. Each request a
// module function sends with Do and checks the error of must also have
// been answered once: the statement after the check, which starts a block
// of its own, ran (node's check of the code after an await).

// The test run writes its cover profile into a coverage directory
// (coverage.go), as node's processes write theirs.

func (d *coverageDir) profile() string { return filepath.Join(d.dir, "cover.out") }

// goTestArgs are go test's coverage flags.
func (d *coverageDir) goTestArgs() []string {
	return []string{"-coverpkg=./...", "-coverprofile=" + d.profile()}
}

// goBlock is a block of a cover profile that ran.
type goBlock struct {
	start, end goPos
}

type goPos struct{ line, col int }

func (p goPos) before(q goPos) bool {
	return p.line < q.line || p.line == q.line && p.col <= q.col
}

// goCoverage maps a package-relative file to the blocks of it that ran.
type goCoverage map[string][]goBlock

// maxGoProfile bounds the cover profile read.
const maxGoProfile = 64 << 20

// readGoProfile reads a cover profile, keeping the blocks of the module's
// own files that ran: a block a test package's binary covered and another
// did not is listed by both.
func readGoProfile(file, module string) (goCoverage, error) {
	b, err := pkgdir.ReadFile(file, maxGoProfile)
	if err != nil {
		return nil, err
	}
	cov := goCoverage{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			if !strings.HasPrefix(line, "mode: ") {
				return nil, fmt.Errorf("not a cover profile: %q", clipText(line, 40))
			}
			first = false
			continue
		}
		name, block, count, err := parseProfileLine(line)
		if err != nil {
			return nil, fmt.Errorf("cover profile: %w", err)
		}
		rel, ok := strings.CutPrefix(name, module+"/")
		if !ok || count == 0 {
			continue // a replaced module's file, or a block that never ran
		}
		cov[rel] = append(cov[rel], block)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if first {
		return nil, fmt.Errorf("the cover profile is empty")
	}
	return cov, nil
}

// parseProfileLine reads "name.go:l.c,l.c n count".
func parseProfileLine(line string) (string, goBlock, int, error) {
	var b goBlock
	colon := strings.LastIndexByte(line, ':')
	fields := strings.Fields(line[colon+1:])
	if colon < 0 || len(fields) != 3 {
		return "", b, 0, fmt.Errorf("malformed line %q", clipText(line, 60))
	}
	from, to, ok := strings.Cut(fields[0], ",")
	var okFrom, okTo bool
	b.start, okFrom = parseGoPos(from)
	b.end, okTo = parseGoPos(to)
	count, err := strconv.Atoi(fields[2])
	if !ok || !okFrom || !okTo || err != nil {
		return "", b, 0, fmt.Errorf("malformed line %q", clipText(line, 60))
	}
	return line[:colon], b, count, nil
}

func parseGoPos(s string) (goPos, bool) {
	l, c, ok := strings.Cut(s, ".")
	line, err1 := strconv.Atoi(l)
	col, err2 := strconv.Atoi(c)
	return goPos{line, col}, ok && err1 == nil && err2 == nil
}

// ran reports whether a block inside [from, to] of file ran.
func (cov goCoverage) ran(file string, from, to token.Position) bool {
	lo, hi := goPos{from.Line, from.Column}, goPos{to.Line, to.Column}
	for _, b := range cov[file] {
		if lo.before(b.start) && b.end.before(hi) {
			return true
		}
	}
	return false
}

// judgeGoCoverage reads the profile a passing go test run wrote and
// requires each Tool's Function to have run.
func (c *checker) judgeGoCoverage(src *goSource, d *coverageDir) {
	module := c.goModule()
	cov, err := readGoProfile(d.profile(), module)
	if err != nil {
		if os.IsNotExist(err) {
			err = fmt.Errorf("go test wrote no profile")
		}
		c.add(RuleTestsCoverageMissing.New("tests", "the coverage of the test run could not be read (%v): whether the tests run each Tool's Function is not known", err))
		return
	}
	for _, file := range src.sortedFiles() {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		for _, t := range goTools(src, file, module) {
			fn, ok := src.funcs[t.fnDir][t.fnName]
			if t.name == "" || !ok || fn.decl.Body == nil {
				continue
			}
			body := fn.decl.Body
			if cov.ran(fn.file, src.fset.Position(body.Lbrace), src.fset.Position(body.Rbrace+1)) {
				continue
			}
			c.add(src.at(RuleTestsFunctionNotRun, fn.file, fn.decl.Pos(), "tool %q's Function %s never ran in the tests: "+
				"call it with a fake HTTP transport in the runtime context and pin the request it sends and the result it returns; passing tests that never run it prove nothing about it",
				t.name, t.fnName))
		}
	}
	c.checkGoAnswers(src, cov)
}

// goTestPackages are the patterns of the module's packages that have test
// files, the ones ./... would test: go test then spends nothing on the
// others, which a cover profile would otherwise list one go tool covdata
// run each (at 0%). Without any, ./... lets go test say so.
func (c *checker) goTestPackages(src *goSource) []string {
	modules := map[string]bool{} // directories of modules of their own
	for _, f := range c.pkg.Match("**/go.mod") {
		if d := path.Dir(f.Path); d != "." {
			modules[d] = true
		}
	}
	nested := map[string]bool{}
	for file := range src.files {
		for dir := path.Dir(file); dir != "."; dir = path.Dir(dir) {
			if modules[dir] {
				nested[file] = true
			}
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, file := range src.sortedFiles() {
		if !strings.HasSuffix(file, "_test.go") || nested[file] || !goListed(file) {
			continue
		}
		p := "./" + path.Dir(file)
		if path.Dir(file) == "." {
			p = "."
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return []string{"./..."}
	}
	return out
}

// goListed reports whether ./... reaches the directory of a file: no
// element of its path is testdata or vendor, or starts with . or _.
func goListed(file string) bool {
	elems := strings.Split(path.Dir(file), "/")
	for _, e := range elems {
		if e == "testdata" || e == "vendor" || e != "." && (strings.HasPrefix(e, ".") || strings.HasPrefix(e, "_")) {
			return false
		}
	}
	return true
}

// goRequestSite is a request a module function sends and then reads: the
// statement that calls Do, and the first statement that runs only when
// the call returned an answer (after the error check that follows it).
type goRequestSite struct {
	file        string
	call        token.Pos // the Do call
	next        token.Pos // where the code after the answer starts
	body        *ast.BlockStmt
	description string
}

// goRequestSites finds, in the module's non-test files, each statement
// "…, err := X.Do(…)" (or "=") followed by "if err != nil { … }" and then
// another statement: the answer's code is that statement, a cover block
// of its own. A request returned as it is ("return X.Do(req)") is read by
// its caller and has no site here.
func goRequestSites(src *goSource) []goRequestSite {
	var out []goRequestSite
	for _, file := range src.sortedFiles() {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f := src.files[file]
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				block, ok := n.(*ast.BlockStmt)
				if !ok {
					return true
				}
				for i, st := range block.List {
					call, errName := doAssignment(st)
					if call == nil || i+2 >= len(block.List) || !errorCheck(block.List[i+1], errName) {
						continue
					}
					out = append(out, goRequestSite{file: file, call: call.Pos(), next: block.List[i+2].Pos(), body: fd.Body,
						description: clipText(types.ExprString(call), 60)})
				}
				return true
			})
		}
	}
	return out
}

// doAssignment returns the Do call a statement assigns with its error,
// and the error's name.
func doAssignment(st ast.Stmt) (*ast.CallExpr, string) {
	as, ok := st.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
		return nil, ""
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	id, isIdent := as.Lhs[1].(*ast.Ident)
	if !ok || sel.Sel.Name != "Do" || !isIdent || id.Name == "_" {
		return nil, ""
	}
	return call, id.Name
}

// errorCheck reports whether st is "if err != nil { … }" for errName.
func errorCheck(st ast.Stmt, errName string) bool {
	is, ok := st.(*ast.IfStmt)
	if !ok || is.Init != nil {
		return false
	}
	be, ok := is.Cond.(*ast.BinaryExpr)
	if !ok || be.Op != token.NEQ {
		return false
	}
	x, ok := be.X.(*ast.Ident)
	y, ok2 := be.Y.(*ast.Ident)
	return ok && ok2 && x.Name == errName && y.Name == "nil"
}

// covers reports whether a block of file holding pos ran.
func (cov goCoverage) covers(file string, pos token.Position) bool {
	p := goPos{pos.Line, pos.Column}
	for _, b := range cov[file] {
		if b.start.before(p) && !b.end.before(p) {
			return true
		}
	}
	return false
}

// checkGoAnswers reports each request whose function ran in the tests but
// whose answer's code never did: no test's fake transport answered it.
func (c *checker) checkGoAnswers(src *goSource, cov goCoverage) {
	for _, s := range goRequestSites(src) {
		body := s.body
		if !cov.ran(s.file, src.fset.Position(body.Lbrace), src.fset.Position(body.Rbrace+1)) || cov.covers(s.file, src.fset.Position(s.next)) {
			continue
		}
		c.add(src.at(RuleTestsRequestNotAnswered, s.file, s.call, "the request sent here (%s) never got an answer in the tests, though its function ran: "+
			"no test's fake transport answered it, so what the code does with a response is untested", s.description))
	}
}
