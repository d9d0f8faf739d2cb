package examples

import (
	"context"
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/examples/equipment-lending/app/client"
	"github.com/code2skill/code2skill/examples/equipment-lending/app/server"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/strict"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// writeFS writes every regular file of fsys under dir.
func writeFS(t testing.TB, fsys fs.FS, dir string) {
	t.Helper()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// strictSample writes the strict sample's source tree and a package built
// from its authored inputs the way a Producer builds it before verification:
// the inputs, the views derive computes, and the runtime files. It returns
// the package directory and the source tree's root.
//
// The runtime is what compile writes from the authored inputs.
func strictSample(t testing.TB) (pkg, src string) {
	t.Helper()
	return strictSampleOf(t, StrictSample())
}

// strictSampleOf is strictSample for the authored inputs in authored.
func strictSampleOf(t testing.TB, authored fs.FS) (pkg, src string) {
	t.Helper()
	src = t.TempDir()
	writeFS(t, StrictSampleSource(), src)
	pkg = filepath.Join(t.TempDir(), StrictSampleName)
	writeFS(t, authored, pkg)
	loaded, err := derive.Load(pkg)
	in, findings := loaded.Inputs, loaded.Read()
	if err != nil {
		t.Fatal(err)
	}
	if findings.Merge(derive.Check(in)); findings.HasErrors() {
		t.Fatalf("the strict sample's inputs do not derive: %v", findings.Sorted())
	}
	write := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(pkg, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range derive.Views(in) {
		write(v.Path, v.Data)
	}
	docs, list, err := compile.ReadToolDocs(pkg)
	if err != nil || list.HasErrors() {
		t.Fatalf("the strict sample's tool docs: %v %v", err, list.Sorted())
	}
	res, list := compile.Compile(&compile.Inputs{Core: in, ToolDocs: docs})
	if !res.Compiled() {
		t.Fatalf("the strict sample does not compile: %v", list.Sorted())
	}
	for _, f := range res.Files {
		write(f.Path, f.Data)
	}
	return pkg, src
}

// TestStrictSampleIsValid: the strict sample, derived, passes every stage of
// the strict validator that runs before finalization, with its evidence
// resolved against the sample application's sources.
func TestStrictSampleIsValid(t *testing.T) {
	pkg, src := strictSample(t)
	res := validSample(t, pkg, src)
	for _, s := range res.Stages {
		switch s.ID {
		case strict.StageFinal, strict.StageGenerated:
			// Not run: the package is not finalized.
		default:
			if s.Status != strict.Passed {
				t.Errorf("stage %s: %s (%s)", s.ID, s.Status, s.Note)
			}
		}
	}
}

// validSample validates the sample package at pkg before finalization,
// its evidence resolved under src: every finding is an error of the test,
// and the validator sees the sample's five capabilities.
func validSample(t *testing.T, pkg, src string) *strict.Result {
	t.Helper()
	res := strict.Validate(context.Background(), pkg, strict.Options{PreFinalize: true, Sources: contract.Sources{Base: src}})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	for _, d := range res.Diagnostics.Sorted() {
		t.Errorf("%s", d)
	}
	if res.Capabilities != 5 {
		t.Errorf("the validator saw %d capabilities, want 5", res.Capabilities)
	}
	return res
}

// TestStrictSampleInEnglish: the strict sample declared in English, with
// its documents, MCP.en.md and Tool prose written in English, passes every
// stage of the strict validator that runs before finalization; with the
// Chinese documents and prose it fails the English rules, and the English
// documents fail the Chinese rules.
func TestStrictSampleInEnglish(t *testing.T) {
	pkg, src := strictSampleOf(t, StrictSampleEnglish())
	if _, err := os.Stat(filepath.Join(pkg, "MCP.zh-CN.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the English sample carries MCP.zh-CN.md: %v", err)
	}
	validSample(t, pkg, src)
	opts := strict.Options{PreFinalize: true, Sources: contract.Sources{Base: src}}
	var res *strict.Result

	// The same package with the Chinese documents: the English rules
	// refuse them, and the Chinese MCP document is not the one they read.
	zh, _ := strictSampleOf(t, StrictSample())
	for _, f := range []string{"SKILL.md", "references/feature-context.md"} {
		data, err := os.ReadFile(filepath.Join(zh, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, filepath.FromSlash(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res = strict.Validate(context.Background(), pkg, opts)
	for _, want := range []string{"STRICT_DOC_TOO_SHORT", "STRICT_SKILL_HEADING", "STRICT_CONTEXT_SECTION"} {
		if !slices.Contains(res.Diagnostics.RuleIDs(), want) {
			t.Errorf("Chinese documents in an English package: no %s in %v", want, res.Diagnostics.RuleIDs())
		}
	}

	// The English documents in the Chinese package fail the Chinese rules.
	en, _ := strictSampleOf(t, StrictSampleEnglish())
	data, err := os.ReadFile(filepath.Join(en, "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(zh, "SKILL.md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	res = strict.Validate(context.Background(), zh, opts)
	for _, want := range []string{"STRICT_DOC_TOO_SHORT", "STRICT_SKILL_HEADING"} {
		if !slices.Contains(res.Diagnostics.RuleIDs(), want) {
			t.Errorf("English documents in a Chinese package: no %s in %v", want, res.Diagnostics.RuleIDs())
		}
	}
}

// TestStrictSampleDocumentsFail: the document rules judge the sample's own
// documents: a SKILL.md that calls a required input optional and a stale
// marker are reported.
func TestStrictSampleDocumentsFail(t *testing.T) {
	pkg, src := strictSample(t)
	skill := filepath.Join(pkg, "SKILL.md")
	data, err := os.ReadFile(skill)
	if err != nil {
		t.Fatal(err)
	}
	const required = "- 入参 `terms`：必填，必须与报价时完全相同"
	if !strings.Contains(string(data), required) {
		t.Fatalf("SKILL.md no longer says %q, which this test turns into a wrong claim", required)
	}
	broken := strings.Replace(string(data), required, strings.Replace(required, "必填", "可选", 1), 1)
	if err := os.WriteFile(skill, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := filepath.Join(pkg, "references", "feature-context.md")
	data, err = os.ReadFile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stale := regexp.MustCompile(`sha256:[0-9a-f]{64}`).ReplaceAllString(string(data), "sha256:"+strings.Repeat("0", 64))
	if err := os.WriteFile(ctx, []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	res := strict.Validate(context.Background(), pkg, strict.Options{PreFinalize: true, Sources: contract.Sources{Base: src}})
	var rules []string
	for _, d := range res.Diagnostics.Sorted() {
		rules = append(rules, d.Rule+" "+d.File)
	}
	for _, want := range []string{strict.RuleDocRequiredAsOptional.ID + " SKILL.md", strict.RuleDocMarker.ID + " references/feature-context.md"} {
		if !slices.Contains(rules, want) {
			t.Errorf("want %s among the findings %v", want, rules)
		}
	}
}

// TestStrictSampleHostRuntimeIsReviewed: the host runtime a stdio host
// starts is the reviewed asset and its binding is compile's derivation; an
// edited copy of either, or a missing one, fails the validator.
func TestStrictSampleHostRuntimeIsReviewed(t *testing.T) {
	for _, c := range []struct {
		name, file string
		change     func(data []byte) []byte
		rule       string
	}{
		{"edited runtime", hostruntime.RuntimeFile, func(b []byte) []byte {
			return append(b, []byte("\nglobalThis.patched = true;\n")...)
		}, strict.RuleHostRuntimeAsset.ID},
		{"edited binding", hostruntime.BindingFile, func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `"LENDING_DESK_TOKEN"`, `"ANOTHER_TOKEN"`, 1))
		}, strict.RuleHostRuntimeBinding.ID},
		{"missing runtime", hostruntime.RuntimeFile, nil, strict.RuleFileMissing.ID},
		{"missing binding", hostruntime.BindingFile, nil, strict.RuleFileMissing.ID},
	} {
		t.Run(c.name, func(t *testing.T) {
			pkg, src := strictSample(t)
			p := filepath.Join(pkg, filepath.FromSlash(c.file))
			if c.change == nil {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
			} else {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, c.change(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res := strict.Validate(context.Background(), pkg, strict.Options{PreFinalize: true, Sources: contract.Sources{Base: src}})
			var got []string
			for _, d := range res.Diagnostics.Sorted() {
				got = append(got, d.Rule+" "+d.File)
			}
			if want := c.rule + " " + c.file; !slices.Contains(got, want) {
				t.Errorf("want %s among %v", want, got)
			}
		})
	}
}

// locator is an evidence locator of the strict sample: file:line#Symbol.
var locatorForm = regexp.MustCompile(`^([a-z][a-z0-9_]*\.go):([1-9][0-9]*)#((?:[A-Z][A-Za-z0-9]*\.)?[A-Za-z][A-Za-z0-9]*)$`)

// TestStrictSampleEvidenceLocators: every evidence locator names a Go file
// of its source, and its line lies inside the declaration of the symbol it
// names (a function, method, type or constant), so that the evidence points
// at the code it claims.
func TestStrictSampleEvidenceLocators(t *testing.T) {
	loaded, err := derive.Load(writeInputs(t))
	in := loaded.Inputs
	if err != nil {
		t.Fatal(err)
	}
	roots := map[string]string{}
	for _, s := range in.Topology.Sources {
		roots[s.ID] = s.Root
	}
	if len(in.Contract.EvidenceCatalog) == 0 {
		t.Fatal("the contract has no evidence")
	}
	src := StrictSampleSource()
	for _, e := range in.Contract.EvidenceCatalog {
		m := locatorForm.FindStringSubmatch(e.Locator)
		if m == nil {
			t.Errorf("%s: locator %q is not file.go:line#Symbol", e.ID, e.Locator)
			continue
		}
		file := path.Join(roots[e.SourceID], m[1])
		line, _ := strconv.Atoi(m[2])
		data, err := fs.ReadFile(src, file)
		if err != nil {
			t.Errorf("%s: %v", e.ID, err)
			continue
		}
		first, last, ok := declaration(t, file, data, m[3])
		switch {
		case !ok:
			t.Errorf("%s: %s declares no %s", e.ID, file, m[3])
		case line < first || line > last:
			t.Errorf("%s: line %d of %s is outside %s (lines %d-%d)", e.ID, line, file, m[3], first, last)
		}
	}
}

// declaration returns the lines of the declaration of symbol in a Go file:
// a function, a method (Type.Method), a type or a constant.
func declaration(t testing.TB, name string, src []byte, symbol string) (first, last int, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	recv, fn, isMethod := strings.Cut(symbol, ".")
	if !isMethod {
		fn = symbol
	}
	lines := func(n ast.Node) (int, int, bool) {
		return fset.Position(n.Pos()).Line, fset.Position(n.End()).Line, true
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != fn || (d.Recv != nil) != isMethod {
				continue
			}
			if !isMethod || receiverName(d.Recv.List[0].Type) == recv {
				return lines(d)
			}
		case *ast.GenDecl:
			if isMethod {
				continue
			}
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Name.Name == symbol {
						return lines(s)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == symbol {
							return lines(s)
						}
					}
				}
			}
		}
	}
	return 0, 0, false
}

func receiverName(x ast.Expr) string {
	if s, ok := x.(*ast.StarExpr); ok {
		x = s.X
	}
	if id, ok := x.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// writeInputs writes the strict sample's authored inputs to a fresh
// directory and returns it.
func writeInputs(t testing.TB) string {
	dir := filepath.Join(t.TempDir(), StrictSampleName)
	writeFS(t, StrictSample(), dir)
	return dir
}

// TestStrictSampleStepsAreRoutes: every HTTP step of the contract is a
// route of the sample backend, at the origin its client uses by default, and
// the export profile allows exactly that origin.
func TestStrictSampleStepsAreRoutes(t *testing.T) {
	loaded, err := derive.Load(writeInputs(t))
	in := loaded.Inputs
	if err != nil {
		t.Fatal(err)
	}
	if got := in.Export.AllowedRuntimeOrigins; !slices.Equal(got, []string{StrictSampleOrigin}) {
		t.Errorf("allowedRuntimeOrigins %v, want [%s]", got, StrictSampleOrigin)
	}
	if StrictSampleOrigin != "http://"+server.DefaultAddr {
		t.Errorf("the client's default %s is not where the server serves by default (%s)", StrictSampleOrigin, server.DefaultAddr)
	}
	desk := server.New(server.Config{Members: map[string]string{"token-test": "member-test"}})
	steps := 0
	for _, c := range in.Contract.Capabilities {
		for _, st := range c.Implementation.Steps {
			steps++
			u, err := url.Parse(st.URL)
			if err != nil {
				t.Fatal(err)
			}
			if origin := u.Scheme + "://" + u.Host; origin != StrictSampleOrigin {
				t.Errorf("%s/%s: origin %s, want %s", c.ID, st.ID, origin, StrictSampleOrigin)
			}
			// Unauthenticated, a route answers 401; anything else answers 404.
			r := httptest.NewRequest(st.Method, u.Path, strings.NewReader("{}"))
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			desk.ServeHTTP(w, r)
			if w.Code != http.StatusUnauthorized {
				t.Errorf("%s/%s: %s %s is not a route of the desk (status %d)", c.ID, st.ID, st.Method, u.Path, w.Code)
			}
		}
	}
	if steps != 5 {
		t.Errorf("%d steps, want 5", steps)
	}
}

// TestStrictSampleLiveCases: each read Tool has a live case whose arguments
// satisfy the Tool's derived input schema and that the sample desk answers
// with a success the output schema accepts; each write has one that passes
// on what an earlier capability returned.
func TestStrictSampleLiveCases(t *testing.T) {
	loaded, err := derive.Load(writeInputs(t))
	in := loaded.Inputs
	if err != nil {
		t.Fatal(err)
	}
	var schemas struct {
		Capabilities []struct {
			CapabilityID string          `json:"capabilityId"`
			ToolName     string          `json:"toolName"`
			InputSchema  json.RawMessage `json:"inputSchema"`
		} `json:"capabilities"`
	}
	for _, v := range derive.Views(in) {
		if v.Path == derive.MCPSchemaFile {
			if err := json.Unmarshal(v.Data, &schemas); err != nil {
				t.Fatal(err)
			}
		}
	}
	ts := httptest.NewServer(server.New(server.Config{Members: map[string]string{"token-test": "member-test"}}))
	defer ts.Close()
	c := client.New(ts.URL, "token-test", ts.Client())
	cases := 0
	var earlier []string
	for _, cp := range in.Contract.Capabilities {
		prior := slices.Clone(earlier)
		earlier = append(earlier, cp.ID)
		if cp.SideEffect != "read" {
			// A write's case passes on what an earlier capability of
			// the run returned; runtime verification resolves it.
			data, err := fs.ReadFile(StrictSampleLiveCases(), cp.ID+".json")
			if err != nil {
				t.Errorf("write capability %s has no live case: %v", cp.ID, err)
				continue
			}
			refs := regexp.MustCompile(`"\$result":\s*\{\s*"capabilityId":\s*"([a-z-]+)"`).FindAllStringSubmatch(string(data), -1)
			if len(refs) == 0 {
				t.Errorf("%s: the live case passes on no issued value", cp.ID)
			}
			for _, m := range refs {
				if !slices.Contains(prior, m[1]) {
					t.Errorf("%s: the live case passes on a result of %s, which is not called before it", cp.ID, m[1])
				}
			}
			continue
		}
		cases++
		data, err := fs.ReadFile(StrictSampleLiveCases(), cp.ID+".json")
		if err != nil {
			t.Errorf("read capability %s has no live case: %v", cp.ID, err)
			continue
		}
		var lc struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal(data, &lc); err != nil || lc.Name != cp.ToolName {
			t.Errorf("%s: live case names %q (%v), want %s", cp.ID, lc.Name, err, cp.ToolName)
			continue
		}
		for _, s := range schemas.Capabilities {
			if s.CapabilityID != cp.ID {
				continue
			}
			schema, err := jsonschema.Compile(s.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			if vs, err := schema.Validate(lc.Arguments); err != nil || len(vs) > 0 {
				t.Errorf("%s: the live case's arguments break the input schema: %v %v", cp.ID, vs, err)
			}
		}
		// The desk answers the case.
		var args map[string]any
		json.Unmarshal(lc.Arguments, &args)
		switch cp.ID {
		case "list-lendable-equipment":
			items, err := c.ListEquipment(context.Background(), args["category"].(string))
			if err != nil || len(items) == 0 {
				t.Errorf("%s: %v, %d items", cp.ID, err, len(items))
			}
		case "quote-equipment-loan":
			var terms client.Terms
			b, _ := json.Marshal(args["terms"])
			json.Unmarshal(b, &terms)
			if _, err := c.QuoteLoan(context.Background(), client.Item{ItemID: args["itemId"].(string)}, terms); err != nil {
				t.Errorf("%s: %v", cp.ID, err)
			}
		default:
			t.Errorf("no check of the live case of %s", cp.ID)
		}
	}
	if cases != 2 {
		t.Errorf("%d read capabilities, want 2", cases)
	}
}

// TestTermsDigestMatchesTheGuard: the digest the desk binds into a quote is
// the digest the workflow guard computes from a loan's terms, including
// notes with characters JSON encoders escape differently.
func TestTermsDigestMatchesTheGuard(t *testing.T) {
	testnode.Node(t)
	notes := []*string{nil}
	for _, n := range []string{"", "back by Friday", "周五还 😀", "q \" b \\ t \t n \n bel \x07 del \x7f", "line\u2028para\u2029 <&> é"} {
		notes = append(notes, &n)
	}
	var terms []server.Terms
	for i, n := range notes {
		terms = append(terms, server.Terms{Days: i%14 + 1, Note: n})
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, assets.WorkflowGuard.Name()), assets.WorkflowGuard.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	input, _ := json.Marshal(terms)
	if err := os.WriteFile(filepath.Join(dir, "terms.json"), input, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `import { readFileSync } from 'node:fs';
import { canonicalPayloadDigest } from './` + assets.WorkflowGuard.Name() + `';
for (const t of JSON.parse(readFileSync('terms.json', 'utf8'))) console.log(canonicalPayloadDigest(t));
`
	if err := os.WriteFile(filepath.Join(dir, "digest.mjs"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := sandbox.Run(context.Background(), []string{"node", "digest.mjs"}, sandbox.Options{Dir: dir, Timeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("node: exit %d\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	got := strings.Fields(string(res.Stdout))
	if len(got) != len(terms) {
		t.Fatalf("node printed %d digests for %d terms:\n%s", len(got), len(terms), res.Stdout)
	}
	for i, tm := range terms {
		if want := server.TermsDigest(tm); got[i] != want {
			t.Errorf("terms %d (%s): the guard computes %s, the desk %s", i, input, got[i], want)
		}
	}
}
