package mcpruntime

import (
	"bytes"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/testnode"
)

// pinnedInstall returns the repository root, whose pinned npm install the
// bundle is rebuilt from; without it (the README's test command runs
// "npm ci") the test fails, saying so, rather than pass unchecked.
func pinnedInstall(t *testing.T) string {
	t.Helper()
	testnode.Modules(t)
	return testnode.Root()
}

// TestEmbeddedRuntimeIsReproducible rebuilds mcp-tool/runtime.mjs from the
// reviewed entry and the pinned install and requires the embedded copy to
// be exactly that build: the runtime a package ships is the one the
// repository's lockfile and entry produce, and go generate is deterministic.
func TestEmbeddedRuntimeIsReproducible(t *testing.T) {
	root := pinnedInstall(t)
	first, _, err := Bundle(Options{Root: root, Entry: assets.RuntimeEntry.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	second, _, err := Bundle(Options{Root: root, Entry: assets.RuntimeEntry.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Fatal("two builds of the same entry and install differ")
	}
	if !assets.MCPRuntime.Matches(first) {
		t.Fatalf("assets/strict/runtime.mjs is not the build of the current entry and install (%d bytes embedded, %d built): run go generate ./assets",
			len(assets.MCPRuntime.Bytes()), len(first))
	}
}

// TestBannerNamesEveryBundledPackage checks that the bundle says what it
// contains: every package the build read, with version and licence, and
// the licence texts.
func TestBannerNamesEveryBundledPackage(t *testing.T) {
	root := pinnedInstall(t)
	js, pkgs, err := Bundle(Options{Root: root, Entry: assets.RuntimeEntry.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.Index(js, []byte("*/"))
	if !bytes.HasPrefix(js, []byte("/*!\n")) || end < 0 {
		t.Fatal("the bundle does not start with its banner comment")
	}
	banner := string(js[:end])
	var names []string
	for _, p := range pkgs {
		names = append(names, p.Name)
		line := " *   " + p.Name + " " + p.Version + " (" + p.License + ")\n"
		if !strings.Contains(banner, line) {
			t.Errorf("banner lacks %q", line)
		}
		if !strings.Contains(banner, strings.Split(p.Text, "\n")[0]) {
			t.Errorf("banner lacks the licence text of %s", p.Name)
		}
	}
	for _, want := range []string{"@modelcontextprotocol/sdk", "zod"} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("bundled packages %v lack %s", names, want)
		}
	}
	if len(js) > 2<<20 {
		t.Errorf("the runtime is %d bytes; keep it under 2 MiB", len(js))
	}
}

func TestPackageDir(t *testing.T) {
	for in, want := range map[string]string{
		"node_modules/zod/v4/classic/external.js":                       "node_modules/zod",
		"node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.js": "node_modules/@modelcontextprotocol/sdk",
		"node_modules/ajv-formats/node_modules/ajv/dist/ajv.js":         "node_modules/ajv-formats/node_modules/ajv",
		"mcp-runtime-entry.mjs":                                         "",
		"node_modules/@scope":                                           "",
	} {
		got, ok := packageDir(in)
		if got != want || ok != (want != "") {
			t.Errorf("packageDir(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestBannerCannotBeClosedByALicence(t *testing.T) {
	b := banner(runtimeAbout, []Package{{Name: "x", Version: "1.0.0", License: "MIT", Text: "ends */ early"}})
	if strings.Count(b, "*/") != 1 || !strings.HasSuffix(b, " */\n") {
		t.Fatalf("a licence text closed the banner early:\n%s", b)
	}
}
