package pkgdir

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDetectRuntime(t *testing.T) {
	write := func(t *testing.T, files map[string]string) string {
		dir := t.TempDir()
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	marked := "// code2skill:profile core-export-v1 runtime=go-stdio\nmodule x\n"
	for _, c := range []struct {
		name    string
		files   map[string]string
		runtime Runtime
		coreGo  bool
	}{
		{"marked go.mod", map[string]string{"go.mod": marked}, RuntimeGo, true},
		{"marker after other lines", map[string]string{"go.mod": "module x\n\n" + marked}, RuntimeGo, true},
		{"unmarked go.mod", map[string]string{"go.mod": "module x\n"}, RuntimeNode, false},
		{"another runtime", map[string]string{"go.mod": "// code2skill:profile core-export-v1 runtime=rust\nmodule x\n"}, RuntimeNode, false},
		{"a look-alike comment", map[string]string{"go.mod": "// code2skill:profiles core-export-v1 runtime=go-stdio\nmodule x\n"}, RuntimeNode, false},
		{"node package beside go.mod", map[string]string{"go.mod": marked, "package.json": `{"code2skill":{"profile":"core-export-v1"}}`}, RuntimeNode, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := write(t, c.files)
			if got := DetectRuntime(dir); got != c.runtime {
				t.Errorf("DetectRuntime = %q, want %q", got, c.runtime)
			}
			if got := DetectCoreGo(dir); got != c.coreGo {
				t.Errorf("DetectCoreGo = %v, want %v", got, c.coreGo)
			}
		})
	}
	m, ok := ParseGoMarker([]byte("module x\n// code2skill:profile core-export-v1 runtime=go-stdio\n"))
	if !ok || m.Line != 2 || m.Profile != ProfileCore || m.Runtime != RuntimeGo {
		t.Errorf("ParseGoMarker = %+v, %v", m, ok)
	}
}
