package probe

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/reach"
)

// packageModules parses a core package's own modules (not its tests, not
// the reviewed result projection).
func packageModules(pkg *pkgdir.Package) map[string]*jsmod.Module {
	modules := map[string]*jsmod.Module{}
	for _, f := range pkg.Files() {
		if ext := path.Ext(f.Path); (ext != ".mjs" && ext != ".js") || strings.HasPrefix(f.Path, "tests/") || f.Path == assets.AgentResult.Name() {
			continue
		}
		if src, err := pkg.ReadFile(f.Path); err == nil {
			if m, _ := jsmod.Parse(f.Path, src); m != nil {
				modules[f.Path] = m
			}
		}
	}
	return modules
}

// configuration returns the environment the dry-run session of a core
// package gets for what the user did not give: .invalid base URLs and
// fake credentials for every variable the package reads or MCP-SETUP.md
// names (see reach.Setup). A dry run sends nothing, so the values only
// let a write get as far as its dry-run branch.
func configuration(pkg *pkgdir.Package, reads []string, given []string, dryRunVariable string) *reach.Setup {
	doc, _ := pkg.ReadFile("MCP-SETUP.md")
	var vars []string
	for _, v := range reach.Variables(reads, doc) {
		if !slices.ContainsFunc(given, func(kv string) bool { return strings.HasPrefix(kv, v+"=") }) {
			vars = append(vars, v)
		}
	}
	return reach.NewSetup(reach.Config{Variables: vars, DryRunVariable: dryRunVariable})
}

// moduleEnvReads lists the environment variables the modules read, in
// file order.
func moduleEnvReads(modules map[string]*jsmod.Module) []string {
	var reads []string
	for _, file := range slices.Sorted(maps.Keys(modules)) {
		for _, r := range modules[file].EnvReads() {
			reads = append(reads, r.Name)
		}
	}
	return reads
}

// httpTools returns the Tools of a core package that pass an HTTP answer
// through: those whose Function's module sends a request with fetch or
// reads a response with the reviewed readHttpResponse (or
// httpResultFromError). A result of such a Tool without httpStatus is no
// success.
func httpTools(modules map[string]*jsmod.Module) map[string]bool {
	out := map[string]bool{}
	for file, m := range modules {
		for _, r := range m.ToolRegistrations() {
			for _, use := range r.Uses {
				if !strings.HasPrefix(use.Specifier, "./") && !strings.HasPrefix(use.Specifier, "../") {
					continue
				}
				if target := modules[path.Clean(path.Join(path.Dir(file), use.Specifier))]; target != nil && sendsHTTP(target) && r.Name != "" {
					out[r.Name] = true
				}
			}
		}
	}
	return out
}

// sendsHTTP reports whether a module awaits a fetch or imports the reviewed
// HTTP result readers.
func sendsHTTP(m *jsmod.Module) bool {
	if len(m.RequestAwaits()) > 0 {
		return true
	}
	for _, imp := range m.Imports() {
		if path.Base(imp.Specifier) == assets.AgentResult.Name() {
			return true
		}
	}
	return false
}
