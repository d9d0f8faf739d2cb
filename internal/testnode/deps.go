package testnode

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// LinkDependencies hard-links into pkgDir/node_modules what "npm ci" of
// the package would install from the repository's packages: the
// dependencies its package.json names and, transitively, theirs, as the
// repository's package-lock.json resolves them. It links a third of the
// files LinkInto does (the cross-check tools stay out), which is most of
// the cost of a fixture package.
func LinkDependencies(t testing.TB, pkgDir string) {
	t.Helper()
	if err := LinkDependenciesFrom(Modules(t), pkgDir); err != nil {
		t.Fatal(err)
	}
}

// LinkDependenciesFrom is LinkDependencies from the npm install at modules,
// for a caller without a testing.TB (a testscript command).
func LinkDependenciesFrom(modules, pkgDir string) error {
	dirs, err := dependencyDirs(pkgDir)
	if err != nil {
		return err
	}
	for _, d := range dirs {
		if err := Link(filepath.Join(modules, filepath.FromSlash(d)), filepath.Join(pkgDir, "node_modules", filepath.FromSlash(d))); err != nil {
			return err
		}
	}
	return nil
}

// lockEntry is what LinkDependencies reads of a package-lock.json package.
type lockEntry struct {
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

var (
	lockOnce sync.Once
	lock     map[string]lockEntry
	lockErr  error
)

// rootLock reads the repository's package-lock.json once.
func rootLock() (map[string]lockEntry, error) {
	lockOnce.Do(func() {
		var l struct {
			Packages map[string]lockEntry `json:"packages"`
		}
		b, err := os.ReadFile(filepath.Join(Root(), "package-lock.json"))
		if err == nil {
			err = canonjson.Unmarshal(b, &l)
		}
		lock, lockErr = l.Packages, err
		if lockErr != nil {
			lockErr = fmt.Errorf("reading the repository's package-lock.json: %w", lockErr)
		}
	})
	return lock, lockErr
}

// dependencyDirs returns the directories under node_modules, relative to
// it and slash-separated, of the packages pkgDir's package.json needs, as
// node resolves each dependency from its dependent's directory. A nested
// node_modules comes with the package that holds it.
func dependencyDirs(pkgDir string) ([]string, error) {
	var manifest struct {
		Dependencies map[string]string `json:"dependencies"`
	}
	b, err := os.ReadFile(filepath.Join(pkgDir, "package.json"))
	if err == nil {
		err = canonjson.Unmarshal(b, &manifest)
	}
	if err != nil {
		return nil, fmt.Errorf("reading the fixture's package.json: %w", err)
	}
	pkgs, err := rootLock()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var dirs []string
	var visit func(from, name string, required bool) error
	visit = func(from, name string, required bool) error {
		at, ok := resolveLocked(pkgs, from, name)
		if !ok {
			if required {
				return fmt.Errorf("%s is not in the repository's package-lock.json: add it to package.json and run npm install", name)
			}
			return nil
		}
		if seen[at] {
			return nil
		}
		seen[at] = true
		if !strings.Contains(strings.TrimPrefix(at, "node_modules/"), "/node_modules/") {
			dirs = append(dirs, strings.TrimPrefix(at, "node_modules/"))
		}
		e := pkgs[at]
		for _, deps := range []struct {
			names    map[string]string
			required bool
		}{{e.Dependencies, true}, {e.PeerDependencies, false}, {e.OptionalDependencies, false}} {
			for dep := range deps.names {
				if err := visit(at, dep, deps.required); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for name := range manifest.Dependencies {
		if err := visit("", name, true); err != nil {
			return nil, err
		}
	}
	return dirs, nil
}

// resolveLocked finds name as node would from the package at from (""
// for the root): in from's own node_modules, then in each enclosing one.
func resolveLocked(pkgs map[string]lockEntry, from, name string) (string, bool) {
	for {
		at := path.Join(from, "node_modules", name)
		if _, ok := pkgs[at]; ok {
			return at, true
		}
		if from == "" {
			return "", false
		}
		i := strings.LastIndex(from, "node_modules/")
		from = strings.TrimSuffix(from[:i], "/")
	}
}
