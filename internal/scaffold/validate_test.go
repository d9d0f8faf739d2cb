package scaffold

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// fillIn does what a Producer does to the scaffold's placeholders: it
// rewrites the Skill's scaffolding note and each Tool's description.
var fillIn = strings.NewReplacer(
	"Scaffolded by code2skill init. Rewrite this Skill", "Rewrite this Skill",
	" Scaffolded by code2skill init as an illustrative request; describe the real one here.", "",
)

// realRequest does what a Producer does to the illustrative requests: each
// Function sends another request (here: to <goal>/search), and its test
// pins that one.
var realRequest = regexp.MustCompile(`(path: '|\.invalid/)(find-orders|track-shipment|order-desk)('|\?q=)`)

func rewrite(data string) string {
	return realRequest.ReplaceAllString(fillIn.Replace(data), "$1$2/search$3")
}

// TestEveryAuthStyleValidates runs code2skill validate on a package of each
// authentication style, with the pinned SDK and zod installed: untouched,
// its only findings are the scaffold's placeholders (the untouched
// scaffold is not a finished package); with them rewritten, it passes
// every check, its own offline tests included.
//
// The fast tier validates the style with the most code, cookie-login; the
// slow tier the others.
func TestEveryAuthStyleValidates(t *testing.T) {
	validateAuthStyles(t, func(auth string) bool { return auth == AuthCookieLogin })
}

func TestSlowEveryAuthStyleValidates(t *testing.T) {
	testtier.Slow(t)
	validateAuthStyles(t, func(auth string) bool { return auth != AuthCookieLogin })
}

func validateAuthStyles(t *testing.T, styles func(string) bool) {
	testnode.Node(t)
	for _, auth := range AuthStyles {
		if !styles(auth) {
			continue
		}
		t.Run(auth, func(t *testing.T) {
			t.Parallel()
			opts := Options{FeatureID: "order-desk", Goals: []string{"find-orders", "track-shipment"}, Auth: auth}
			files, err := Files(opts)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), opts.FeatureID)
			if err := Write(dir, files, false); err != nil {
				t.Fatal(err)
			}
			testnode.LinkInto(t, dir)

			res := validatePackage(t, dir)
			var rules []string
			for _, d := range res.Diagnostics.Sorted() {
				rules = append(rules, d.Rule)
			}
			// Two Skills and two Tool descriptions hold placeholders, and
			// two Functions send the illustrative request.
			want := append(slices.Repeat([]string{core.RulePlaceholderRequest.ID}, 2), slices.Repeat([]string{core.RulePlaceholder.ID}, 4)...)
			slices.Sort(rules)
			if !slices.Equal(rules, want) {
				t.Errorf("untouched: rules %v, want %v", rules, want)
			}
			if res.Discovery != core.StagePassed || res.Tests != core.StagePassed {
				t.Errorf("untouched: discovery %s, tests %s", res.Discovery, res.Tests)
			}

			// Without its placeholder sentences the scaffold is still the
			// scaffold: its requests say so. That is the structure's to
			// say: the package's tests, run untouched above and filled in
			// below, are not run again.
			sentencesOnly := slices.Clone(files)
			for i := range sentencesOnly {
				sentencesOnly[i].Data = []byte(fillIn.Replace(string(files[i].Data)))
			}
			if err := Write(dir, sentencesOnly, true); err != nil {
				t.Fatal(err)
			}
			res, err = core.Validate(context.Background(), dir, core.Options{SkipTests: true})
			if err != nil {
				t.Fatal(err)
			}
			rules = nil
			for _, d := range res.Diagnostics.Sorted() {
				rules = append(rules, d.Rule)
			}
			if want := slices.Repeat([]string{core.RulePlaceholderRequest.ID}, 2); !slices.Equal(rules, want) {
				t.Errorf("placeholder sentences deleted: rules %v, want %v", rules, want)
			}

			for i := range files {
				files[i].Data = []byte(rewrite(string(files[i].Data)))
			}
			if err := Write(dir, files, true); err != nil {
				t.Fatal(err)
			}
			res = validatePackage(t, dir)
			if res.Diagnostics.Len() != 0 || res.Structure != core.StagePassed || res.Discovery != core.StagePassed || res.Tests != core.StagePassed {
				var b strings.Builder
				for _, d := range res.Diagnostics.Sorted() {
					b.WriteString(d.String() + "\n" + d.Detail + "\n")
				}
				t.Fatalf("filled in: %s/%s/%s\n%s", res.Structure, res.Discovery, res.Tests, b.String())
			}
		})
	}
}

// validatePackage validates dir with the time limits the test's deadline
// leaves.
func validatePackage(t *testing.T, dir string) *core.Result {
	t.Helper()
	budget := testtier.Budget(t)
	res, err := core.Validate(context.Background(), dir, core.Options{TestTimeout: budget, RequestTimeout: budget})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestValidateSeesTheScaffoldsConfiguration proves that validate's
// environment checks read the scaffold's own idioms (the variable's name
// in a module constant, read through helpers): a credential variable left
// out of MCP-SETUP.md, and a default address added to the helper, are
// both found.
func TestValidateSeesTheScaffoldsConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(path string, data string) string
		rule string
		want string
	}{
		{"undocumented credential", func(p, s string) string {
			if p == "MCP-SETUP.md" {
				return strings.ReplaceAll(s, "CODE2SKILL_ORDER_DESK_API_TOKEN", "the token")
			}
			return s
		}, "CORE_SETUP_CREDENTIAL_UNDOCUMENTED", "CODE2SKILL_ORDER_DESK_API_TOKEN"},
		{"undocumented base URL", func(p, s string) string {
			if p == "MCP-SETUP.md" {
				return strings.ReplaceAll(s, "CODE2SKILL_ORDER_DESK_API_BASE_URL", "the base URL")
			}
			return s
		}, "CORE_SETUP_BASE_URL_UNDOCUMENTED", "CODE2SKILL_ORDER_DESK_API_BASE_URL"},
		{"default address", func(p, s string) string {
			if p == "function-core/index.mjs" {
				return regexp.MustCompile(`env\[variable\]\.trim\(\) : ''`).ReplaceAllString(s, "env[variable].trim() : 'https://api.example.com/'")
			}
			return s
		}, "JS_ENV_URL_FALLBACK", "CODE2SKILL_ORDER_DESK_API_BASE_URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files, err := Files(Options{FeatureID: "order-desk", Auth: AuthBearer})
			if err != nil {
				t.Fatal(err)
			}
			changed := false
			for i, f := range files {
				after := tc.edit(f.Path, string(f.Data))
				changed = changed || after != string(f.Data)
				files[i].Data = []byte(rewrite(after))
			}
			if !changed {
				t.Fatal("the edit changed nothing: the scaffold no longer has what this test edits")
			}
			dir := filepath.Join(t.TempDir(), "order-desk")
			if err := Write(dir, files, false); err != nil {
				t.Fatal(err)
			}
			res, err := core.Validate(context.Background(), dir, core.Options{SkipTests: true})
			if err != nil {
				t.Fatal(err)
			}
			// The default written into required() is every variable's.
			ds := res.Diagnostics.Sorted()
			named := slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return strings.Contains(d.Message, tc.want) })
			others := slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Rule != tc.rule })
			if !named || others {
				t.Errorf("findings %v, want only %s, one naming %s", ds, tc.rule, tc.want)
			}
		})
	}
}
