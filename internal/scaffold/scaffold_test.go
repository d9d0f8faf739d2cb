package scaffold

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/golden"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/skillmd"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

var cases = []struct {
	name string
	opts Options
}{
	{"root-skill", Options{FeatureID: "order-desk"}},
	{"root-skill-one-goal", Options{FeatureID: "order-desk", Goals: []string{"find-orders"}, Service: "catalog", Auth: AuthAPIKey, AuthHeader: "X-Catalog-Key"}},
	{"goal-skills", Options{
		FeatureID:      "order-desk",
		Goals:          []string{"find-orders", "track-shipment", "delete"},
		Service:        "ORDER_API",
		FeatureContext: true,
		Auth:           AuthCookieLogin,
	}},
	{"root-skill-bearer", Options{FeatureID: "order-desk", Auth: AuthBearer}},
	{"root-skill-token", Options{FeatureID: "order-desk", Auth: AuthBearer, AuthScheme: "Token"}},
}

// TestFiles compares each layout with its golden archive
// (testdata/<case>.txtar; CODE2SKILL_UPDATE=1 rewrites them).
func TestFiles(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files, err := Files(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Files(c.opts)
			if !slices.EqualFunc(files, again, func(a, b atomicfile.File) bool {
				return a.Path == b.Path && bytes.Equal(a.Data, b.Data)
			}) {
				t.Fatal("Files is not deterministic")
			}
			golden.Check(t, filepath.Join("testdata", c.name+".txtar"), archive(files))
		})
	}
}

// archive renders files as a txtar archive, leaving out the reviewed asset,
// which assets tests cover.
func archive(files []atomicfile.File) []byte {
	var a txtar.Archive
	for _, f := range files {
		if f.Path == assets.AgentResult.Name() {
			continue
		}
		a.Files = append(a.Files, txtar.File{Name: f.Path, Data: f.Data})
	}
	return txtar.Format(&a)
}

func TestLayout(t *testing.T) {
	root, _ := Files(cases[0].opts)
	if got := paths(root); !slices.Contains(got, "SKILL.md") || slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, "skills/") }) {
		t.Errorf("a one-goal package must have a root SKILL.md and no skills/: %v", got)
	}
	multi, _ := Files(cases[2].opts)
	got := paths(multi)
	for _, want := range []string{
		"skills/find-orders/SKILL.md", "skills/track-shipment/SKILL.md", "skills/delete/SKILL.md",
		"skills/find-orders/references/feature-context.md",
		"tests/find-orders.test.mjs", "tests/mcp-server.test.mjs",
		"portable-agent-result.mjs", "MCP-SETUP.md", "package.json",
		"function-core/index.mjs", "mcp-tool/index.mjs",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("missing %s in %v", want, got)
		}
	}
	if slices.Contains(got, "SKILL.md") {
		t.Error("a package with several goals must not have a root SKILL.md")
	}
	for _, f := range multi {
		if f.Path == assets.AgentResult.Name() && !assets.AgentResult.Matches(f.Data) {
			t.Error("the result projection is not the reviewed asset")
		}
	}
}

// TestSkillsFollowAgentSkillsRules checks every generated SKILL.md with the
// Agent Skills rules validate applies.
func TestSkillsFollowAgentSkillsRules(t *testing.T) {
	for _, c := range cases {
		files, _ := Files(c.opts)
		for _, f := range files {
			if path.Base(f.Path) != "SKILL.md" {
				continue
			}
			// A root Skill's folder is the package directory.
			file := f.Path
			if file == "SKILL.md" {
				file = c.opts.FeatureID + "/SKILL.md"
			}
			s, diags := skillmd.Parse(file, f.Data)
			if s != nil {
				diags = append(diags, s.Check()...)
			}
			for _, d := range diags {
				t.Errorf("%s: %v", c.name, d)
			}
		}
	}
}

func paths(files []atomicfile.File) []string {
	var out []string
	for _, f := range files {
		out = append(out, f.Path)
	}
	return out
}

