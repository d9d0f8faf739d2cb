package livecall

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// modules are the package modules whose environment reads declare the
// variables its server may be given. The reviewed assets a package copies
// (the error normaliser, the workflow guard) read none, and the strict
// validator requires them byte for byte.
var modules = []string{
	"function-core/index.mjs",
	"mcp-tool/index.mjs",
}

// DeclaredVariables returns the environment variables the package's own
// modules read (process.env.NAME and the forms jsmod recognises), sorted,
// without the dry-run variable: runtime verification never runs the
// dry-run branch, and never passes anything else. The bundled MCP runtime
// (mcp-tool/runtime.mjs) is not the package's code and declares nothing.
// A module that is missing or does not parse declares nothing; the
// validator reports it.
func DeclaredVariables(dir, dryRunVariable string) ([]string, error) {
	var names []string
	for _, m := range modules {
		src, err := pkgdir.ReadFile(filepath.Join(dir, filepath.FromSlash(m)), 0)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, pkgdir.ErrNotRegular) || errors.Is(err, pkgdir.ErrTooLarge) {
			continue
		}
		if err != nil {
			return nil, err
		}
		mod, _ := jsmod.Parse(m, src)
		if mod == nil {
			continue
		}
		for _, r := range mod.EnvReads() {
			if r.Name != dryRunVariable {
				names = append(names, r.Name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil
}
