package core

import (
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// moduleView returns what the package's processes may see of the
// node_modules they resolve from (computed once): the package's own, the
// ones above it, and the npm packages links above it lead to.
func (c *checker) moduleView() *pkgdir.ModuleView {
	c.viewOnce.Do(func() { c.view = c.pkg.ModuleView(true) })
	return c.view
}

// binds returns what the package's processes see besides the package
// itself (read-only): the node_modules directories above it, from which
// node resolves what the package's own node_modules lacks, and the npm
// packages their links lead to. Nothing the package itself links to is
// ever added: a link of its own that leads elsewhere stops the run.
func (c *checker) binds() []sandbox.Bind {
	v := c.moduleView()
	var bs []sandbox.Bind
	for _, nm := range v.Above {
		bs = append(bs, sandbox.Bind{Source: nm})
	}
	for _, dir := range v.Linked {
		bs = append(bs, sandbox.Bind{Source: dir})
	}
	return bs
}

// runnable reports the view's findings and whether the package's code may
// run. Its refusals (a FIFO, a link leading out) are about the package's
// files: they fail the structure stage.
func (c *checker) runnable() bool {
	v := c.moduleView()
	c.add(v.Findings...)
	if v.Runnable() {
		return true
	}
	c.mu.Lock()
	c.result.Structure = StageFailed
	c.mu.Unlock()
	return false
}
