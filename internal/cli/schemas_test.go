package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/sarif"
	"github.com/code2skill/code2skill/internal/sarif/sariftest"
)

// jsonDocuments names, for every command that prints --format json, the
// published schemas (docs/schemas/<name>.schema.json) of the documents it
// prints. A command that learns --format json without a schema here fails
// TestEveryJSONDocumentHasASchema.
var jsonDocuments = map[string][]string{
	"demo":              {"validate", "pipeline-run"},
	"validate":          {"validate"},
	"probe":             {"probe"},
	"skills list":       {"skills-list"},
	"check-contract":    {"check-contract"},
	"derive":            {"derive"},
	"compile":           {"compile"},
	"vectors":           {"vectors"},
	"finalize":          {"finalize"},
	"pipeline init":     {"pipeline-init"},
	"pipeline run":      {"pipeline-run"},
	"pipeline status":   {"pipeline-status"},
	"pipeline diagnose": {"pipeline-diagnose"},
	"rules":             {"rules"},
	"diff":              {"diff"},
}

// schemaDir is where the published schemas are.
const schemaDir = "../../docs/schemas"

var (
	schemasOnce sync.Once
	schemas     map[string]*jsonschema.Schema
	sarifSchema *jsonschema.Schema
	schemasErr  error
)

// loadSchemas compiles every published schema, and the SARIF 2.1.0 schema.
func loadSchemas() (map[string]*jsonschema.Schema, *jsonschema.Schema, error) {
	schemasOnce.Do(func() {
		schemas, sarifSchema, schemasErr = compileSchemas()
	})
	return schemas, sarifSchema, schemasErr
}

func compileSchemas() (map[string]*jsonschema.Schema, *jsonschema.Schema, error) {
	files, err := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	if err != nil || len(files) == 0 {
		return nil, nil, fmt.Errorf("no schema in %s (%v)", schemaDir, err)
	}
	c := jsonschema.NewCompiler()
	ids := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		var head struct {
			ID string `json:"$id"`
		}
		if err := json.Unmarshal(b, &head); err != nil {
			return nil, nil, fmt.Errorf("%s: %v", f, err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".schema.json")
		if !strings.HasSuffix(head.ID, "/docs/schemas/"+filepath.Base(f)) {
			return nil, nil, fmt.Errorf("%s: $id %q does not name the file", f, head.ID)
		}
		if err := c.AddResource(head.ID, b); err != nil {
			return nil, nil, err
		}
		ids[name] = head.ID
	}
	out := map[string]*jsonschema.Schema{}
	for name, id := range ids {
		s, err := c.CompileURL(id)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", name, err)
		}
		out[name] = s
	}
	s, err := sariftest.Schema()
	if err != nil {
		return nil, nil, fmt.Errorf("SARIF schema: %v", err)
	}
	return out, s, nil
}

// schemaScriptCommands are the scripts' commands that check output against
// the published schemas:
//
//	json-schema NAME FILE        FILE is valid against docs/schemas/NAME.schema.json
//	sarif-valid FILE [REPORT]    FILE is a valid SARIF 2.1.0 log; with REPORT, the
//	                             same command's --format json output, it carries
//	                             every finding of REPORT, in order, where REPORT
//	                             places it
func schemaScriptCommands() map[string]func(ts *testscript.TestScript, neg bool, args []string) {
	return map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"json-schema": func(ts *testscript.TestScript, neg bool, args []string) {
			if len(args) != 2 {
				ts.Fatalf("usage: json-schema NAME FILE")
			}
			all, _, err := loadSchemas()
			ts.Check(err)
			s := all[args[0]]
			if s == nil {
				ts.Fatalf("no schema docs/schemas/%s.schema.json", args[0])
			}
			violations, err := s.Validate([]byte(readScriptFile(ts, args[1])))
			ts.Check(err)
			switch {
			case neg && len(violations) == 0:
				ts.Fatalf("%s is valid against %s", args[1], args[0])
			case !neg && len(violations) > 0:
				var b strings.Builder
				for _, v := range violations {
					fmt.Fprintf(&b, "\n  %s", v)
				}
				ts.Fatalf("%s breaks docs/schemas/%s.schema.json (a field added or changed in the output belongs in the schema too):%s", args[1], args[0], b.String())
			}
		},
		"sarif-valid": func(ts *testscript.TestScript, neg bool, args []string) {
			if neg || len(args) < 1 || len(args) > 2 {
				ts.Fatalf("usage: sarif-valid FILE [REPORT]")
			}
			_, s, err := loadSchemas()
			ts.Check(err)
			log := readScriptFile(ts, args[0])
			violations, err := s.Validate([]byte(log))
			ts.Check(err)
			for _, v := range violations {
				ts.Logf("SARIF schema: %s", v)
			}
			if len(violations) > 0 {
				ts.Fatalf("%s is not a valid SARIF 2.1.0 log", args[0])
			}
			if len(args) == 2 {
				if err := sameFindings(log, readScriptFile(ts, args[1])); err != nil {
					ts.Fatalf("%s against %s: %v", args[0], args[1], err)
				}
			}
		},
	}
}

