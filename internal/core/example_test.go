package core

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/reach"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// examplePackage writes the bundled example to a temporary directory, lets
// edit change it, and installs the pinned npm packages into it (hard links).
func examplePackage(t testing.TB, edit func(dir string)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "seed-library")
	if err := os.CopyFS(dir, examples.SeedLibrary()); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(dir)
	}
	testnode.LinkDependencies(t, dir)
	return dir
}

// replaceIn replaces old with new in a file of the package, failing the test
// when old is absent (so a fixture cannot silently stop testing anything).
func replaceIn(t testing.TB, dir, file, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(file))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	writeFile(t, dir, file, strings.Replace(string(b), old, new, 1))
}

func writeFile(t testing.TB, dir, file, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func validate(t testing.TB, dir string, opts Options) *Result {
	t.Helper()
	testnode.Node(t)
	res, err := Validate(context.Background(), dir, withBudget(t, opts))
	if err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return res
}

// withBudget gives every time limit opts leaves unset what the test's
// deadline leaves, so that only the step a test means to hang has a short
// one.
func withBudget(t testing.TB, opts Options) Options {
	t.Helper()
	budget := testtier.Budget(t)
	for _, d := range []*time.Duration{&opts.TestTimeout, &opts.RequestTimeout, &opts.InitializeTimeout} {
		if *d == 0 {
			*d = budget
		}
	}
	return opts
}

func resultRules(res *Result) []string {
	var out []string
	for _, d := range res.Diagnostics.Sorted() {
		if d.Severity == diag.Error || d.Severity == diag.Warning {
			out = append(out, d.Rule)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func dump(res *Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics.Sorted() {
		b.WriteString(d.String() + "\n")
		if d.Detail != "" {
			b.WriteString(d.Detail + "\n")
		}
	}
	return b.String()
}

// TestExamplePasses validates the bundled example, installed, as it is:
// in full, and with --skip-tests, which runs nothing of it.
func TestExamplePasses(t *testing.T) {
	dir := examplePackage(t, nil)
	t.Run("validate", func(t *testing.T) {
		res := validate(t, dir, Options{})
		if res.Diagnostics.Len() != 0 {
			t.Fatalf("the example has findings:\n%s", dump(res))
		}
		if res.Structure != StagePassed || res.Discovery != StagePassed || res.Tests != StagePassed {
			t.Errorf("stages = %s/%s/%s, want all passed", res.Structure, res.Discovery, res.Tests)
		}
		if res.ProtocolVersion != "2025-11-25" {
			t.Errorf("negotiated protocol %q", res.ProtocolVersion)
		}
		if want := []string{"search_seed_varieties", "reserve_seed_packets", "list_my_reservations", "cancel_reservation"}; !slices.Equal(res.Tools, want) {
			t.Errorf("tools = %v, want %v", res.Tools, want)
		}
		if tc := res.TestCounts; tc == nil || tc.Tests < 10 || tc.Passed != tc.Tests {
			t.Errorf("test counts = %+v", tc)
		}
		if res.NodeProcesses < 2 {
			t.Errorf("NodeProcesses = %d", res.NodeProcesses)
		}
	})
	t.Run("skip tests runs nothing", func(t *testing.T) {
		res := validate(t, dir, Options{SkipTests: true})
		if res.Diagnostics.Len() != 0 || res.Discovery != StageNotRun || res.Tests != StageNotRun || res.NodeProcesses != 0 {
			t.Fatalf("skip-tests: %s/%s, %d node processes\n%s", res.Discovery, res.Tests, res.NodeProcesses, dump(res))
		}
	})
}

// brokenCase is a broken variant of the example, validated for real: it
// must fail with exactly the rules its breakage concerns.
type brokenCase struct {
	name  string
	edit  func(t *testing.T, dir string)
	opts  Options
	rules []*diag.Rule
	// check inspects the result further.
	check func(t *testing.T, res *Result)
	// fast runs the case in the fast tier, the rest in the slow one.
	fast bool
}

// TestExampleBroken runs the broken variants of the fast tier: one failing
// test of the package, its hanging test and the breakages found without
// running anything.
func TestExampleBroken(t *testing.T) { runBroken(t, true) }

// TestSlowExampleBroken runs every other broken variant.
func TestSlowExampleBroken(t *testing.T) {
	testtier.Slow(t)
	runBroken(t, false)
}

func runBroken(t *testing.T, fast bool) {
	for _, tc := range brokenCases() {
		if tc.fast != fast {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			var dir string
			if tc.name == "dependencies not installed" {
				dir = filepath.Join(t.TempDir(), "seed-library")
				if err := os.CopyFS(dir, examples.SeedLibrary()); err != nil {
					t.Fatal(err)
				}
			} else {
				dir = examplePackage(t, func(dir string) { tc.edit(t, dir) })
			}
			res := validate(t, dir, tc.opts)
			var want []string
			for _, r := range tc.rules {
				want = append(want, r.ID)
			}
			slices.Sort(want)
			if got := resultRules(res); !slices.Equal(got, want) {
				t.Errorf("rules = %v, want %v\n%s", got, want, dump(res))
			}
			if tc.check != nil {
				tc.check(t, res)
			}
		})
	}
}

func brokenCases() []brokenCase {
	return []brokenCase{
		{
			name: "failing test",
			fast: true,
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "tests/search.test.mjs", "q=early+pea&sowing_month=3", "q=late+pea&sowing_month=3")
			},
			rules: []*diag.Rule{RuleTestsFailed},
			check: func(t *testing.T, res *Result) {
				d := find(res, RuleTestsFailed)
				if !strings.Contains(d.Message, "search sends the phrase and month") || !strings.Contains(d.Detail, "late+pea") {
					t.Errorf("failure does not name the test or show its output:\n%s", dump(res))
				}
				if res.Tests != StageFailed || res.Discovery != StagePassed {
					t.Errorf("stages %s/%s", res.Discovery, res.Tests)
				}
			},
		},
		{
			name: "test reaching the network",
			edit: func(t *testing.T, dir string) {
				writeFile(t, dir, "tests/network.test.mjs", `import { test } from 'node:test';
	test('reaches a real host', async () => { await fetch('http://example.com/'); });
	`)
			},
			rules: []*diag.Rule{RuleTestsFailed},
		},
		{
			name: "test seeing a credential",
			edit: func(t *testing.T, dir string) {
				t.Setenv("CODE2SKILL_TEST_API_TOKEN", "secret")
				writeFile(t, dir, "tests/env.test.mjs", `import { test } from 'node:test';
	import assert from 'node:assert/strict';
	test('sees no credentials and runs in dry-run', () => {
	  assert.equal(process.env.CODE2SKILL_TEST_API_TOKEN, undefined);
	  assert.equal(process.env.CODE2SKILL_DRY_RUN, '1');
	  assert.equal(process.env.CI, '1');
	  assert.fail('reached the end');
	});
	`)
			},
			rules: []*diag.Rule{RuleTestsFailed},
			check: func(t *testing.T, res *Result) {
				if d := find(res, RuleTestsFailed); !strings.Contains(d.Detail, "reached the end") {
					t.Errorf("the environment assertions failed before the end:\n%s", d.Detail)
				}
			},
		},
		{
			name: "hanging test",
			fast: true,
			edit: func(t *testing.T, dir string) {
				writeFile(t, dir, "tests/hang.test.mjs", `import { test } from 'node:test';
	test('never ends', () => new Promise(() => setInterval(() => {}, 1000)));
	`)
			},
			opts:  Options{TestTimeout: testtier.Scaled(3 * time.Second)},
			rules: []*diag.Rule{RuleTestsTimeout},
		},
		{
			name: "no test ran",
			edit: func(t *testing.T, dir string) {
				for _, f := range []string{"tests/search.test.mjs", "tests/reserve.test.mjs", "tests/reservations.test.mjs", "tests/mcp-server.test.mjs"} {
					os.Remove(filepath.Join(dir, f))
				}
				writeFile(t, dir, "tests/empty.test.mjs", "// nothing here yet\n")
			},
			rules: []*diag.Rule{RuleTestsNone, RuleTestsEmptyFile},
		},
		{
			name: "test file exiting early",
			edit: func(t *testing.T, dir string) {
				writeFile(t, dir, "tests/exit.test.mjs", `import { test } from 'node:test';
	import assert from 'node:assert/strict';
	test('one', () => assert.fail('never runs'));
	test('two', () => assert.fail('never runs'));
	process.exit(0);
	`)
			},
			rules: []*diag.Rule{RuleTestsNotRun},
			check: func(t *testing.T, res *Result) {
				if d := find(res, RuleTestsNotRun); d.File != "tests/exit.test.mjs" || !strings.Contains(d.Message, "declares 2 tests") {
					t.Errorf("finding = %v", d)
				}
				if res.Tests != StageFailed {
					t.Errorf("tests stage %s", res.Tests)
				}
			},
		},
		{
			name: "suite stopping before its tests",
			edit: func(t *testing.T, dir string) {
				writeFile(t, dir, "tests/suite.test.mjs", `import { describe, it } from 'node:test';
	describe('reservations', () => {
	  it('holds packets', () => {});
	  if (!process.env.NEVER_SET) return;
	  it('releases packets', () => {});
	});
	`)
			},
			rules: []*diag.Rule{RuleTestsNotRun},
			check: func(t *testing.T, res *Result) {
				if d := find(res, RuleTestsNotRun); d.File != "tests" || !strings.Contains(d.Message, "declare at least") {
					t.Errorf("finding = %v", d)
				}
			},
		},
		{
			name: "every test skipped",
			edit: func(t *testing.T, dir string) {
				for _, f := range []string{"tests/search.test.mjs", "tests/reserve.test.mjs", "tests/reservations.test.mjs", "tests/mcp-server.test.mjs"} {
					os.Remove(filepath.Join(dir, f))
				}
				writeFile(t, dir, "tests/skipped.test.mjs", `import { test } from 'node:test';
	test('later', { skip: true }, () => {});
	test.todo('some day');
	`)
			},
			rules: []*diag.Rule{RuleTestsNone},
			check: func(t *testing.T, res *Result) {
				if d := find(res, RuleTestsNone); !strings.Contains(d.Message, "all 2 tests were skipped or marked todo") {
					t.Errorf("finding = %v", d)
				}
			},
		},
		{
			name: "stray stdout",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "mcp-tool/index.mjs", "await createServer()", "console.log('seed-library server starting');\nawait createServer()")
			},
			rules: []*diag.Rule{mcpcheck.RuleStdoutNoise},
			check: func(t *testing.T, res *Result) {
				if res.Structure != StagePassed || res.Discovery != StageFailed || res.Tests != StagePassed {
					t.Errorf("stages %s/%s/%s", res.Structure, res.Discovery, res.Tests)
				}
			},
		},
		{
			name: "closed input schema",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "mcp-tool/server.mjs", "inputSchema: z.looseObject({", "inputSchema: z.strictObject({")
			},
			// The example's own tests catch it too.
			rules: []*diag.Rule{mcpcheck.RuleToolInputClosed, RuleTestsFailed},
		},
		{
			name: "credential and address inputs",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "mcp-tool/server.mjs", "        query: looseText(",
					"        apiToken: looseText('The member token.'),\n        baseUrl: looseText('Where the catalog is.'),\n        query: looseText(")
			},
			rules: []*diag.Rule{RuleToolInputCredential, RuleToolInputAddress},
			check: func(t *testing.T, res *Result) {
				if d := find(res, RuleToolInputCredential); d.Pointer != "/tools/0/inputSchema/properties/apiToken" {
					t.Errorf("finding = %v", d)
				}
			},
		},
		{
			name: "Skill naming a Tool the server lacks",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "skills/find-seed-varieties/SKILL.md", "1. Call `search_seed_varieties` with", "1. Call `find_seed_varieties` with")
			},
			rules: []*diag.Rule{RuleSkillToolUnknown},
			check: func(t *testing.T, res *Result) {
				if d := find(res, RuleSkillToolUnknown); d.File != "skills/find-seed-varieties/SKILL.md" || d.Line == 0 {
					t.Errorf("finding = %v", d)
				}
				if res.Structure != StageFailed {
					t.Errorf("structure stage %s", res.Structure)
				}
			},
		},
		{
			name: "Skill naming a Tool the server lacks, structure only",
			fast: true,
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "skills/find-seed-varieties/SKILL.md", "1. Call `search_seed_varieties` with", "1. Call `find_seed_varieties` with")
			},
			opts:  Options{SkipTests: true},
			rules: []*diag.Rule{RuleSkillToolUnknown},
			check: func(t *testing.T, res *Result) {
				if res.Structure != StageFailed || res.Discovery != StageNotRun {
					t.Errorf("stages %s/%s", res.Structure, res.Discovery)
				}
			},
		},
		{
			name: "read-only annotation on a write",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "mcp-tool/server.mjs", "annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false",
					"annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false")
			},
			// The call sends POST reservations, no search: an error, which
			// settles the static warning. The example's own test of the
			// annotations catches it too.
			rules: []*diag.Rule{RuleAnnotationReadOnlyCreates, RuleTestsFailed},
		},
		{
			name: "server crashes at start",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "mcp-tool/index.mjs", "await createServer()", "throw new Error('no configuration');\nawait createServer()")
			},
			rules: []*diag.Rule{mcpcheck.RuleServerExited, reach.RuleNotChecked},
			check: func(t *testing.T, res *Result) {
				if d := find(res, reach.RuleNotChecked); !strings.Contains(d.Message, `"cancel_reservation"`) || d.Severity != diag.Warning {
					t.Errorf("the Tools not checked are not named: %v", d)
				}
				if d := find(res, mcpcheck.RuleServerExited); !strings.Contains(d.Message+d.Detail, "no configuration") {
					t.Errorf("the crash does not show the server's stderr:\n%s", dump(res))
				}
			},
		},
		{
			name: "default environment",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "function-core/index.mjs", "  const base = env[variable];",
					"  const base = env[variable] ?? 'https://catalog.seed-library.example/api/';")
			},
			// The reachability calls and the example's own test of a
			// missing base URL catch it too.
			rules: []*diag.Rule{jsmod.RuleEnvURLFallback, reach.RuleBaseURLNotRefused, RuleTestsFailed},
		},
		{
			name: "hard-coded fallback token",
			fast: true,
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "function-core/index.mjs", "headers: { accept: 'application/json' }, signal",
					"headers: { accept: 'application/json', authorization: `Bearer ${env.CODE2SKILL_SEED_LIBRARY_CATALOG_TOKEN ?? 'c4t4l0g-t0k3n'}` }, signal")
				writeFile(t, dir, "tests/fixture.test.mjs", "import { test } from 'node:test';\n"+
					"const member = { name: 'ada', password: 'not-a-real-one' };\n"+
					"test('a fake credential in a test is fine', () => {});\n")
			},
			opts:  Options{SkipTests: true},
			rules: []*diag.Rule{jsmod.RuleCredentialLiteral, RuleSetupCredential},
			check: func(t *testing.T, res *Result) {
				if d := find(res, jsmod.RuleCredentialLiteral); d.File != "function-core/index.mjs" || strings.Contains(d.Message, "c4t4l0g-t0k3n") {
					t.Errorf("finding = %v", d)
				}
			},
		},
		{
			name: "undocumented variable",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "MCP-SETUP.md", "| `CODE2SKILL_DRY_RUN` | Set to `1` to make `reserve_seed_packets` and `cancel_reservation` return the request they would send instead of sending it. |\n", "")
			},
			rules: []*diag.Rule{RuleSetupEnv},
		},
		{
			name:  "dependencies not installed",
			fast:  true,
			edit:  func(t *testing.T, dir string) {},
			rules: []*diag.Rule{RuleDepsMissing},
			check: func(t *testing.T, res *Result) {
				if d := find(res, RuleDepsMissing); !strings.Contains(d.Message, "npm ci") {
					t.Errorf("message does not say how to install: %s", d.Message)
				}
				if res.Discovery != StageNotRun || res.Tests != StageNotRun || res.NodeProcesses != 0 {
					t.Errorf("ran something without dependencies: %s/%s", res.Discovery, res.Tests)
				}
			},
		},
		{
			name: "requires host integration",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "package.json", `"profile": "core-export-v1"`, `"profile": "core-export-v1",
	    "requiresHostIntegration": true`)
			},
			check: func(t *testing.T, res *Result) {
				if !res.RequiresHostIntegration {
					t.Error("RequiresHostIntegration not set")
				}
			},
		},
	}
}

func find(res *Result, r *diag.Rule) diag.Diagnostic {
	for _, d := range res.Diagnostics.Sorted() {
		if d.Rule == r.ID {
			return d
		}
	}
	return diag.Diagnostic{}
}
