package core

import (
	"context"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// goTwin writes the Go twin of the bundled example into a fresh directory.
func goTwin(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), examples.SeedLibraryGoName)
	if err := os.CopyFS(dir, examples.SeedLibraryGo()); err != nil {
		t.Fatal(err)
	}
	return dir
}

func edit(t *testing.T, dir, file, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(file))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not hold %q", file, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func structureOnly(t *testing.T, dir string, opts Options) *Result {
	t.Helper()
	opts.SkipTests = true
	res, err := Validate(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Runtime != pkgdir.RuntimeGo {
		t.Fatalf("runtime %q, want go-stdio", res.Runtime)
	}
	return res
}

func has(res *Result, rule *diag.Rule) bool { return res.Diagnostics.Has(rule) }

func TestGoTwinStructurePasses(t *testing.T) {
	res := structureOnly(t, goTwin(t), Options{})
	if res.Diagnostics.HasErrors() || res.Structure != StagePassed {
		t.Fatalf("the Go twin does not pass:\n%v", res.Diagnostics.Sorted())
	}
}

// The marker's requiresHostIntegration=true keeps runtime verification
// open, as package.json's code2skill.requiresHostIntegration does.
func TestGoMarkerRequiresHostIntegration(t *testing.T) {
	if res := structureOnly(t, goTwin(t), Options{}); res.RequiresHostIntegration {
		t.Error("the twin requires host integration")
	}
	dir := goTwin(t)
	edit(t, dir, "go.mod", "runtime=go-stdio", "runtime=go-stdio requiresHostIntegration=true")
	if res := structureOnly(t, dir, Options{}); !res.RequiresHostIntegration || res.Diagnostics.HasErrors() {
		t.Errorf("requires host integration: %v\n%v", res.RequiresHostIntegration, res.Diagnostics.Sorted())
	}
}

