package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
)

func runDiffCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), append([]string{"diff"}, args...), &Stdio{Out: &out, Err: &errb})
	return code, out.String(), errb.String()
}

// writeContract writes the reference contract, patched, into a new package.
func writeContract(t *testing.T, ops ...contracttest.Op) string {
	t.Helper()
	dir := t.TempDir()
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile), ops...)
	if err := os.WriteFile(filepath.Join(dir, contract.ContractFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDiffExitCodes(t *testing.T) {
	ref := writeContract(t)
	cosmetic := writeContract(t, contracttest.Set("/capabilities/0/description", `"Lists kinds."`))
	breaking := writeContract(t, contracttest.Set("/capabilities/4/operationPolicy/confirmation", `"not-required"`))
	other := writeContract(t, contracttest.Set("/contractId", `"another-feature"`))
	invalid := writeContract(t, contracttest.Remove("/capabilities/0/toolName"))
	broken := filepath.Join(t.TempDir(), "broken.json")
	if err := os.WriteFile(broken, []byte(`{"capabilities": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	legacy := t.TempDir()
	if err := os.WriteFile(filepath.Join(legacy, "capability-bundle.json"), contracttest.Reference(t, "capability-bundle.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	unreadable := t.TempDir()
	if err := os.Mkdir(filepath.Join(unreadable, contract.ContractFile), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want int
		rule string
	}{
		{"no change", []string{ref, ref}, ExitPassed, ""},
		{"contract file", []string{filepath.Join(ref, contract.ContractFile), ref}, ExitPassed, ""},
		{"cosmetic change", []string{ref, cosmetic}, ExitPassed, ""},
		{"semantic change", []string{ref, breaking}, ExitFindings, ""},
		{"another feature", []string{ref, other}, ExitUsage, "DIFF_CONTRACT_MISMATCH"},
		{"not of the format", []string{ref, invalid}, ExitUsage, "DIFF_INPUT_INVALID"},
		{"broken JSON", []string{broken, ref}, ExitUsage, "JSON_SYNTAX"},
		{"legacy package", []string{legacy, ref}, ExitUsage, "DIFF_INPUT_LEGACY"},
		{"no contract", []string{t.TempDir(), ref}, ExitUsage, "DIFF_INPUT_MISSING"},
		{"no such file", []string{filepath.Join(ref, "nowhere"), ref}, ExitUsage, "DIFF_INPUT_MISSING"},
		{"contract not a file", []string{unreadable, ref}, ExitUsage, "PKG_INPUT_NOT_REGULAR"},
		{"one argument", []string{ref}, ExitUsage, ""},
		{"bad format", []string{"--format", "yaml", ref, ref}, ExitUsage, ""},
		{"help", []string{"--help"}, ExitPassed, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runDiffCmd(t, tc.args...)
			if code != tc.want {
				t.Errorf("exit code %d, want %d\n%s%s", code, tc.want, out, errOut)
			}
			if tc.rule != "" && !strings.Contains(out, "["+tc.rule+"]") {
				t.Errorf("no %s finding:\n%s", tc.rule, out)
			}
			if tc.want == ExitUsage && tc.rule != "" && !strings.Contains(out, "diff: not compared") {
				t.Errorf("a refused comparison does not say so:\n%s", out)
			}
		})
	}
}

// The JSON report carries the changes in its summary, in the envelope of
// every command; a refused comparison has status error and no changes.
func TestDiffJSON(t *testing.T) {
	ref := writeContract(t)
	breaking := writeContract(t, contracttest.Set("/capabilities/4/operationPolicy/confirmation", `"not-required"`))
	code, out, _ := runDiffCmd(t, "--format", "json", ref, breaking)
	if code != ExitFindings {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		SchemaVersion int    `json:"schemaVersion"`
		Command       string `json:"command"`
		Status        string `json:"status"`
		Summary       struct {
			Semantic bool   `json:"semantic"`
			Breaking int    `json:"breaking"`
			Digest   string `json:"digest"`
			Changes  []struct {
				Class, Kind, Rule, Pointer string
				Before, After              any
			} `json:"changes"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Summary.Changes
	if doc.SchemaVersion != 1 || doc.Command != "diff" || doc.Status != "failed" || !doc.Summary.Semantic || doc.Summary.Breaking != 1 ||
		len(doc.Summary.Digest) != 64 || len(c) != 1 || c[0].Rule != "confirmation-dropped" || c[0].Pointer != "/capabilities/4/operationPolicy/confirmation" ||
		c[0].Before != "trusted-confirmation-required" || c[0].After != "not-required" {
		t.Errorf("report:\n%s", out)
	}
	code, out, _ = runDiffCmd(t, "--format", "json", ref, writeContract(t, contracttest.Set("/contractId", `"x-feature"`)))
	if code != ExitUsage || !strings.Contains(out, `"status": "error"`) || strings.Contains(out, `"changes"`) {
		t.Errorf("exit %d, report:\n%s", code, out)
	}
}

// The Markdown form is a pull-request comment section; text from the
// contracts cannot break its table or inject markup.
func TestDiffMarkdown(t *testing.T) {
	ref := writeContract(t)
	hostile := writeContract(t, contracttest.Set("/capabilities/0/inputs/0/valueDomain/values", `["compact", "full", "a|b <img src=x> **x**"]`))
	_, out, _ := runDiffCmd(t, "--format", "markdown", ref, hostile)
	for _, want := range []string{"### Contract diff: `synthetic-sample-request`", "| class | where | change | why |", `a\|b &lt;img src=x&gt; \*\*x\*\*`} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(line, "| compatible") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 5 {
			t.Errorf("a row has extra cells: %s", line)
		}
	}
}

// Without git a revision cannot be read: a failure of the tool (exit 3),
// not an empty diff.
func TestDiffWithoutGit(t *testing.T) {
	ref := writeContract(t)
	if err := os.Mkdir(filepath.Join(ref, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(ref)
	t.Setenv("PATH", t.TempDir())
	code, out, _ := runDiffCmd(t, "HEAD:pkg", ref)
	if code != ExitFailure || !strings.Contains(out, "git is not installed") || !strings.Contains(out, "[DIFF_FAILED]") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}
