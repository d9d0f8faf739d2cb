package core

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/reach"
	"github.com/code2skill/code2skill/internal/testgo"
	"github.com/code2skill/code2skill/internal/testtier"
)

// The Go builds share one build cache (CODE2SKILL_GOCACHE, else the
// user's cache directory), so that only the first one compiles the SDK.
func TestGoTwinValidatesEndToEnd(t *testing.T) {
	testgo.Modules(t, goTwin(t))
	ctx := context.Background()
	t.Run("the twin passes", func(t *testing.T) {
		res, err := Validate(ctx, goTwin(t), withBudget(t, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if res.Diagnostics.HasErrors() || res.Discovery != StagePassed || res.Tests != StagePassed {
			t.Fatalf("stages %s/%s/%s:\n%v", res.Structure, res.Discovery, res.Tests, res.Diagnostics.Sorted())
		}
		if len(res.Tools) != 4 || res.TestCounts == nil || res.TestCounts.Passed < 20 || res.Diagnostics.Len() != 0 {
			t.Errorf("tools %v, tests %+v, findings %v", res.Tools, res.TestCounts, res.Diagnostics.Sorted())
		}
		// Every Tool's requests were recorded and judged, as node's are.
		if res.Requests != StagePassed || res.Reach == nil || res.Reach.Calls < 4*3 || res.Reach.InputsChecked == 0 {
			t.Errorf("requests %s, reach %+v", res.Requests, res.Reach)
		}
	})
	t.Run("a module the cache lacks", func(t *testing.T) {
		dir := goTwin(t)
		edit(t, dir, "go.mod", "require github.com/modelcontextprotocol/go-sdk v1.8.0", "require (\n\tgithub.com/modelcontextprotocol/go-sdk v1.8.0\n\texample.invalid/nothing v1.0.0\n)")
		writeFile(t, dir, "function-core/extra.go", "package functioncore\n\nimport _ \"example.invalid/nothing\"\n")
		res, err := Validate(ctx, dir, withBudget(t, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if !has(res, RuleGoModulesMissing) || res.Structure != StageFailed {
			t.Errorf("structure %s:\n%v", res.Structure, res.Diagnostics.Sorted())
		}
	})
	t.Run("no go on PATH", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := Validate(ctx, goTwin(t), withBudget(t, Options{}))
		if !errors.Is(err, ErrGoMissing) {
			t.Errorf("error %v, want ErrGoMissing", err)
		}
	})
}

// TestSlowGoTwinFindings plants mistakes in the Go twin: each is found
// where the node example's is.
func TestSlowGoTwinFindings(t *testing.T) {
	testtier.Slow(t)
	testgo.Modules(t, goTwin(t))
	ctx := context.Background()
	t.Run("a Function that drops an input", func(t *testing.T) {
		dir := goTwin(t)
		edit(t, dir, "function-core/core.go", `q.Set("sowing_month", text(m))`, `_ = m`)
		res, err := Validate(ctx, dir, withBudget(t, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, d := range res.Diagnostics.Sorted() {
			if d.Rule == reach.RuleInputDropped.ID && strings.Contains(d.Message, "sowingMonth") {
				found = d.File == "mcp-tool/main.go"
			}
		}
		if !found || res.Requests != StageFailed {
			t.Errorf("requests %s:\n%v", res.Requests, res.Diagnostics.Sorted())
		}
	})
	t.Run("tests that never run two Functions", func(t *testing.T) {
		dir := goTwin(t)
		if err := os.Remove(dir + "/tests/reservations_test.go"); err != nil {
			t.Fatal(err)
		}
		res, err := Validate(ctx, dir, withBudget(t, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		var named []string
		for _, d := range res.Diagnostics.Sorted() {
			if d.Rule == RuleTestsFunctionNotRun.ID && d.File == "function-core/core.go" && d.Line > 0 {
				named = append(named, d.Message[:strings.Index(d.Message, "'s")])
			}
		}
		// The other two run, through their own tests and the server's.
		if strings.Join(named, ",") != `tool "list_my_reservations",tool "cancel_reservation"` || res.Tests != StageFailed {
			t.Errorf("tests %s, named %q:\n%v", res.Tests, named, res.Diagnostics.Sorted())
		}
	})
	t.Run("a request no test answers", func(t *testing.T) {
		dir := goTwin(t)
		writeFile(t, dir, "function-core/ping.go", `package functioncore

import (
	"context"
	"net/http"
)

// Ping asks the catalog whether it is there.
func Ping(ctx context.Context, rt Runtime) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://catalog.invalid/ping", nil)
	if err != nil {
		return err
	}
	resp, err := rt.client().Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
`)
		writeFile(t, dir, "tests/ping_test.go", `package tests

import (
	"context"
	"errors"
	"net/http"
	"testing"

	functioncore "seed-library/function-core"
)

type down struct{}

func (down) RoundTrip(*http.Request) (*http.Response, error) { return nil, errors.New("down") }

func TestPingReportsAnUnreachableCatalog(t *testing.T) {
	if err := functioncore.Ping(context.Background(), runtime(env, down{})); err == nil {
		t.Fatal("no error")
	}
}
`)
		res, err := Validate(ctx, dir, withBudget(t, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		var lines []int
		for _, d := range res.Diagnostics.Sorted() {
			if d.Rule == RuleTestsRequestNotAnswered.ID && d.File == "function-core/ping.go" {
				lines = append(lines, d.Line)
			}
		}
		if len(lines) != 1 || lines[0] != 14 || res.Tests != StageFailed || has(res, RuleTestsFailed) {
			t.Errorf("tests %s, at lines %v:\n%v", res.Tests, lines, res.Diagnostics.Sorted())
		}
	})
	t.Run("a test that writes into its build cache", func(t *testing.T) {
		cache := os.Getenv(GoCacheVariable)
		if cache == "" {
			dir, err := os.UserCacheDir()
			if err != nil {
				t.Skip(err)
			}
			cache = filepath.Join(dir, "code2skill", "go-build")
		}
		marker := filepath.Join(cache, fmt.Sprintf("code2skill-test-%d-%d", os.Getpid(), time.Now().UnixNano()))
		t.Cleanup(func() { os.Remove(marker) })
		dir := goTwin(t)
		writeFile(t, dir, "tests/cache_test.go", `package tests

import (
	"os"
	"testing"
)

func TestWritesIntoTheBuildCache(t *testing.T) {
	if err := os.WriteFile(`+strconv.Quote(marker)+`, []byte("planted by a package's test"), 0o644); err != nil {
		t.Fatal(err)
	}
}
`)
		res, err := Validate(ctx, dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Tests != StagePassed {
			t.Fatalf("the test could not write into its build cache: tests %s\n%v", res.Tests, res.Diagnostics.Sorted())
		}
		if _, err := os.Lstat(marker); err == nil {
			t.Errorf("a package's test wrote into the shared build cache: %s", marker)
		}
	})
	t.Run("go commands stopped at their time limit", func(t *testing.T) {
		defer func(d time.Duration) { buildTime = d }(buildTime)
		buildTime = 0
		res, err := Validate(ctx, goTwin(t), Options{TestTimeout: time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		var timeouts int
		for _, d := range res.Diagnostics.Sorted() {
			if strings.Contains(d.Message, "\n") {
				t.Errorf("a message of several lines: %q", d.Message)
			}
			if d.Rule == RuleGoTimeout.ID || d.Rule == RuleTestsTimeout.ID {
				timeouts++
				if !strings.Contains(d.Message, "did not finish within 1ms and was stopped") || !strings.Contains(d.Message, "validate --test-timeout") {
					t.Errorf("%s does not say it ran out of time and how to raise the limit: %s", d.Rule, d.Message)
				}
			}
			if d.Rule == RuleGoVet.ID || d.Rule == RuleGoBuild.ID || d.Rule == RuleTestsFailed.ID {
				t.Errorf("a time-out reported as a failure: %s", d)
			}
		}
		// go vet, go build and go test.
		if timeouts != 3 {
			t.Errorf("%d time-outs reported, want 3:\n%v", timeouts, res.Diagnostics.Sorted())
		}
	})
	t.Run("a server that does not build", func(t *testing.T) {
		dir := goTwin(t)
		edit(t, dir, "mcp-tool/main.go", "func main() {", "var _ int = \"not a number\"\n\nfunc main() {")
		res, err := Validate(ctx, dir, withBudget(t, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if !has(res, RuleGoBuild) || res.Discovery != StageNotRun {
			t.Errorf("discovery %s:\n%v", res.Discovery, res.Diagnostics.Sorted())
		}
	})
	t.Run("what go vet reports", func(t *testing.T) {
		dir := goTwin(t)
		writeFile(t, dir, "function-core/extra.go", "package functioncore\n\nimport \"fmt\"\n\nvar _ = fmt.Sprintf(\"%d\", \"not a number\")\n")
		res, err := Validate(ctx, dir, withBudget(t, Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if !has(res, RuleGoVet) || has(res, RuleGoBuild) || res.Structure != StageFailed {
			t.Errorf("structure %s:\n%v", res.Structure, res.Diagnostics.Sorted())
		}
	})
}

// BenchmarkValidateGoTwin is validate of the Go twin with a warm module
// and build cache, to set beside BenchmarkValidateExample of the node
// example.
func BenchmarkValidateGoTwin(b *testing.B) {
	dir := b.TempDir()
	if err := os.CopyFS(dir+"/seed-library-go", examples.SeedLibraryGo()); err != nil {
		b.Fatal(err)
	}
	testgo.Modules(b, dir+"/seed-library-go")
	for b.Loop() {
		res, err := Validate(context.Background(), dir+"/seed-library-go", Options{})
		if err != nil || res.Diagnostics.HasErrors() {
			b.Fatalf("%v %v", err, res.Diagnostics.Sorted())
		}
	}
}
