package core

import (
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// GoPackage is what a command that starts a go-stdio package's server
// (probe) needs to know of it, read through go/ast as validate reads it.
type GoPackage struct {
	// EnvReads are the environment variables the package's Go code reads.
	EnvReads []string
	// HTTPTools are the Tools whose Function, or a function of the module
	// it calls, writes an HTTP method: their results pass an HTTP answer
	// through.
	HTTPTools map[string]bool
	// Replaced are the resolved directories of the local replaces the
	// build reads, each inside one of the authorised source roots.
	Replaced []string
	// Findings are go.mod's and the Go files' findings that stop a build:
	// a replace leading out of the authorised roots, an unreadable go.mod,
	// a file that does not parse.
	Findings []diag.Diagnostic
}

// InspectGo reads the go-stdio package pkg: the variables its code reads,
// its HTTP Tools, and the directories its build needs besides the package,
// authorised by sourceRoots as validate --source-root authorises them.
func InspectGo(pkg *pkgdir.Package, sourceRoots []string) *GoPackage {
	c := newChecker(pkg, Options{SourceRoots: sourceRoots}, &Result{Runtime: pkgdir.RuntimeGo})
	setup, _ := pkg.ReadFile(setupFile)
	_, replaced := c.checkGoMod(setup)
	src := c.parseGo()
	out := &GoPackage{EnvReads: goEnvVars(src), HTTPTools: map[string]bool{}, Replaced: replaced}
	module := c.goModule()
	for _, file := range src.sortedFiles() {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		for _, t := range goTools(src, file, module) {
			if t.name != "" && t.fnName != "" && len(src.methods(t.fnDir, t.fnName, module, map[string]bool{}, 0)) > 0 {
				out.HTTPTools[t.name] = true
			}
		}
	}
	for _, d := range c.result.Diagnostics.Sorted() {
		if d.Rule == RuleGoReplaceOutside.ID || d.Rule == RuleGoModInvalid.ID || d.Rule == RuleGoSyntax.ID {
			out.Findings = append(out.Findings, d)
		}
	}
	return out
}
