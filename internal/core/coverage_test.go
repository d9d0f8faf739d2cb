package core

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/sandbox"
)

// coverageFixture is a package of one Tool whose Function sends one
// request, and its module's source offsets.
var coverageFixture = map[string]string{
	"mcp-tool/server.mjs": `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { findPlots } from '../function-core/index.mjs';
const server = new McpServer({ name: 'plots', version: '1.0.0' });
server.registerTool('find_plots', { description: 'Lists plots.' }, async (input) => findPlots(input, {}));
`,
	"function-core/index.mjs": `export async function findPlots(input, context) {
  const response = await context.fetch('plots');
  return { httpStatus: response.status };
}
`,
}

func TestCoverageJudgement(t *testing.T) {
	src := coverageFixture["function-core/index.mjs"]
	after := strconv.Itoa(strings.Index(src, ";\n  return") + 1) // where V8's count after the await starts
	for _, tc := range []struct {
		name   string
		report string // the functions of function-core/index.mjs; "" writes no report
		want   []string
	}{
		{"no report", "", []string{"CORE_TESTS_COVERAGE_MISSING"}},
		{"the module never loaded", "-", []string{"CORE_TESTS_FUNCTION_NOT_RUN"}},
		{"the Function never ran", `[{"functionName":"findPlots","ranges":[{"startOffset":7,"endOffset":120,"count":0}]}]`, []string{"CORE_TESTS_FUNCTION_NOT_RUN"}},
		{"ran, never answered", `[{"functionName":"findPlots","ranges":[{"startOffset":7,"endOffset":120,"count":2},{"startOffset":` + after + `,"endOffset":119,"count":0}]}]`, []string{"CORE_TESTS_REQUEST_NOT_ANSWERED"}},
		{"ran and answered", `[{"functionName":"findPlots","ranges":[{"startOffset":7,"endOffset":120,"count":2},{"startOffset":` + after + `,"endOffset":119,"count":1}]}]`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testChecker(t, coverageFixture)
			c.checkScripts()
			cov, err := newCoverageDir()
			if err != nil {
				t.Fatal(err)
			}
			defer cov.remove()
			if tc.report != "" {
				functions := "[]"
				url := "file:///elsewhere.mjs"
				if tc.report != "-" {
					functions = tc.report
					url = "file://" + filepath.ToSlash(filepath.Join(c.pkg.Dir(), "function-core", "index.mjs"))
				}
				report := `{"result":[{"scriptId":"1","url":"` + url + `","functions":` + functions + `}]}`
				if err := os.WriteFile(filepath.Join(cov.dir, "coverage-1.json"), []byte(report), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c.judgeCoverage(cov)
			if got := ruleIDs(c); strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("rules %v, want %v\n%s", got, tc.want, strings.Join(findings(c), "\n"))
			}
		})
	}
}

// TestCoverageDirCollected: where a mount namespace exists the test run
// writes its coverage into a capped directory of its own, whose files are
// copied out once it has ended, never into the host's directory.
func TestCoverageDirCollected(t *testing.T) {
	cov, err := newCoverageDir()
	if err != nil {
		t.Fatal(err)
	}
	defer cov.remove()
	if b := cov.bind(); b.Collect != sandbox.Mounts(sandbox.DenyNetwork) || !b.Writable {
		t.Errorf("bind %+v, mount namespace %v", b, sandbox.Mounts(sandbox.DenyNetwork))
	}
}
