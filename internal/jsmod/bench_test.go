package jsmod

import (
	"os"
	"sync"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// benchModule is a realistic 300-line MCP adapter: imports, literal
// registerTool calls with zod schemas, a class with private fields,
// template literals and regular expressions.
const benchModule = "testdata/bench/mcp-tool.mjs"

func readBench(b *testing.B) []byte {
	b.Helper()
	src, err := os.ReadFile(benchModule)
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkParse measures what the validator pays per file: the validity
// check, the syntax tree and the environment facts.
func BenchmarkParse(b *testing.B) {
	src := readBench(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		ForgetParses() // a cold parse, as in a process of its own
		m, diags := Parse(benchModule, src)
		if m == nil || len(diags) > 0 {
			b.Fatal(diags)
		}
		if len(m.Check()) != 0 || len(m.Imports()) == 0 {
			b.Fatal("unexpected facts")
		}
	}
}

// BenchmarkStages splits BenchmarkParse by stage.
func BenchmarkStages(b *testing.B) {
	src := readBench(b)
	b.Run("esbuild", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			ForgetParses() // a cold parse, as in a process of its own
			res := api.Transform(string(src), api.TransformOptions{Loader: api.LoaderJS, Format: api.FormatESModule, Target: api.ESNext, LogLevel: api.LogLevelSilent})
			if len(res.Errors) > 0 {
				b.Fatal(res.Errors)
			}
		}
	})
	b.Run("tree", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			ForgetParses() // a cold parse, as in a process of its own
			buf := make([]byte, len(src), len(src)+1)
			copy(buf, src)
			if _, err := js.Parse(parse.NewInputBytes(buf), js.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("facts", func(b *testing.B) {
		m, diags := Parse(benchModule, src)
		if m == nil {
			b.Fatal(diags)
		}
		b.ReportAllocs()
		for b.Loop() {
			ForgetParses() // a cold parse, as in a process of its own
			m.envOnce = sync.Once{}
			m.Check()
			m.Imports()
		}
	})
}
