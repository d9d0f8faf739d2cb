package core

import (
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// binds returns what the package's processes see besides the package
// itself (read-only): the node_modules directories above it, from which
// node resolves what the package's own node_modules lacks.
func (c *checker) binds() []sandbox.Bind {
	var bs []sandbox.Bind
	for _, nm := range pkgdir.AncestorModules(c.pkg.Dir()) {
		bs = append(bs, sandbox.Bind{Source: nm})
	}
	return bs
}
