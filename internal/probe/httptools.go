package probe

import (
	"path"
	"strings"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// httpTools returns the Tools of a core package that pass an HTTP answer
// through: those whose Function's module sends a request with fetch or
// reads a response with the reviewed readHttpResponse (or
// httpResultFromError). A result of such a Tool without httpStatus is no
// success.
func httpTools(pkg *pkgdir.Package) map[string]bool {
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
