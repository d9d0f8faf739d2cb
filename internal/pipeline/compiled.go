package pipeline

import (
	"github.com/code2skill/code2skill/internal/compile"
)

// compilation is what compile makes of the package's Portable Core and
// authored Tool prose: the runtime the scope digests slice. A run computes
// it at most once: generate hands over the result of its compile step, and
// otherwise the first scope digest compiles in memory.
type compilation struct {
	// res is nil when the authored Tool prose has errors: nothing can be
	// compiled, and no earlier check can be kept.
	res *compile.Result
	// files are the runtime's files by path.
	files map[string][]byte
}

// compilation returns what compile makes of the package in this run.
// Call it only for a Core without errors.
func (r *runner) compilation() (*compilation, error) {
	if r.compiled != nil {
		return r.compiled, nil
	}
	docs, dl, err := compile.ReadToolDocs(r.p.abs)
	if err != nil {
		return nil, err
	}
	var res *compile.Result
	if !dl.HasErrors() {
		res, _ = compile.Compile(&compile.Inputs{Core: r.core.Inputs, ToolDocs: docs})
	}
	r.keepCompilation(res)
	return r.compiled, nil
}

// keepCompilation remembers what compile made of the package in this run.
func (r *runner) keepCompilation(res *compile.Result) {
	c := &compilation{res: res, files: map[string][]byte{}}
	if res != nil {
		for _, f := range res.Files {
			c.files[f.Path] = f.Data
		}
	}
	r.compiled = c
}
