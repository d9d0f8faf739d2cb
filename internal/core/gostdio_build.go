package core

import (
	"bytes"
	"go/build"
	"go/build/constraint"
	"io"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// goBuildSettings are the settings of validate's go commands that change
// what is compiled, as MCP-SETUP.md gives them to the consumer's go build
// (CORE_SETUP_GO_BUILD): no cgo, no work file, and the modules go.mod
// names from the module cache, never a vendor directory. The server the
// consumer builds is then the one validate checked.
var goBuildSettings = []string{"CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=readonly"}

// goBuildCommand is the build of MCP-SETUP.md (for a package named name).
func goBuildCommand(name string) string {
	return strings.Join(goBuildSettings, " ") + " go build -o bin/" + name + " ./mcp-tool"
}

// goWorkspaceFiles are what would make the consumer's build read other
// modules, or other copies of them, than the ones validate built.
var goWorkspaceFiles = []string{"go.work", "go.work.sum"}

// checkGoWorkspace reports a work file or a vendor directory in the
// package: a go build without GOWORK=off uses the work file (its replaces
// and modules), and one without -mod=readonly builds from vendor/, while
// validate builds from go.mod and the module cache alone.
func (c *checker) checkGoWorkspace() {
	for _, f := range goWorkspaceFiles {
		if c.pkg.Has(f) {
			c.add(RuleGoWorkspace.New(f, "a go-stdio package has no %s: a build that does not set GOWORK=off would read it and build modules validate never built; remove it", f))
		}
	}
	if c.pkg.HasDir("vendor") {
		c.add(RuleGoWorkspace.New("vendor", "a go-stdio package has no vendor directory: a build without -mod=readonly would compile vendor/ instead of the modules go.sum locks, which validate builds; remove it (go mod download fills the module cache)"))
	}
}

// reGoBuild finds the go build of the MCP server in MCP-SETUP.md.
var reGoBuild = regexp.MustCompile(`\bgo build\b[^\n]*\./mcp-tool`)

// setupGoBuildMissing returns the settings some go build of the server in
// MCP-SETUP.md (its text, lower-cased) leaves out of what validate's build
// sets; found is false when the document gives no such build.
func setupGoBuildMissing(text string) (missing []string, found bool) {
	builds := reGoBuild.FindAllStringIndex(text, -1)
	for _, b := range builds {
		line := text[strings.LastIndexByte(text[:b[0]], '\n')+1 : b[1]]
		for _, s := range goBuildSettings {
			if !strings.Contains(line, strings.ToLower(s)) && !slices.Contains(missing, s) {
				missing = append(missing, s)
			}
		}
	}
	return missing, len(builds) > 0
}

// checkGoConstrained reports every Go file, tests aside, that validate's
// build leaves out while a build elsewhere would compile it: a build
// constraint on cgo, on an operating system or architecture (a //go:build
// line or a _GOOS/_GOARCH file name), or an import of "C". Validate builds
// with CGO_ENABLED=0 on this machine's platform; code it never compiled
// must not run with the user's credentials on another. A file constrained
// to ignore is built by nobody.
func (c *checker) checkGoConstrained(src *goSource) {
	ctx := build.Default
	ctx.CgoEnabled = false
	ctx.GOPATH = ""
	// The files as the package holds them, never through a link.
	ctx.OpenFile = func(name string) (io.ReadCloser, error) {
		b, err := c.pkg.ReadFile(filepath.ToSlash(filepath.Clean(name)))
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	}
	for _, file := range src.sortedFiles() {
		if strings.HasSuffix(file, "_test.go") || !goBuilt(file) {
			continue
		}
		cgo := false
		for _, imp := range src.files[file].Imports {
			if imp.Path.Value == `"C"` {
				cgo = true
			}
		}
		if b, err := c.pkg.ReadFile(file); err == nil {
			if expr := goBuildExpr(b); expr != nil && expr.String() == "ignore" {
				continue
			}
		}
		ok, err := ctx.MatchFile(".", file)
		if err == nil && ok && !cgo {
			continue
		}
		why := "its build constraints exclude it"
		if cgo {
			why = `it imports "C"`
		}
		c.add(RuleGoFileNotBuilt.New(file, "validate's build (%s/%s, CGO_ENABLED=0) does not compile this file (%s), while a build on another platform or with cgo would: every Go file of the server is one the checks built; remove the constraint or the file",
			ctx.GOOS, ctx.GOARCH, why))
	}
}

// goBuilt reports whether the go command would consider a file of the
// package at all: not under vendor/ or testdata/, nor in a directory or
// file whose name starts with _ or . .
func goBuilt(file string) bool {
	for _, part := range strings.Split(file, "/") {
		if part == "testdata" || part == "vendor" || strings.HasPrefix(part, "_") || strings.HasPrefix(part, ".") {
			return false
		}
	}
	return path.Ext(file) == ".go"
}

// goBuildExpr returns the //go:build expression of a file's header, or
// nil.
func goBuildExpr(src []byte) constraint.Expr {
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			break
		}
		if constraint.IsGoBuild(line) {
			if e, err := constraint.Parse(line); err == nil {
				return e
			}
		}
	}
	return nil
}