func TestGoStructureRules(t *testing.T) {
	outside := t.TempDir() // the application's source, beside the package
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string) Options
		rule  *diag.Rule
		fires bool
	}{
		{"an absolute replace, even into the source root", func(t *testing.T, dir string) Options {
			abs := filepath.ToSlash(outside)
			edit(t, dir, "go.mod", "require github.com", "replace example.com/app => "+abs+"\n\nrequire github.com")
			edit(t, dir, "MCP-SETUP.md", "## Environment", abs+"\n\n## Environment")
			return Options{SourceRoots: []string{outside}}
		}, RuleGoReplaceOutside, true},
		{"a replace out of the package without a source root", func(t *testing.T, dir string) Options {
			rel, _ := filepath.Rel(dir, outside)
			edit(t, dir, "go.mod", "require github.com", "replace example.com/app => "+filepath.ToSlash(rel)+"\n\nrequire github.com")
			edit(t, dir, "MCP-SETUP.md", "## Environment", filepath.ToSlash(rel)+"\n\n## Environment")
			return Options{}
		}, RuleGoReplaceOutside, true},
		{"a replace inside the authorised source root", func(t *testing.T, dir string) Options {
			rel, _ := filepath.Rel(dir, outside)
			edit(t, dir, "go.mod", "require github.com", "replace example.com/app => "+filepath.ToSlash(rel)+"\n\nrequire github.com")
			edit(t, dir, "MCP-SETUP.md", "## Environment", filepath.ToSlash(rel)+"\n\n## Environment")
			return Options{SourceRoots: []string{outside}}
		}, RuleGoReplaceOutside, false},
		{"a replace MCP-SETUP.md does not record", func(t *testing.T, dir string) Options {
			rel, _ := filepath.Rel(dir, outside)
			edit(t, dir, "go.mod", "require github.com", "replace example.com/app => "+filepath.ToSlash(rel)+"\n\nrequire github.com")
			return Options{SourceRoots: []string{outside}}
		}, RuleGoReplaceUndocumented, true},
		{"another SDK version", func(t *testing.T, dir string) Options {
			edit(t, dir, "go.mod", "go-sdk v1.8.0", "go-sdk v1.7.0")
			return Options{}
		}, RuleGoModSDK, true},
		{"another profile in the marker", func(t *testing.T, dir string) Options {
			edit(t, dir, "go.mod", "profile core-export-v1", "profile strict-export-v1")
			return Options{}
		}, RuleGoModProfile, true},
		{"a marker field code2skill does not read", func(t *testing.T, dir string) Options {
			edit(t, dir, "go.mod", "runtime=go-stdio", "runtime=go-stdio requireHostIntegration=true")
			return Options{}
		}, RuleGoModProfile, true},
		{"requiresHostIntegration that is not a boolean", func(t *testing.T, dir string) Options {
			edit(t, dir, "go.mod", "runtime=go-stdio", "runtime=go-stdio requiresHostIntegration=yes")
			return Options{}
		}, RuleManifestHostIntegration, true},
		{"requiresHostIntegration=true", func(t *testing.T, dir string) Options {
			edit(t, dir, "go.mod", "runtime=go-stdio", "runtime=go-stdio requiresHostIntegration=true")
			return Options{}
		}, RuleManifestHostIntegration, false},
		{"an environment read falling back to a URL", func(t *testing.T, dir string) Options {
			edit(t, dir, "function-core/core.go", `base := strings.TrimSpace(rt.getenv(variable))`,
				`base := strings.TrimSpace(rt.getenv(variable))
	if base == "" {
		base = "https://catalog.seed-library.example/api"
	}`)
			edit(t, dir, "function-core/core.go", `func serviceURL(rt Runtime, variable, path string) (*url.URL, error) {`,
				`func serviceURL(rt Runtime, variable, path string) (*url.URL, error) {
	base := rt.getenv(variable)
	if base == "" {
		base = "https://catalog.seed-library.example/api"
	}
	_ = base`)
			return Options{}
		}, jsmod.RuleEnvURLFallback, true},
		{"a fallback to an .invalid host", func(t *testing.T, dir string) Options {
			edit(t, dir, "function-core/core.go", `func serviceURL(rt Runtime, variable, path string) (*url.URL, error) {`,
				`func serviceURL(rt Runtime, variable, path string) (*url.URL, error) {
	fallback := rt.getenv(variable)
	if fallback == "" {
		fallback = "https://catalog.seed-library.invalid/api"
	}
	_ = fallback`)
			return Options{}
		}, jsmod.RuleEnvURLFallback, false},
		{"a credential literal", func(t *testing.T, dir string) Options {
			edit(t, dir, "function-core/core.go", "const RequestTimeout", "const memberToken = \"s3cr3t-m3mb3r-t0k3n-9f8e7d\"\n\nvar _ = memberToken\n\nconst RequestTimeout")
			return Options{}
		}, jsmod.RuleCredentialLiteral, true},
		{"a literal service address", func(t *testing.T, dir string) Options {
			edit(t, dir, "function-core/core.go", "const RequestTimeout", "const catalogBaseURL = \"https://catalog.seed-library.example/api\"\n\nvar _ = catalogBaseURL\n\nconst RequestTimeout")
			return Options{}
		}, jsmod.RuleBaseURLLiteral, true},
		{"a DELETE under destructiveHint false", func(t *testing.T, dir string) Options {
			edit(t, dir, "mcp-tool/server.go", "ReadOnlyHint: false, DestructiveHint: hint(true)", "ReadOnlyHint: false, DestructiveHint: hint(false)")
			return Options{}
		}, RuleAnnotationDestructive, true},
		{"a DELETE under readOnlyHint true", func(t *testing.T, dir string) Options {
			edit(t, dir, "mcp-tool/server.go", "ReadOnlyHint: false, DestructiveHint: hint(true)", "ReadOnlyHint: true, DestructiveHint: hint(true)")
			return Options{}
		}, RuleAnnotationReadOnly, true},
		{"a POST under readOnlyHint true", func(t *testing.T, dir string) Options {
			edit(t, dir, "mcp-tool/server.go", "ReadOnlyHint: false, DestructiveHint: hint(false), IdempotentHint: false", "ReadOnlyHint: true, DestructiveHint: hint(false), IdempotentHint: false")
			return Options{}
		}, RuleAnnotationReadOnlyPost, true},
		{"an edited projection asset", func(t *testing.T, dir string) Options {
			edit(t, dir, "agentresult/agentresult.go", "const maxCauseDepth = 4", "const maxCauseDepth = 5")
			return Options{}
		}, RuleAssetModified, true},
		{"no go mod download in MCP-SETUP.md", func(t *testing.T, dir string) Options {
			edit(t, dir, "MCP-SETUP.md", "go mod download  ", "go mod tidy  ")
			edit(t, dir, "MCP-SETUP.md", "`go mod download` filled", "`go mod tidy` filled")
			return Options{}
		}, RuleSetupDependencies, true},
		{"a go.work", func(t *testing.T, dir string) Options {
			writeFile(t, dir, "go.work", "go 1.25\n\nuse .\n\nreplace "+GoSDKModule+" => ./sdk\n")
			return Options{}
		}, RuleGoWorkspace, true},
		{"a go.work.sum", func(t *testing.T, dir string) Options {
			writeFile(t, dir, "go.work.sum", "")
			return Options{}
		}, RuleGoWorkspace, true},
		{"a vendor directory", func(t *testing.T, dir string) Options {
			writeFile(t, dir, "vendor/modules.txt", "# "+GoSDKModule+" "+GoSDKVersion+"\n")
			return Options{}
		}, RuleGoWorkspace, true},
		{"a file only a cgo build compiles", func(t *testing.T, dir string) Options {
			writeFile(t, dir, "mcp-tool/cgo.go", "//go:build cgo\n\npackage main\n\nfunc init() {}\n")
			return Options{}
		}, RuleGoFileNotBuilt, true},
		{"a file importing C", func(t *testing.T, dir string) Options {
			writeFile(t, dir, "function-core/native.go", "package core\n\nimport \"C\"\n")
			return Options{}
		}, RuleGoFileNotBuilt, true},
		{"a file of another operating system", func(t *testing.T, dir string) Options {
			writeFile(t, dir, "mcp-tool/init_"+otherGOOS()+".go", "package main\n\nfunc init() {}\n")
			return Options{}
		}, RuleGoFileNotBuilt, true},
		{"a file every platform builds, and one nobody builds", func(t *testing.T, dir string) Options {
			writeFile(t, dir, "mcp-tool/portable.go", "//go:build !"+otherGOOS()+"\n\npackage main\n")
			writeFile(t, dir, "mcp-tool/gen.go", "//go:build ignore\n\npackage main\n")
			writeFile(t, dir, "mcp-tool/testdata/x_"+otherGOOS()+".go", "package x\n")
			writeFile(t, dir, "function-core/core_"+otherGOOS()+"_test.go", "package core\n")
			return Options{}
		}, RuleGoFileNotBuilt, false},
		{"a go build without cgo off", func(t *testing.T, dir string) Options {
			edit(t, dir, "MCP-SETUP.md", "CGO_ENABLED=0 ", "")
			return Options{}
		}, RuleSetupGoBuild, true},
		{"a second go build without the work file off", func(t *testing.T, dir string) Options {
			edit(t, dir, "MCP-SETUP.md", "## 3.", "```sh\nCGO_ENABLED=0 GOFLAGS=-mod=readonly go build -o /usr/local/bin/seed-library ./mcp-tool\n```\n\n## 3.")
			return Options{}
		}, RuleSetupGoBuild, true},
		{"no go build at all", func(t *testing.T, dir string) Options {
			edit(t, dir, "MCP-SETUP.md", "CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=readonly go build -o bin/seed-library ./mcp-tool", "make")
			return Options{}
		}, RuleSetupGoBuild, true},
		{"a go.mod block left open", func(t *testing.T, dir string) Options {
			edit(t, dir, "go.mod", "\tgolang.org/x/time v0.15.0 // indirect\n)", "\tgolang.org/x/time v0.15.0 // indirect\n")
			return Options{}
		}, RuleGoModInvalid, true},
		{"a Go file that does not parse", func(t *testing.T, dir string) Options {
			edit(t, dir, "function-core/core.go", "func text(v any) string {", "func text(v any) string {{")
			return Options{}
		}, RuleGoSyntax, true},
	}
	// What a finding of some cases must say, beyond its rule.
	says := map[string]string{"an absolute replace, even into the source root": "is an absolute path"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := goTwin(t)
			res := structureOnly(t, dir, c.setup(t, dir))
			if got := has(res, c.rule); got != c.fires {
				t.Errorf("%s fired: %v, want %v\n%v", c.rule.ID, got, c.fires, res.Diagnostics.Sorted())
			}
			if want := says[c.name]; want != "" && !strings.Contains(fmt.Sprint(res.Diagnostics.Sorted()), want) {
				t.Errorf("no finding says %q:\n%v", want, res.Diagnostics.Sorted())
			}
		})
	}
}

