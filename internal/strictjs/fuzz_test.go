package strictjs

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
)

// FuzzRules feeds arbitrary modules to the Function core and adapter rules
// (and the runtime rules): whatever a package holds, the rules report
// findings and never panic. The seeds are the compiled reference modules.
func FuzzRules(f *testing.F) {
	dir, in := build(f, reference, nil)
	for _, name := range []string{FunctionCoreFile, AdapterFile} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("export const x = async (input, context) => context.dispatch(`https://a.example/${input.id}`, {});"))
	f.Add([]byte("server.registerTool(\"t\", {title: `a`, inputSchema: z.object({}).meta({})}, async function () { if (1) {} try {} catch {} });"))
	facts := newFacts(in)
	f.Fuzz(func(t *testing.T, src []byte) {
		m, _ := jsmod.Parse("fuzz.mjs", src)
		if m == nil {
			return
		}
		c := &checker{f: facts, list: &diag.List{}}
		c.core(m)
		c.adapter(m)
		c.runtime(m)
	})
}
