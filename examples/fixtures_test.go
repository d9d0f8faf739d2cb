package examples

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/testgo"
	"github.com/code2skill/code2skill/internal/testnode"
)

// Fixtures several tests only read are made once per test binary, by the
// first test that asks for one, and removed when the binary ends: the seed
// library and its Go twin written out, and the Go twin's server build. A
// test that changes what it is given makes its own.

var (
	atExitMu sync.Mutex
	atExit   []func()
)

func TestMain(m *testing.M) {
	code := m.Run()
	atExitMu.Lock()
	for i := len(atExit) - 1; i >= 0; i-- {
		atExit[i]()
	}
	atExitMu.Unlock()
	os.Exit(code)
}

// onExit runs f when the test binary ends, after every test.
func onExit(f func()) {
	atExitMu.Lock()
	defer atExitMu.Unlock()
	atExit = append(atExit, f)
}

// shared is a fixture made once per test binary: every caller gets the
// value the first one made, or its failure.
type shared[T any] struct {
	once sync.Once
	v    T
	err  error
}

func (s *shared[T]) get(t testing.TB, make func() (T, error)) T {
	t.Helper()
	s.once.Do(func() { s.v, s.err = make() })
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.v
}

// sharedDir is a directory of the binary's own for shared fixtures.
var sharedDir shared[string]

func fixtureDir(t testing.TB) string {
	t.Helper()
	return sharedDir.get(t, func() (string, error) {
		dir, err := os.MkdirTemp("", "code2skill-examples-")
		if err == nil {
			onExit(func() { os.RemoveAll(dir) })
		}
		return dir, err
	})
}

var twinCopies shared[[2]string]

// twinDirs skips in -short mode and where go is missing, then returns the
// node example, with the pinned node_modules, and its Go twin, with its
// modules downloaded, written once per test binary: the tests only read
// them.
func twinDirs(t *testing.T) (nodeDir, goDir string) {
	t.Helper()
	testgo.Go(t)
	testnode.Node(t)
	modules, root := testnode.Modules(t), fixtureDir(t)
	dirs := twinCopies.get(t, func() ([2]string, error) {
		nodeDir, goDir := filepath.Join(root, SeedLibraryName), filepath.Join(root, SeedLibraryGoName)
		if err := os.CopyFS(nodeDir, SeedLibrary()); err != nil {
			return [2]string{}, err
		}
		if err := testnode.Link(modules, filepath.Join(nodeDir, "node_modules")); err != nil {
			return [2]string{}, err
		}
		return [2]string{nodeDir, goDir}, os.CopyFS(goDir, SeedLibraryGo())
	})
	testgo.Modules(t, dirs[1])
	return dirs[0], dirs[1]
}

var twinServer shared[*core.GoServer]

// goTwinServer returns the Go twin's server, built once per test binary
// from the twin twinDirs returns.
func goTwinServer(t *testing.T) *core.GoServer {
	t.Helper()
	_, goDir := twinDirs(t)
	return twinServer.get(t, func() (*core.GoServer, error) {
		server, findings, err := core.BuildGoServer(context.Background(), goDir, nil)
		switch {
		case err != nil:
			return nil, fmt.Errorf("the Go twin does not build: %w", err)
		case len(findings) > 0:
			return nil, fmt.Errorf("the Go twin does not build: %v", findings)
		}
		onExit(server.Remove)
		return server, nil
	})
}
