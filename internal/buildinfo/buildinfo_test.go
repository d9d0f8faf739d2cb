package buildinfo

import "testing"

// TestModule: the Go SDK code2skill speaks MCP through has a version, read
// from the build or from go.mod; a module it does not require has none.
func TestModule(t *testing.T) {
	if v := Module("github.com/modelcontextprotocol/go-sdk"); v == "" || v[0] != 'v' {
		t.Errorf("the Go SDK's version: %q", v)
	}
	if v := Module("example.com/not-required"); v != "" {
		t.Errorf("a module not required: %q", v)
	}
	gomod := []byte("module x\n\nrequire (\n\ta.example/b v1.2.3 // indirect\n)\n\nrequire c.example/d v0.1.0\n")
	if required(gomod, "a.example/b") != "v1.2.3" || required(gomod, "c.example/d") != "v0.1.0" {
		t.Error("go.mod's requirements are not read")
	}
}

func TestCode2skill(t *testing.T) {
	Version = "v9.9.9"
	defer func() { Version = "" }()
	if got := Code2skill(); got != "v9.9.9" {
		t.Errorf("with -X Version: %q", got)
	}
}
