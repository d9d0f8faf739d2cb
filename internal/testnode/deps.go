package testnode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// LinkDependencies hard-links into pkgDir/node_modules, as Link does, the
// packages of modules (an npm install's node_modules) that
// pkgDir/package.json depends on, with everything they depend on in turn:
// what "npm ci" in pkgDir would install from the same lock. The
// repository's install also holds its own tools, twice as many files again,
// which a package never sees after its own npm ci.
func LinkDependencies(modules, pkgDir string) error {
	var manifest struct {
		Dependencies         map[string]string `json:"dependencies"`
		DevDependencies      map[string]string `json:"devDependencies"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
	}
	data, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(pkgDir, "package.json"), err)
	}
	var names []string
	for _, deps := range []map[string]string{manifest.Dependencies, manifest.DevDependencies, manifest.OptionalDependencies} {
		names = append(names, slices.Collect(maps.Keys(deps))...)
	}
	tops, err := installed(modules, names)
	if err != nil {
		return err
	}
	for _, top := range tops {
		if err := Link(filepath.Join(modules, top), filepath.Join(pkgDir, "node_modules", top)); err != nil {
			return err
		}
	}
	return nil
}

// installed returns the entries of modules ("zod", "@scope/name") that hold
// the packages names resolve to from the top of modules, and every package
// they depend on, resolved as node resolves an import: from the package's
// own node_modules outwards. A dependency that is not installed (an
// optional or peer one) is left out.
func installed(modules string, names []string) ([]string, error) {
	tops := map[string]bool{}
	seen := map[string]bool{}
	type want struct{ from, name string } // from: a package directory, or modules' parent
	queue := make([]want, 0, len(names))
	for _, n := range names {
		queue = append(queue, want{filepath.Dir(modules), n})
	}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		dir, ok := resolve(modules, w.from, w.name)
		if !ok || seen[dir] {
			continue
		}
		seen[dir] = true
		rel, err := filepath.Rel(modules, dir)
		if err != nil {
			return nil, err
		}
		parts := strings.SplitN(filepath.ToSlash(rel), "/", 3)
		top := parts[0]
		if strings.HasPrefix(top, "@") && len(parts) > 1 {
			top += "/" + parts[1]
		}
		tops[top] = true
		deps, err := dependencies(dir)
		if err != nil {
			return nil, err
		}
		for _, d := range deps {
			queue = append(queue, want{dir, d})
		}
	}
	out := slices.Collect(maps.Keys(tops))
	slices.Sort(out)
	return out, nil
}

// resolve finds the directory of package name as node would from the
// package directory from: in from/node_modules, then in the node_modules of
// each directory above it (but a node_modules itself), up to modules.
func resolve(modules, from, name string) (string, bool) {
	root := filepath.Dir(modules)
	for dir := from; ; dir = filepath.Dir(dir) {
		if filepath.Base(dir) != "node_modules" {
			candidate := filepath.Join(dir, "node_modules", filepath.FromSlash(name))
			if fi, err := os.Stat(filepath.Join(candidate, "package.json")); err == nil && fi.Mode().IsRegular() {
				return candidate, true
			}
		}
		if len(dir) <= len(root) {
			return "", false
		}
	}
}

// dependencies names what the package in dir needs installed beside it:
// its dependencies, optional dependencies and peer dependencies.
func dependencies(dir string) ([]string, error) {
	var manifest struct {
		Dependencies         map[string]string `json:"dependencies"`
		OptionalDependencies map[string]string `json:"optionalDependencies"`
		PeerDependencies     map[string]string `json:"peerDependencies"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	var names []string
	for _, deps := range []map[string]string{manifest.Dependencies, manifest.OptionalDependencies, manifest.PeerDependencies} {
		names = append(names, slices.Collect(maps.Keys(deps))...)
	}
	return names, nil
}