// otherGOOS is an operating system validate does not run on here.
func otherGOOS() string {
	if runtime.GOOS == "windows" {
		return "plan9"
	}
	return "windows"
}

func TestReadGoProfile(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "cover.out")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cov, err := readGoProfile(write("mode: set\n"+
		"example.com/pkg/function-core/core.go:10.40,12.2 1 1\n"+
		"example.com/pkg/function-core/core.go:20.40,22.2 1 0\n"+
		"example.com/lib/lib.go:3.1,4.2 1 1\n"), "example.com/pkg")
	if err != nil {
		t.Fatal(err)
	}
	at := func(line, col int) token.Position { return token.Position{Line: line, Column: col} }
	if !cov.ran("function-core/core.go", at(10, 39), at(12, 2)) {
		t.Error("a block with a count did not run")
	}
	if cov.ran("function-core/core.go", at(20, 39), at(22, 2)) {
		t.Error("a block without a count ran")
	}
	if len(cov) != 1 {
		t.Errorf("another module's file kept: %v", cov)
	}
	for _, bad := range []string{"", "not a profile\n", "mode: set\nx.go:1.1 1\n", "mode: set\nx.go:a.1,2.2 1 1\n"} {
		if _, err := readGoProfile(write(bad), "example.com/pkg"); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
