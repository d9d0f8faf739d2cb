package core

import (
	"path/filepath"

	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// binds returns what the package's processes see besides the package
// itself (read-only): the node_modules directories above it, from which
// node resolves what the package's own node_modules lacks, and the
// directories that linked packages of any of them lead to.
func (c *checker) binds() []sandbox.Bind {
	var bs []sandbox.Bind
	own := filepath.Join(c.pkg.Dir(), "node_modules")
	for _, nm := range append([]string{own}, pkgdir.AncestorModules(c.pkg.Dir())...) {
		if nm != own {
			bs = append(bs, sandbox.Bind{Source: nm})
		}
		for _, target := range pkgdir.LinkedModules(nm) {
			bs = append(bs, sandbox.Bind{Source: target})
		}
	}
	return bs
}
