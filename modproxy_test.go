package code2skill

import (
	"archive/zip"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// modulePath is the path "go install" is given; go.mod must declare it.
const modulePath = "github.com/code2skill/code2skill"

// releaseTestsEnv turns on the tests that build release artifacts: the
// cross-built matrix and the installation the CI action does. They take a
// while, so "go test ./..." skips them, saying so; CI (.ci/run) sets it,
// and they must pass there.
const releaseTestsEnv = "CODE2SKILL_RELEASE_TESTS"

func requireReleaseTests(t *testing.T) {
	t.Helper()
	if os.Getenv(releaseTestsEnv) != "1" {
		t.Skipf("set %s=1 to build the release artifacts (CI does)", releaseTestsEnv)
	}
}

// moduleProxy publishes the working tree's committed files as version of
// the module in a file-system module proxy, the layout proxy.golang.org
// serves, and returns the environment in which "go install
// github.com/code2skill/code2skill/cmd/code2skill@version" installs it as
// from the real proxy: a fresh, empty module cache, dependencies read from
// the machine's module cache and checked against the checksum database, no
// checksum database for the unpublished module itself.
func moduleProxy(t *testing.T, version string) []string {
	t.Helper()
	gomod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(gomod, []byte("module "+modulePath+"\n")) {
		t.Fatalf("go.mod does not declare module %s", modulePath)
	}
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("listing the committed files: %v", err)
	}
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	prefix := modulePath + "@" + version + "/"
	for _, name := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		data, err := os.ReadFile(name)
		if os.IsNotExist(err) {
			continue // deleted in the working tree, not yet committed
		}
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(prefix + name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	proxy := t.TempDir()
	dir := filepath.Join(proxy, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-12-01T00:00:00Z"}`),
		version + ".mod":  gomod,
		version + ".zip":  z.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goenv, err := exec.Command("go", "env", "GOMODCACHE", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	cache, upstream, _ := strings.Cut(strings.TrimSpace(string(goenv)), "\n")
	downloads := filepath.Join(cache, "cache", "download")
	return []string{
		// This module from the test's proxy, its dependencies from the
		// machine's module cache, and the checksum database through the
		// machine's own proxy, as a user's go install checks them.
		"GOPROXY=" + fileURL(proxy) + "," + fileURL(downloads) + "," + upstream,
		"GOMODCACHE=" + t.TempDir(),
		"GONOSUMDB=" + modulePath,
		"GOTOOLCHAIN=local",
		// Writable module cache, so that the test's directory can be
		// removed; paths trimmed, so that the build cache serves the
		// same compilation from every fresh module cache.
		"GOFLAGS=-modcacherw -trimpath",
		"CGO_ENABLED=0",
	}
}

func fileURL(dir string) string {
	return "file://" + filepath.ToSlash(dir)
}
