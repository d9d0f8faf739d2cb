// Package assetcopy keeps the copies of the reviewed runtime assets that
// live outside assets/: the generate Skill carries every runtime asset, and
// the seed-library example, its Go twin and the application packages the
// core tests validate carry the core one of their runtime
// (portable-agent-result.mjs, agentresult.go). They are generated from
// the assets (go generate at the repository root runs gencopies), never
// edited by hand, and a test fails when a committed copy differs.
package assetcopy

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/atomicfile"
)

// A Copy is one generated copy of an asset.
type Copy struct {
	Path  string // slash-separated, relative to the repository root
	Asset assets.Asset
}

// skillAssets is where the generate Skill keeps its runtime assets.
const skillAssets = "skills/code2skill-generate/assets/"

// Copies returns every copy of an asset outside assets/, in a fixed order.
func Copies() []Copy {
	var out []Copy
	for _, a := range assets.Runtime() {
		out = append(out, Copy{skillAssets + a.Name(), a})
	}
	return append(out,
		Copy{"examples/seed-library/" + assets.AgentResult.Name(), assets.AgentResult},
		Copy{"examples/_seed-library-go/" + assets.GoAgentResult.Name(), assets.GoAgentResult},
		Copy{"internal/core/testdata/corpus/field-notes/" + assets.AgentResult.Name(), assets.AgentResult},
		Copy{"internal/core/testdata/corpus/tasks-board/" + assets.AgentResult.Name(), assets.AgentResult})
}

// Stale returns the copies under root whose file is missing or differs
// from its asset, in the order of Copies. A copy that is not a regular
// file (a symbolic link, a directory) is stale. err reports a file that
// exists but cannot be read.
func Stale(root string) ([]Copy, error) {
	var stale []Copy
	for _, c := range Copies() {
		p := filepath.Join(root, filepath.FromSlash(c.Path))
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			stale = append(stale, c)
			continue
		case err != nil:
			return nil, fmt.Errorf("reading %s: %w", c.Path, err)
		case !fi.Mode().IsRegular():
			stale = append(stale, c)
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", c.Path, err)
		}
		if !bytes.Equal(data, c.Asset.Bytes()) {
			stale = append(stale, c)
		}
	}
	return stale, nil
}

// Generate writes every stale copy under root from its asset, in one
// atomic batch that never writes through a symbolic link (a link in the
// way stops it before anything is written). It returns the copies it
// wrote; up-to-date copies are left untouched.
func Generate(root string) ([]Copy, error) {
	stale, err := Stale(root)
	if err != nil || len(stale) == 0 {
		return nil, err
	}
	files := make([]atomicfile.File, len(stale))
	for i, c := range stale {
		files[i] = atomicfile.File{Path: c.Path, Data: c.Asset.Bytes(), Perm: 0o644}
	}
	if err := atomicfile.WriteAll(root, files); err != nil {
		return nil, err
	}
	return stale, nil
}