func TestCheck(t *testing.T) {
	long := strings.Repeat("a", 65)
	for _, o := range []Options{
		{},
		{FeatureID: "Order-Desk"},
		{FeatureID: "order--desk"},
		{FeatureID: "order-desk-"},
		{FeatureID: "1-order"},
		{FeatureID: "order_desk"},
		{FeatureID: long},
		{FeatureID: "ok", Goals: []string{"a", "a"}},
		{FeatureID: "ok", Goals: []string{"a", "B"}},
		{FeatureID: "ok", Service: "api-v2"},
		{FeatureID: "ok", Service: "2API"},
		{FeatureID: "ok", Service: strings.Repeat("A", 33)},
		{FeatureID: "ok", Auth: "oauth"},
		{FeatureID: "ok", Auth: "Bearer"},
		{FeatureID: "ok", AuthHeader: "X-Api-Key"},
		{FeatureID: "ok", Auth: AuthCookieLogin, AuthHeader: "X-Api-Key"},
		{FeatureID: "ok", Auth: AuthAPIKey, AuthScheme: "Token"},
		{FeatureID: "ok", Auth: AuthBearer, AuthHeader: "X Api Key"},
		{FeatureID: "ok", Auth: AuthBearer, AuthHeader: "Cookie"},
		{FeatureID: "ok", Auth: AuthBearer, AuthScheme: "Token abc"},
		{FeatureID: "ok", Auth: AuthBearer, AuthScheme: "'Token'\n"},
	} {
		if err := o.Check(); err == nil {
			t.Errorf("Check(%+v) = nil, want an error", o)
		}
		if _, err := Files(o); err == nil {
			t.Errorf("Files(%+v) succeeded", o)
		}
	}
	for _, o := range []Options{
		{FeatureID: "a"},
		{FeatureID: strings.Repeat("a", 64), Goals: []string{"x1", "y-2"}, Service: "Api_2"},
		{FeatureID: "a", Auth: AuthNone},
		{FeatureID: "a", Auth: AuthCookieLogin},
		{FeatureID: "a", Auth: AuthBearer, AuthScheme: "Token", AuthHeader: "X-Api-Key"},
		{FeatureID: "a", Auth: AuthAPIKey, AuthHeader: "X-Catalog-Key"},
	} {
		if err := o.Check(); err != nil {
			t.Errorf("Check(%+v) = %v", o, err)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{
		"find-orders": "findOrders", "a": "a", "x-1-y": "x1Y", "delete": "deleteGoal", "new": "newGoal",
	} {
		if got := jsFunctionName(in); got != want {
			t.Errorf("jsFunctionName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := BaseURLVariable("order-desk", "catalog"); got != "CODE2SKILL_ORDER_DESK_CATALOG_BASE_URL" {
		t.Errorf("BaseURLVariable = %q", got)
	}
	for in, want := range map[string]string{
		"plain":       `'plain'`,
		`it's`:        `'it\'s'`,
		`back\slash`:  `'back\\slash'`,
		"line\nbreak": `'line\nbreak'`,
		"sep\u2028":   `'sep\u2028'`,
		"bell\a":      `'bell\u0007'`,
		"naïve ✓":     `'naïve ✓'`,
	} {
		if got := quoteJS(in); got != want {
			t.Errorf("quoteJS(%q) = %s, want %s", in, got, want)
		}
	}
	if got, _ := quoteYAML(`a: b # <c>`); got != `"a: b # <c>"` {
		t.Errorf("quoteYAML = %s", got)
	}
}

func TestWriteNewDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "parent", "order-desk")
	files, _ := Files(cases[0].opts)
	if err := Write(dir, files, false); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s: not written as given (%v)", f.Path, err)
		}
	}
	info, _ := os.Stat(dir)
	if info.Mode().Perm() != 0o755 {
		t.Errorf("package directory mode = %v", info.Mode().Perm())
	}
	assertEntries(t, filepath.Dir(dir), "order-desk") // no temporary sibling left
}

func TestWriteRefusesNonEmpty(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("keep"), 0o644)
	files, _ := Files(cases[0].opts)
	if err := Write(dir, files, false); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("Write into a non-empty directory: %v, want ErrNotEmpty", err)
	}
	assertEntries(t, dir, "notes.txt")
}

func TestWriteForce(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("keep"), 0o644)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte("{}"), 0o644)
	files, _ := Files(cases[0].opts)
	if err := Write(dir, files, true); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(b) != "keep" {
		t.Error("--force touched a file init does not write")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "package.json")); string(b) == "{}" {
		t.Error("--force did not replace package.json")
	}
}

func TestWriteIntoEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	files, _ := Files(cases[0].opts)
	if err := Write(dir, files, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err != nil {
		t.Error(err)
	}
}

