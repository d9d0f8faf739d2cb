package code2skill

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/golden"

	// The packages whose rules the test enumerates register them when
	// imported.
	_ "github.com/code2skill/code2skill/internal/contractcheck"
	_ "github.com/code2skill/code2skill/internal/strict"
)

// strictRoots are the packages of the two strict commands a Producer runs
// on a contract: check-contract and the strict validate. Every rule of
// them and of the packages they import can reach a Producer as a finding.
var strictRoots = []string{"internal/contractcheck", "internal/strict"}

// ruleSource is one package that registers rules, and the rules.
type ruleSource struct {
	dir string // relative to the module root
	ids []string
}

// strictRuleSources walks the imports of strictRoots inside the module and
// returns, for each package that registers rules, the IDs of its
// diag.Register calls, read from its Go source.
func strictRuleSources(t *testing.T) []ruleSource {
	t.Helper()
	seen := map[string]bool{}
	var out []ruleSource
	var visit func(dir string)
	visit = func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		pkg, err := build.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		ids := registeredRules(t, dir, pkg.GoFiles)
		if len(ids) > 0 {
			out = append(out, ruleSource{dir: filepath.ToSlash(dir), ids: ids})
		}
		for _, imp := range pkg.Imports {
			if rel, ok := strings.CutPrefix(imp, modulePath+"/"); ok {
				visit(filepath.FromSlash(rel))
			}
		}
	}
	for _, r := range strictRoots {
		visit(filepath.FromSlash(r))
	}
	slices.SortFunc(out, func(a, b ruleSource) int { return strings.Compare(a.dir, b.dir) })
	return out
}

// registeredRules returns the rule IDs the files register with
// diag.Register, sorted. A call whose ID is not a string literal fails the
// test: the enumeration would miss it.
func registeredRules(t *testing.T, dir string, files []string) []string {
	t.Helper()
	var ids []string
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Register" || len(call.Args) == 0 {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); !ok || (x.Name != "diag" && !strings.HasSuffix(dir, "diag")) {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				t.Errorf("%s: a diag.Register call whose ID is not a string literal", fset.Position(call.Pos()))
				return true
			}
			id, _ := strconv.Unquote(lit.Value)
			ids = append(ids, id)
			return true
		})
	}
	slices.Sort(ids)
	return ids
}

// strictReferences returns the text of the generate Skill's strict
// references (references/strict-*.md), file by file.
func strictReferences(t *testing.T) map[string]string {
	t.Helper()
	const dir = "code2skill-generate/references"
	entries, err := fs.ReadDir(Skills(), dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "strict-") && strings.HasSuffix(e.Name(), ".md") {
			b, err := fs.ReadFile(Skills(), path.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = string(b)
		}
	}
	return out
}