func readScriptFile(ts *testscript.TestScript, name string) string {
	if name == "stdout" || name == "stderr" {
		return ts.ReadFile(name)
	}
	b, err := os.ReadFile(ts.MkAbs(name))
	ts.Check(err)
	return string(b)
}

// sameFindings checks that a SARIF log holds one result per finding of a
// JSON report, in the report's order, with its rule, level, message, file,
// line and pointer.
func sameFindings(log, report string) error {
	var l sarif.Log
	if err := json.Unmarshal([]byte(log), &l); err != nil {
		return err
	}
	var r struct {
		Command     string `json:"command"`
		Status      string `json:"status"`
		Diagnostics []struct {
			Rule, Severity, Message, File, Pointer, Detail string
			Line                                           int
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(report), &r); err != nil {
		return err
	}
	if len(l.Runs) != 1 {
		return fmt.Errorf("%d runs, want one", len(l.Runs))
	}
	run := l.Runs[0]
	if run.Properties.Command != r.Command || run.Properties.Status != r.Status {
		return fmt.Errorf("run of %q (%s), report of %q (%s)", run.Properties.Command, run.Properties.Status, r.Command, r.Status)
	}
	if len(run.Results) != len(r.Diagnostics) {
		return fmt.Errorf("%d results for %d findings", len(run.Results), len(r.Diagnostics))
	}
	levels := map[string]string{"error": "error", "warning": "warning", "info": "note"}
	for i, d := range r.Diagnostics {
		res := run.Results[i]
		loc := res.Locations[0]
		art := loc.PhysicalLocation.ArtifactLocation
		switch {
		case res.RuleID != d.Rule || res.Level != levels[d.Severity]:
			return fmt.Errorf("result %d is %s (%s), finding %s (%s)", i, res.RuleID, res.Level, d.Rule, d.Severity)
		case !strings.HasPrefix(res.Message.Text, d.Message) || d.Detail != "" && !strings.Contains(res.Message.Text, strings.TrimRight(d.Detail, "\n")):
			return fmt.Errorf("result %d says %q, finding %q", i, res.Message.Text, d.Message)
		case art.URI == "" || d.File != "" && !strings.HasSuffix(art.URI, "/"+escapedPath(d.File)) && art.URI != escapedPath(d.File):
			return fmt.Errorf("result %d is in %q, finding in %q", i, art.URI, d.File)
		case d.Line > 0 && (loc.PhysicalLocation.Region == nil || loc.PhysicalLocation.Region.StartLine != d.Line):
			return fmt.Errorf("result %d is not at line %d", i, d.Line)
		case d.Pointer != "" && (len(loc.LogicalLocations) == 0 || loc.LogicalLocations[0].FullyQualifiedName != d.Pointer):
			return fmt.Errorf("result %d does not name the pointer %s", i, d.Pointer)
		}
		if run.Tool.Driver.Rules[res.RuleIndex].ID != d.Rule {
			return fmt.Errorf("result %d: ruleIndex %d is not %s", i, res.RuleIndex, d.Rule)
		}
	}
	return nil
}

func escapedPath(p string) string {
	return strings.ReplaceAll(p, " ", "%20")
}

// TestSchemasCompile compiles every published schema and checks that
// docs/output.md lists each one.
func TestSchemasCompile(t *testing.T) {
	all, _, err := loadSchemas()
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	for name := range all {
		if !strings.Contains(string(page), "docs/schemas/"+name+".schema.json") {
			t.Errorf("docs/output.md does not list docs/schemas/%s.schema.json", name)
		}
	}
}

// scriptUse is a schema or SARIF check in a CLI script, with the command
// whose output it checks.
var (
	scriptExec = regexp.MustCompile(`^(?:\[[^\]]*\]\s*)?!?\s*exec code2skill(?:-[a-z]+)? ([a-z-]+)(?: ([a-z-]+))?(.*)$`)
	// The exec before a check is the command whose output it checks.
	scriptCheck = regexp.MustCompile(`^(?:\[[^\]]*\]\s*)?!?\s*(json-schema|sarif-valid) (\S+)`)
	// A script that keeps its commands' reports (reportsVariable) checks
	// the SARIF log of a command in PREFIX.sarif.
	scriptKeepsReports = regexp.MustCompile(`^env ` + reportsVariable + `=(\S*)`)
)

// TestEveryJSONDocumentHasASchema holds every command to its published
// output formats: each command whose help offers --format json has its
// schemas in jsonDocuments and docs/schemas, and a CLI script checks real
// output against each of them; each command that offers --format sarif has
// a script that validates its SARIF log.
func TestEveryJSONDocumentHasASchema(t *testing.T) {
	all, _, err := loadSchemas()
	if err != nil {
		t.Fatal(err)
	}
	checkedSchemas, checkedSARIF := scriptChecks(t)
	used := map[string]bool{}
	for _, c := range leafCommands() {
		help := helpOf(t, c)
		if strings.Contains(help, "--format text|json") {
			names, ok := jsonDocuments[c.name]
			if !ok {
				t.Errorf("code2skill %s prints --format json, but jsonDocuments names no schema of its document", c.name)
			}
			for _, n := range names {
				used[n] = true
				if all[n] == nil {
					t.Errorf("code2skill %s: docs/schemas/%s.schema.json does not exist", c.name, n)
				}
				if !checkedSchemas[n] {
					t.Errorf("code2skill %s: no CLI script checks output against docs/schemas/%s.schema.json (json-schema %s FILE)", c.name, n, n)
				}
			}
		}
		if strings.Contains(help, "--format text|json|sarif") && !checkedSARIF[c.name] {
			t.Errorf("code2skill %s offers --format sarif, but no CLI script validates its log (sarif-valid after exec code2skill %s … --format sarif, or of the PREFIX.sarif it keeps with %s=PREFIX)", c.name, c.name, reportsVariable)
		}
	}
	for n := range all {
		if n != "report" && !used[n] {
			t.Errorf("docs/schemas/%s.schema.json belongs to no command in jsonDocuments", n)
		}
	}
}

// scriptChecks returns the schemas the CLI scripts check output against,
// and the commands whose SARIF logs they validate.
func scriptChecks(t *testing.T) (schemas, sarifLogs map[string]bool) {
	var files []string
	for _, dir := range []string{"testdata/script", "testdata/slow"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	schemas, sarifLogs = map[string]bool{}, map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		last := []string(nil)
		keeps := false
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "-- ") {
				break // the archive's files
			}
			if m := scriptKeepsReports.FindStringSubmatch(line); m != nil {
				keeps = m[1] != ""
				continue
			}
			if m := scriptExec.FindStringSubmatch(line); m != nil {
				last = []string{m[1], m[2], line}
				continue
			}
			m := scriptCheck.FindStringSubmatch(line)
			if m == nil || last == nil {
				continue
			}
			if m[1] == "json-schema" {
				schemas[m[2]] = true
				continue
			}
			if strings.Contains(last[2], "--format sarif") || keeps && strings.HasSuffix(m[2], ".sarif") {
				name := last[0]
				if c := lookup(name); c != nil && len(c.subs) > 0 {
					name += " " + last[1]
				}
				sarifLogs[name] = true
			}
		}
	}
	return schemas, sarifLogs
}