// A failing write leaves nothing behind: a file standing where a directory
// must go makes the batch fail after other files were staged.
func TestWriteFailureLeavesNothing(t *testing.T) {
	files, _ := Files(cases[0].opts)
	t.Run("new", func(t *testing.T) {
		parent := t.TempDir()
		broken := append(slices.Clone(files), atomicfile.File{Path: "tests/helpers.mjs/x", Data: nil})
		if err := Write(filepath.Join(parent, "order-desk"), broken, false); err == nil {
			t.Fatal("Write succeeded")
		}
		assertEntries(t, parent)
	})
	t.Run("force", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "package.json"), []byte("old"), 0o644)
		os.WriteFile(filepath.Join(dir, "tests"), []byte("a file where tests/ must go"), 0o644)
		if err := Write(dir, files, true); err == nil {
			t.Fatal("Write succeeded")
		}
		assertEntries(t, dir, "package.json", "tests")
		if b, _ := os.ReadFile(filepath.Join(dir, "package.json")); string(b) != "old" {
			t.Error("a failed write changed an existing file")
		}
	})
}

func TestWriteOntoFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, nil, 0o644)
	if err := Write(f, nil, true); err == nil {
		t.Error("Write onto a regular file succeeded")
	}
}

func assertEntries(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s holds %v, want %v", dir, got, want)
	}
}

// TestGeneratedPackageTestsPass runs each layout's own test suite with node,
// against the pinned SDK and zod, as "npm test" would. The fast tier runs
// one layout of each authentication style; the slow tier the bearer
// style's other scheme, root-skill-token.
func TestGeneratedPackageTestsPass(t *testing.T) {
	generatedPackageTestsPass(t, func(name string) bool { return name != "root-skill-token" })
}

func TestSlowGeneratedPackageTestsPass(t *testing.T) {
	testtier.Slow(t)
	generatedPackageTestsPass(t, func(name string) bool { return name == "root-skill-token" })
}

func generatedPackageTestsPass(t *testing.T, layouts func(string) bool) {
	testnode.Node(t)
	for _, c := range cases {
		if !layouts(c.name) {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), c.opts.FeatureID)
			files, _ := Files(c.opts)
			if err := Write(dir, files, false); err != nil {
				t.Fatal(err)
			}
			testnode.LinkInto(t, dir)
			res, err := sandbox.Run(context.Background(), []string{"node", "--test", "--test-reporter=tap"},
				sandbox.Options{Dir: dir, Env: []string{"CODE2SKILL_DRY_RUN=1", "CI=1"}, Timeout: testtier.Budget(t)})
			if err != nil {
				t.Fatal(err)
			}
			out := string(res.Stdout) + string(res.Stderr)
			if res.ExitCode != 0 {
				t.Fatalf("the package's tests failed:\n%s", out)
			}
			// Five tests per Tool, five for the server (six with
			// credentials), nine for send() and those of the auth style.
			want := 5*max(1, len(c.opts.Goals)) + 5 + 9
			switch c.opts.Auth {
			case AuthBearer, AuthAPIKey:
				want += 1 + 3
			case AuthCookieLogin:
				want += 1 + 6
			}
			m := regexp.MustCompile(`(?m)^# pass (\d+)$`).FindStringSubmatch(out)
			if m == nil {
				t.Fatalf("no test summary:\n%s", out)
			}
			if n, _ := strconv.Atoi(m[1]); n != want {
				t.Fatalf("%d tests passed, want %d:\n%s", n, want, out)
			}
		})
	}
}

// TestGeneratedSkillsAreValid checks every generated Skill with the
// reference Agent Skills validator, every layout's in one node process.
func TestGeneratedSkillsAreValid(t *testing.T) {
	root := t.TempDir()
	var skillDirs []string
	for _, c := range cases {
		dir := filepath.Join(root, c.name, c.opts.FeatureID)
		files, _ := Files(c.opts)
		if err := Write(dir, files, false); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if filepath.Base(f.Path) == "SKILL.md" {
				skillDirs = append(skillDirs, filepath.Join(dir, filepath.Dir(filepath.FromSlash(f.Path))))
			}
		}
	}
	verdicts := testnode.SkillsRef(t, root, skillDirs...)
	for _, sd := range skillDirs {
		errs, ok := verdicts[sd]
		if rel, _ := filepath.Rel(root, sd); !ok || len(errs) != 0 {
			t.Errorf("skills-ref validate %s: verdict given %v, errors %q", rel, ok, errs)
		}
	}
}

// BenchmarkFiles measures laying out a three-goal package in memory.
func BenchmarkFiles(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Files(cases[2].opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWrite measures writing a three-goal package to a new directory.
func BenchmarkWrite(b *testing.B) {
	files, _ := Files(cases[2].opts)
	root := b.TempDir()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := Write(filepath.Join(root, strconv.Itoa(i), "order-desk"), files, false); err != nil {
			b.Fatal(err)
		}
	}
}
