package core

import (
	"path"
	"slices"
	"strings"
)

// Spec 003 keeps the compact package free of what belongs to the audit
// flow or to no package at all: no PAGE.md (a page is where the Producer
// searched, not what the package offers), no duplicate contract, evidence
// directory, Host report, verification matrix, receipt or manifest. The
// strict profile's own files are strictFiles; these are the others, found
// at any depth outside node_modules.

// auditFileNames are file names that never belong in a core package.
var auditFileNames = map[string]string{
	"PAGE.md":                       "a page document",
	"workflow.json":                 "a legacy strict workflow",
	"validation-receipt.json":       "a validation receipt",
	"verification-report.json":      "a verification report",
	"host-verification-report.json": "a Host verification report",
	"pipeline-report.json":          "a pipeline report",
	"run-state.json":                "pipeline state",
	"mode-summary.json":             "pipeline state",
	"capability-contracts.json":     "a strict documentation view",
	"schema-contract.json":          "a strict schema contract",
	"capability-bundle.json":        "a strict capability bundle",
}

// auditDirs are directory names that hold evidence or pipeline state.
var auditDirs = map[string]string{
	"evidence":      "an evidence directory",
	"verification":  "a verification evidence directory",
	"live-evidence": "a live evidence directory",
}

// checkAuditFiles reports page documents, receipts, manifests, reports
// and evidence directories anywhere in the package.
func (c *checker) checkAuditFiles() {
	reportedDirs := map[string]bool{}
	for _, f := range c.pkg.Files() {
		if f.Path == "package-lock.json" || slices.Contains(strictFiles, f.Path) {
			continue
		}
		dirs := strings.Split(path.Dir(f.Path), "/")
		for i, d := range dirs {
			what, ok := auditDirs[d]
			if !ok || d == "." {
				continue
			}
			dir := strings.Join(dirs[:i+1], "/")
			if !reportedDirs[dir] {
				reportedDirs[dir] = true
				c.add(RuleAuditFile.New(dir, "%s in a core-export-v1 package; evidence and pipeline state live outside the package (the strict flow keeps them in <pkg>.producer-state): remove it", what))
			}
		}
		base := path.Base(f.Path)
		what, ok := auditFileNames[base]
		if !ok {
			switch lower := strings.ToLower(base); {
			case strings.HasSuffix(lower, ".producer-state"):
				what, ok = "pipeline state", true
			case path.Ext(lower) == ".json" && (strings.Contains(lower, "receipt") || strings.HasSuffix(lower, "manifest.json")):
				what, ok = "a receipt or manifest", true
			}
		}
		if ok {
			c.add(RuleAuditFile.New(f.Path, "%s in a core-export-v1 package, which carries no page document, receipt, manifest, report or evidence (spec 003): remove it", what))
		}
	}
}
