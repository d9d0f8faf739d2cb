package sarif

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/sarif/sariftest"
)

var (
	ruleSyntax  = diag.Register("SARIFTEST_SYNTAX", diag.Error, "a module does not parse")
	ruleMember  = diag.Register("SARIFTEST_MEMBER", diag.Warning, "a member breaks a rule")
	ruleMissing = diag.Register("SARIFTEST_MISSING", diag.Error, "a file is missing")
	rulePackage = diag.Register("SARIFTEST_PACKAGE", diag.Info, "the package as a whole")
)

// schema is the SARIF 2.1.0 JSON Schema as published.
func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	s, err := sariftest.Schema()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Validate fails the test unless log is a valid SARIF 2.1.0 log.
func Validate(t *testing.T, s *jsonschema.Schema, log []byte) {
	t.Helper()
	violations, err := s.Validate(log)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations {
		t.Errorf("SARIF schema: %s", v)
	}
}

// fixture writes a package and a state directory and returns a report of
// findings in them, run from the directory that holds both.
func fixture(t *testing.T) *diag.Report {
	t.Helper()
	work := t.TempDir()
	t.Chdir(work)
	files := map[string]string{
		"pkg/mcp-tool/index.mjs":                   "const a = 1;\nconst é = \"😀\"; broken(\n",
		"pkg/canonical-contract.json":              "{\n  \"capabilities\": [\n    {\"toolName\": \"List-Kinds\", \"é\": 1}\n  ]\n}\n",
		"pkg.state/verification/cases/live/x.json": "{\"name\": 3}\n",
		"pkg/odd name.json":                        "[]\n",
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var l diag.List
	l.Add(
		ruleSyntax.New("mcp-tool/index.mjs", "unexpected end of input").At(2, 26),
		ruleMember.New("canonical-contract.json", "toolName %q must be snake_case", "List-Kinds").AtPointer("/capabilities/0/toolName"),
		ruleMember.New("canonical-contract.json", "no such member").AtPointer("/capabilities/0/inputs/3"),
		ruleMissing.New("MCP-SETUP.md", "is missing"),
		ruleMember.New("verification/cases/live/x.json", "name must be a string").AtPointer("/name"),
		rulePackage.New("", "evidence locators not resolved").WithDetail("pass --source-root\n"),
		ruleMember.New("odd name.json", "an odd name").AtPointer(""),
	)
	return &diag.Report{Command: "pipeline run", Status: diag.StatusFailed, List: &l, Line: "pkg: failed",
		Roots: []string{"pkg", "pkg.state"}, Anchor: "canonical-contract.json"}
}

func TestBuild(t *testing.T) {
	s := schema(t)
	r := fixture(t)
	var out bytes.Buffer
	if err := Write(&out, r, Producer{Version: "v1.4.0", RulesURL: "https://example.invalid/rules.md"}); err != nil {
		t.Fatal(err)
	}
	Validate(t, s, out.Bytes())
	var log Log
	if err := json.Unmarshal(out.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if got := run.Tool.Driver; got.SemanticVersion != "1.4.0" || len(got.Rules) != 4 {
		t.Errorf("driver: %+v", got)
	}
	if run.AutomationDetails.ID != "code2skill/pipeline-run/pkg/" {
		t.Errorf("automation id %q", run.AutomationDetails.ID)
	}
	type want struct {
		rule, uri, base, logical string
		line, col                int
		text                     string
	}
	wants := []want{
		// Sorted as every printer sorts: by file, line, pointer.
		{"SARIFTEST_PACKAGE", "pkg/canonical-contract.json", SourceRoot, "", 0, 0, "evidence locators not resolved\n\npass --source-root"},
		{"SARIFTEST_MISSING", "pkg/MCP-SETUP.md", SourceRoot, "", 0, 0, "is missing"},
		{"SARIFTEST_MEMBER", "pkg/canonical-contract.json", SourceRoot, "/capabilities/0/inputs/3", 3, 5, "no such member"},
		{"SARIFTEST_MEMBER", "pkg/canonical-contract.json", SourceRoot, "/capabilities/0/toolName", 3, 6, `toolName "List-Kinds" must be snake_case`},
		// A byte column after "é" and an astral character, in UTF-16 units.
		{"SARIFTEST_SYNTAX", "pkg/mcp-tool/index.mjs", SourceRoot, "", 2, 23, "unexpected end of input"},
		// The empty pointer, the whole document, is the file as a whole.
		{"SARIFTEST_MEMBER", "pkg/odd%20name.json", SourceRoot, "", 0, 0, "an odd name"},
		// A file the package does not hold is found under the next root.
		{"SARIFTEST_MEMBER", "pkg.state/verification/cases/live/x.json", SourceRoot, "/name", 1, 2, "name must be a string"},
	}
	if len(run.Results) != len(wants) {
		t.Fatalf("%d results, want %d:\n%s", len(run.Results), len(wants), out.String())
	}
	for i, w := range wants {
		res := run.Results[i]
		loc := res.Locations[0]
		pl := loc.PhysicalLocation
		line, col := 0, 0
		if pl.Region != nil {
			line, col = pl.Region.StartLine, pl.Region.StartColumn
		}
		logical := ""
		if len(loc.LogicalLocations) > 0 {
			logical = loc.LogicalLocations[0].FullyQualifiedName
		}
		got := want{res.RuleID, pl.ArtifactLocation.URI, pl.ArtifactLocation.URIBaseID, logical, line, col, res.Message.Text}
		if got != w {
			t.Errorf("result %d:\n got %+v\nwant %+v", i, got, w)
		}
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d: ruleIndex %d names %s", i, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
		if res.PartialFingerprints[FingerprintKey] == "" {
			t.Errorf("result %d has no fingerprint", i)
		}
	}
	levels := map[string]string{}
	for _, rule := range run.Tool.Driver.Rules {
		levels[rule.ID] = rule.DefaultConfiguration.Level
		if !strings.HasSuffix(rule.HelpURI, "#"+strings.ToLower(rule.ID)) || rule.ShortDescription.Text == "" {
			t.Errorf("rule %s: help %q, description %q", rule.ID, rule.HelpURI, rule.ShortDescription.Text)
		}
	}
	if levels["SARIFTEST_PACKAGE"] != "note" || levels["SARIFTEST_MEMBER"] != "warning" || levels["SARIFTEST_SYNTAX"] != "error" {
		t.Errorf("levels: %v", levels)
	}
}

// A finding keeps its fingerprint when an edit moves it to another line,
// and two identical findings in one file keep theirs apart.
func TestFingerprintsIgnoreLines(t *testing.T) {
	dir := t.TempDir()
	prints := func(ds ...diag.Diagnostic) []string {
		var l diag.List
		l.Add(ds...)
		log := Build(&diag.Report{Command: "validate", List: &l, Roots: []string{dir}}, Producer{})
		var out []string
		for _, r := range log.Runs[0].Results {
			out = append(out, r.PartialFingerprints[FingerprintKey])
		}
		return out
	}
	before := prints(
		ruleSyntax.New("a.mjs", "unexpected token at line 4").At(4, 2),
		ruleSyntax.New("a.mjs", "unexpected token at line 9").At(9, 2),
	)
	after := prints(
		ruleSyntax.New("a.mjs", "unexpected token at line 6").At(6, 2),
		ruleSyntax.New("a.mjs", "unexpected token at line 11").At(11, 7),
	)
	if before[0] != after[0] || before[1] != after[1] || before[0] == before[1] {
		t.Errorf("fingerprints before %v, after %v", before, after)
	}
	other := prints(ruleSyntax.New("b.mjs", "unexpected token at line 4").At(4, 2))
	if other[0] == before[0] {
		t.Error("findings in two files share a fingerprint")
	}
}

func TestArtifactOutsideTheWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir())
	var l diag.List
	l.Add(ruleMissing.New("", "the package as a whole"))
	log := Build(&diag.Report{Command: "validate", List: &l, Roots: []string{dir}}, Producer{})
	got := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation
	if got.URIBaseID != "" || got.URI != "file://"+filepath.ToSlash(dir)+"/" {
		t.Errorf("artifact %+v", got)
	}
}

// The schema check can fail: a log with a level SARIF does not know, or a
// line 0, is refused.
func TestSchemaRefusesBrokenLogs(t *testing.T) {
	s := schema(t)
	var out bytes.Buffer
	if err := Write(&out, fixture(t), Producer{Version: "devel"}); err != nil {
		t.Fatal(err)
	}
	for _, edit := range [][2]string{
		{`"level": "error"`, `"level": "fatal"`},
		{`"startLine": 3`, `"startLine": 0`},
		{`"version": "2.1.0"`, `"version": "2.0.0"`},
	} {
		broken := strings.Replace(out.String(), edit[0], edit[1], 1)
		if broken == out.String() {
			t.Fatalf("the log has no %s", edit[0])
		}
		if v, err := s.Validate([]byte(broken)); err != nil || len(v) == 0 {
			t.Errorf("%s: accepted (%v)", edit[1], err)
		}
	}
}
