package examples

import (
	"io/fs"
	"strings"
	"testing"
)

func TestSeedLibraryGoShowsItsGoModAsGoMod(t *testing.T) {
	var paths []string
	err := fs.WalkDir(SeedLibraryGo(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(paths, " ")
	for _, want := range []string{"go.mod", "go.sum", "MCP-SETUP.md", "agentresult/agentresult.go", "function-core/core.go", "mcp-tool/main.go"} {
		if !strings.Contains(" "+all+" ", " "+want+" ") {
			t.Errorf("%s is missing from %s", want, all)
		}
	}
	if strings.Contains(all, "go.mod.txt") {
		t.Errorf("the stored name shows: %s", all)
	}
	b, err := fs.ReadFile(SeedLibraryGo(), "go.mod")
	if err != nil || !strings.Contains(string(b), "// code2skill:profile core-export-v1 runtime=go-stdio") {
		t.Errorf("go.mod: %v\n%s", err, b)
	}
}
