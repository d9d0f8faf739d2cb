package scaffold

import (
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/testgo"
	"github.com/code2skill/code2skill/internal/testtier"
)

// goRealRequest is realRequest for the Go scaffold.
var goRealRequest = regexp.MustCompile(`(http\.MethodGet, "|\.invalid/)(find-orders|track-shipment)("|\?q=)`)

func goRewrite(data string) string {
	return goRealRequest.ReplaceAllString(fillIn.Replace(data), "$1$2/search$3")
}

// goPackage writes the go-stdio scaffold of two goals under auth into a
// fresh directory, and returns it with the files written.
func goPackage(t *testing.T, auth string) (string, []atomicfile.File) {
	t.Helper()
	opts := Options{FeatureID: "order-desk", Goals: []string{"find-orders", "track-shipment"}, Auth: auth, Runtime: RuntimeGo}
	files, err := Files(opts)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), opts.FeatureID)
	if err := Write(dir, files, false); err != nil {
		t.Fatal(err)
	}
	return dir, files
}

func rulesOf(res *core.Result) []string {
	var rules []string
	for _, d := range res.Diagnostics.Sorted() {
		rules = append(rules, d.Rule)
	}
	slices.Sort(rules)
	return rules
}

// TestGoScaffoldStructure checks the untouched go-stdio scaffold of every
// style it supports: its only findings are the placeholders.
func TestGoScaffoldStructure(t *testing.T) {
	for _, auth := range AuthStyles {
		t.Run(auth, func(t *testing.T) {
			dir, files := goPackage(t, auth)
			var paths []string
			for _, f := range files {
				paths = append(paths, f.Path)
			}
			for _, want := range []string{"go.mod", "go.sum", "agentresult/agentresult.go", "function-core/core.go", "mcp-tool/main.go", "mcp-tool/server.go", "tests/find_orders_test.go"} {
				if !slices.Contains(paths, want) {
					t.Errorf("%s is missing from %v", want, paths)
				}
			}
			res, err := core.Validate(context.Background(), dir, core.Options{SkipTests: true})
			if err != nil {
				t.Fatal(err)
			}
			want := append(slices.Repeat([]string{core.RulePlaceholderRequest.ID}, 2), slices.Repeat([]string{core.RulePlaceholder.ID}, 2)...)
			slices.Sort(want)
			if got := rulesOf(res); !slices.Equal(got, want) {
				t.Errorf("rules %v, want %v\n%v", got, want, res.Diagnostics.Sorted())
			}
		})
	}
	if _, err := Files(Options{FeatureID: "order-desk", Runtime: "rust-stdio"}); err == nil {
		t.Error("an unknown runtime was accepted")
	}
}

// TestSlowGoScaffoldValidates builds and tests the scaffolds with
// credentials: untouched, the placeholders are their only errors; filled
// in, they pass, their go test tests included (for cookie-login: the
// login, its reuse, its renewal on a 401 and a refused login). It builds
// and tests Go code four times, so it is in the slow tier; the go-stdio
// runtime's own end-to-end test (internal/core) stays in the fast one.
func TestSlowGoScaffoldValidates(t *testing.T) {
	testtier.Slow(t)
	testgo.Go(t)
	for _, auth := range []string{AuthBearer, AuthCookieLogin} {
		t.Run(auth, func(t *testing.T) {
			dir, files := goPackage(t, auth)
			testgo.Modules(t, dir)
			res := validatePackage(t, dir)
			want := append(slices.Repeat([]string{core.RulePlaceholderRequest.ID}, 2), slices.Repeat([]string{core.RulePlaceholder.ID}, 4)...)
			slices.Sort(want)
			if got := rulesOf(res); !slices.Equal(got, want) {
				t.Errorf("untouched: rules %v, want %v\n%v", got, want, res.Diagnostics.Sorted())
			}
			if res.Discovery != core.StagePassed || res.Tests != core.StagePassed {
				t.Errorf("untouched: discovery %s, tests %s", res.Discovery, res.Tests)
			}
			for i := range files {
				files[i].Data = []byte(goRewrite(string(files[i].Data)))
			}
			if err := Write(dir, files, true); err != nil {
				t.Fatal(err)
			}
			res = validatePackage(t, dir)
			if got := rulesOf(res); len(got) != 0 || res.Requests != core.StagePassed || res.Tests != core.StagePassed {
				var b strings.Builder
				for _, d := range res.Diagnostics.Sorted() {
					b.WriteString(d.String() + "\n" + d.Detail + "\n")
				}
				t.Fatalf("filled in: %s/%s/%s\n%s", res.Structure, res.Discovery, res.Tests, b.String())
			}
		})
	}
}
