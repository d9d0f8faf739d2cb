package examples

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/code2skill/code2skill/internal/core"
	"github.com/code2skill/code2skill/internal/testgo"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
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

// sharedDir is a directory of the binary's own for shared fixtures.
var sharedDir testtier.Shared[string]

func fixtureDir(t testing.TB) string {
	t.Helper()
	return sharedDir.Get(t, func(t testing.TB) string {
		dir, err := os.MkdirTemp("", "code2skill-examples-")
		if err != nil {
			t.Fatal(err)
		}
		onExit(func() { os.RemoveAll(dir) })
		return dir
	})
}

var twinCopies testtier.Shared[[2]string]

// twinDirs skips in -short mode and where go is missing, then returns the
// node example, with the pinned node_modules, and its Go twin, with its
// modules downloaded, written once per test binary: the tests only read
// them.
func twinDirs(t *testing.T) (nodeDir, goDir string) {
	t.Helper()
	testgo.Go(t)
	testnode.Node(t)
	modules, root := testnode.Modules(t), fixtureDir(t)
	dirs := twinCopies.Get(t, func(t testing.TB) [2]string {
		nodeDir, goDir := filepath.Join(root, SeedLibraryName), filepath.Join(root, SeedLibraryGoName)
		if err := os.CopyFS(nodeDir, SeedLibrary()); err != nil {
			t.Fatal(err)
		}
		if err := testnode.Link(modules, filepath.Join(nodeDir, "node_modules")); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(goDir, SeedLibraryGo()); err != nil {
			t.Fatal(err)
		}
		return [2]string{nodeDir, goDir}
	})
	testgo.Modules(t, dirs[1])
	return dirs[0], dirs[1]
}

var twinServer testtier.Shared[*core.GoServer]

// goTwinServer returns the Go twin's server, built once per test binary
// from the twin twinDirs returns.
func goTwinServer(t *testing.T) *core.GoServer {
	t.Helper()
	_, goDir := twinDirs(t)
	return twinServer.Get(t, func(t testing.TB) *core.GoServer {
		server, findings, err := core.BuildGoServer(context.Background(), goDir, nil)
		switch {
		case err != nil:
			t.Fatalf("the Go twin does not build: %v", err)
		case len(findings) > 0:
			t.Fatalf("the Go twin does not build: %v", findings)
		}
		onExit(server.Remove)
		return server
	})
}
