// Package testgo gives tests what a go-stdio package needs to build:
// code2skill builds such a package offline, from the module cache, as the
// user's own "go mod download" left it, so a test that builds one first
// downloads its modules the way the user would. A test therefore never
// depends on what something else happened to put in the module cache: the
// README's test command fetches everything it builds.
package testgo

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Go skips t when the go command is not on PATH or in -short mode (building
// Go code takes a while), and returns the go command's path.
func Go(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds Go code")
	}
	bin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	return bin
}

// downloaded holds, per go.mod and go.sum content, the outcome of the one
// download this test process made for it.
var downloaded sync.Map // [sha256.Size]byte -> *download

type download struct {
	once sync.Once
	out  []byte
	err  error
}

// Modules runs "go mod download" in the Go module at dir with the user's
// environment (GOPROXY, GOMODCACHE, GOFLAGS...), so that its offline build
// finds every module it needs. A module whose go.mod and go.sum were
// already downloaded in this process is not asked for again.
func Modules(t testing.TB, dir string) {
	t.Helper()
	bin := Go(t)
	h := sha256.New()
	for _, f := range []string{"go.mod", "go.sum"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		h.Write(b)
		h.Write([]byte{0})
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	v, _ := downloaded.LoadOrStore(key, new(download))
	d := v.(*download)
	d.once.Do(func() {
		cmd := exec.Command(bin, "mod", "download")
		cmd.Dir = dir
		// The package's own go.mod, not a workspace of the caller's.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+withoutMod(os.Getenv("GOFLAGS")))
		d.out, d.err = cmd.CombinedOutput()
	})
	if d.err != nil {
		t.Fatalf("go mod download in %s: %v\n%s", filepath.Base(dir), d.err, d.out)
	}
}

// withoutMod drops a -mod flag from GOFLAGS: go mod download refuses
// -mod=vendor, and a caller's -mod says nothing about this module.
func withoutMod(flags string) string {
	var keep []string
	for _, f := range strings.Fields(flags) {
		if !strings.HasPrefix(f, "-mod=") && !strings.HasPrefix(f, "--mod=") {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, " ")
}
