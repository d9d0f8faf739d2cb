package strict

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/verdict"
)

// baseFiles are the files every strict-export-v1 package carries before
// finalization (spec strict-export-v1, the package tree): the Portable
// Core, its derived views, the runtime and the documents. Without one of
// them nothing else is checked.
var baseFiles = []string{
	contract.ExportProfileFile,
	contract.TopologyFile,
	contract.ContractFile,
	derive.GoalContractFile,
	derive.ConsumerRequirementsFile,
	contract.HostProfileFile,
	derive.HostCompatibilityFile,
	derive.VerificationMatrixFile,
	derive.BundleFile,
	derive.DraftFile,
	SkillFile,
	SetupFile,
	ContextFile,
	derive.CapabilityContractFile,
	derive.FunctionBundleFile,
	"function-core/index.mjs",
	derive.FunctionSchemaFile,
	"mcp-tool/index.mjs",
	"mcp-tool/runtime.mjs",
	derive.MCPSchemaFile,
	normalizerFile,
}

// Runtime files whose presence depends on the contract.
const (
	normalizerFile = "portable-error-normalizer.mjs"
	dispatcherFile = "portable-http-dispatch.mjs"
	guardFile      = "portable-workflow-guard.mjs"
)

// finalFiles are the files finalize writes besides the matrix; a
// finalized package carries all of them.
var finalFiles = slices.DeleteFunc(slices.Clone(verdict.FinalFiles), func(f string) bool { return f == verdict.MatrixFile })

// forbiddenFiles belong to legacy packages: a vNext package describes its
// surface in references/feature-context.md and its hard workflows in the
// contract alone, so that nothing can drift from it.
var forbiddenFiles = map[string]string{
	"PAGE.md":       "its business background belongs in " + ContextFile,
	"workflow.json": "hard workflows live only in the contract's workflows",
}

// requireFiles reports each of files the package lacks under rule.
func requireFiles(pkg *pkgdir.Package, files []string, rule *diag.Rule, why string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, f := range files {
		if !pkg.Has(f) {
			out = append(out, rule.New(f, "%s %s", absence(pkg, f), why))
		}
	}
	return out
}

// absence says how a file is absent: missing, or present as something
// that is not a regular file of the package (a link, which is never
// followed, a directory, a FIFO or a device, which are never read).
func absence(pkg *pkgdir.Package, file string) string {
	for _, l := range pkg.Links() {
		if l.Path == file {
			return "is a symbolic link, which code2skill does not follow;"
		}
	}
	if pkg.HasDir(file) {
		return "is a directory, not a file;"
	}
	if fi, err := os.Lstat(filepath.Join(pkg.Dir(), filepath.FromSlash(file))); err == nil && !fi.Mode().IsRegular() {
		return "is not a regular file (" + fi.Mode().Type().String() + "), which code2skill does not read;"
	}
	return "is missing;"
}

// checkForbidden reports the legacy files a vNext package must not carry.
func checkForbidden(pkg *pkgdir.Package) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, f := range []string{"PAGE.md", "workflow.json"} {
		if pkg.Has(f) {
			out = append(out, RuleFileForbidden.New(f, "a vNext package must not carry %s: %s", f, forbiddenFiles[f]))
		}
	}
	return out
}

// sendsHTTP reports whether a capability sends HTTP requests, which a
// Function without a dispatcher in its runtime context sends through
// portable-http-dispatch.mjs.
func sendsHTTP(c *contract.Contract) bool {
	for i := range c.Capabilities {
		if c.Capabilities[i].Implementation.Kind == contract.ImplementationHTTP {
			return true
		}
	}
	return false
}

// needsGuard reports whether a capability is protected by a deterministic
// workflow, whose writes go through portable-workflow-guard.mjs.
func needsGuard(c *contract.Contract) bool {
	for i := range c.Capabilities {
		if p := c.Capabilities[i].RuntimeProtection; p != nil && p.Mode == contract.ProtectionDeterministicWorkflow {
			return true
		}
	}
	return len(c.Workflows) > 0
}