// TestStrictRulesAreInTheSkill: every rule a finding of check-contract or
// the strict validate can carry is named in the generate Skill's strict
// references, so that a Producer who meets it finds what it means there.
func TestStrictRulesAreInTheSkill(t *testing.T) {
	refs := strictReferences(t)
	var all strings.Builder
	for _, text := range refs {
		all.WriteString(text)
		all.WriteString("\n")
	}
	text := all.String()
	n := 0
	for _, src := range strictRuleSources(t) {
		for _, id := range src.ids {
			n++
			if _, ok := diag.Lookup(id); !ok {
				t.Errorf("%s registers %s, which the registry does not hold", src.dir, id)
			}
			if !regexp.MustCompile(`(^|[^A-Z0-9_])` + id + `($|[^A-Z0-9_])`).MatchString(text) {
				t.Errorf("rule %s (%s) is named in none of the Skill's strict references", id, src.dir)
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d strict rules enumerated: the walk of the imports missed packages", n)
	}
}

// findingsIndex is where, in the generate Skill, a Producer reads about
// the findings of each package's rules.
var findingsIndex = []struct {
	dir, title, where string
}{
	{"internal/canonjson", "JSON syntax of every input", "Any JSON file of the package: fix the syntax or the duplicate key at the reported line."},
	{"internal/compile", "compile (the generate stage of the pipeline)", "[strict-flow.md](strict-flow.md) (Function core, MCP runtime) and, for `authoring/tool-docs.json`, [strict-documents.md](strict-documents.md#tool-prose)."},
	{"internal/contamination", "the contamination gate", "[strict-flow.md](strict-flow.md) (Evidence and status): no machine path, secret or source copy in the package."},
	{"internal/contract", "reading the Portable Core files", "[strict-contract.md](strict-contract.md): the record and field the pointer names."},
	{"internal/contractcheck", "check-contract", "[strict-contract.md](strict-contract.md): the record the pointer names; evidence roles in its \"Evidence roles\" section."},
	{"internal/derive", "derive", "[strict-contract.md](strict-contract.md): feature boundary, source topology and capability structure."},
	{"internal/diag", "the finding format", "A limit of the report itself."},
	{"internal/finalcheck", "the final files (after finalize)", "[strict-flow.md](strict-flow.md) (Finalise, Evidence and status): never hand-write a final file; run the pipeline."},
	{"internal/hostruntime", "the host runtime binding", "[strict-flow.md](strict-flow.md) (Host runtime)."},
	{"internal/jsmod", "reading the package's JavaScript", "[strict-flow.md](strict-flow.md) (Function core, MCP runtime): regenerate, never edit compiled files."},
	{"internal/pkgdir", "reading the package directory", "[strict-flow.md](strict-flow.md) (Package layout): regular files only, no links, bounded sizes."},
	{"internal/skillmd", "the Agent Skills format of SKILL.md", "[strict-documents.md](strict-documents.md#skillmd)."},
	{"internal/strict", "strict validate (files, views, documents, matrix)", "Documents (`STRICT_DOC_*`, `STRICT_SKILL_*`, `STRICT_MCPDOC_*`, `STRICT_SETUP_*`, `STRICT_CONTEXT_*`): [strict-documents.md](strict-documents.md). The rest: [strict-flow.md](strict-flow.md) (Package layout, Host runtime)."},
	{"internal/strictjs", "the runtime rules (validate's runtime stage)", "[strict-flow.md](strict-flow.md) (Function core, MCP runtime): the compiled files are compile's; change the contract instead."},
	{"internal/verdict", "the verification matrix and verdicts", "[strict-flow.md](strict-flow.md) (Finalise, Evidence and status)."},
}

// TestStrictFindingsIndex keeps references/strict-findings.md, the index
// of every strict rule by the check that reports it, in step with the
// registry. CODE2SKILL_UPDATE=1 go test -run TestStrictFindingsIndex
// rewrites it.
func TestStrictFindingsIndex(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# Strict findings\n\n")
	b.WriteString("Every rule ID a finding of `code2skill check-contract`, `code2skill validate` on a strict\n")
	b.WriteString("package, or the pipeline's analyze, generate and verify stages can carry, grouped by the\n")
	b.WriteString("check that reports it, with its severity, its purpose and where this Skill explains what\n")
	b.WriteString("to change. A finding names its file and a line or JSON pointer: start there. Generated from\n")
	b.WriteString("the rule registry; `code2skill rules` prints the same purposes.\n")
	for _, src := range strictRuleSources(t) {
		i := slices.IndexFunc(findingsIndex, func(e struct{ dir, title, where string }) bool { return e.dir == src.dir })
		if i < 0 {
			t.Errorf("%s registers strict rules but findingsIndex does not say where the Skill explains them", src.dir)
			continue
		}
		e := findingsIndex[i]
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n", e.title, e.where)
		for _, id := range src.ids {
			r, ok := diag.Lookup(id)
			if !ok {
				t.Errorf("%s is not registered", id)
				continue
			}
			fmt.Fprintf(&b, "- `%s` (%s): %s\n", id, r.Severity, r.Purpose)
		}
	}
	golden.Check(t, filepath.Join("skills", "code2skill-generate", "references", "strict-findings.md"), b.Bytes())
}
