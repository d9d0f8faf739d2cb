package code2skill

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/code2skill/code2skill/internal/sarif/sariftest"
	"github.com/code2skill/code2skill/internal/testnode"
)

// action is the part of action.yml a runner reads.
type action struct {
	Inputs map[string]struct {
		Default  string `yaml:"default"`
		Required bool   `yaml:"required"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
}

// TestActionChecksTheBundledPackages runs the steps of the CI action
// (action.yml) the way a runner runs a composite action: inputs and
// contexts substituted into each step's env and if, each run script under
// bash -eo pipefail in the workspace, GITHUB_PATH and GITHUB_OUTPUT carried
// from step to step. code2skill is installed by the action's own go install
// of a tagged version, from a module proxy holding this working tree, into
// a fresh module cache. The upload step, which needs GitHub, is checked
// for what it would upload, not run.
func TestActionChecksTheBundledPackages(t *testing.T) {
	requireReleaseTests(t)
	testnode.Node(t)
	if _, err := exec.LookPath("npm"); err != nil {
		t.Fatalf("npm is not on PATH: the action installs a package's dependencies with it")
	}
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs %q, want composite", a.Runs.Using)
	}

	const version = "v1.2.3"
	work := t.TempDir()
	workspace := filepath.Join(work, "workspace")
	runnerTemp := filepath.Join(work, "runner-temp")
	for _, d := range []string{workspace, runnerTemp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The bundled core example, whose dependencies the action installs; the
	// same without its setup document nor lockfile, with the repository's
	// pinned install linked in (npm ci takes a while); the strict sample's
	// authored package (not finalized: validate fails).
	copyTree(t, "examples/seed-library", filepath.Join(workspace, "packages/seed-library"))
	broken := filepath.Join(workspace, "packages/broken")
	copyTree(t, "examples/seed-library", broken)
	for _, f := range []string{"MCP-SETUP.md", "package-lock.json"} {
		if err := os.Remove(filepath.Join(broken, f)); err != nil {
			t.Fatal(err)
		}
	}
	testnode.LinkInto(t, broken)
	copyTree(t, "examples/equipment-lending/package", filepath.Join(workspace, "packages/equipment-lending"))

	inputs := map[string]string{
		"version":  version,
		"packages": "packages/seed-library\n  packages/broken\npackages/equipment-lending/\n",
	}
	for name, in := range a.Inputs {
		if _, given := inputs[name]; !given {
			if in.Required {
				t.Fatalf("input %s is required and the test does not give it", name)
			}
			inputs[name] = in.Default
		}
	}
	contexts := map[string]string{"runner.temp": runnerTemp, "github.workspace": workspace}
	for name, v := range inputs {
		contexts["inputs."+name] = v
	}
	githubPath := filepath.Join(work, "github-path")
	os.WriteFile(githubPath, nil, 0o644)
	env := append(os.Environ(), moduleProxy(t, version)...)
	env = append(env, "GITHUB_PATH="+githubPath, "RUNNER_TEMP="+runnerTemp, "GITHUB_WORKSPACE="+workspace)

	var uploaded string
	ran := map[string]int{} // step name -> exit status
	for i, step := range a.Runs.Steps {
		if step.If != "" && !evalCondition(t, step.If, contexts) {
			continue
		}
		if step.Uses != "" {
			if !strings.HasPrefix(step.Uses, "github/codeql-action/upload-sarif@") || !regexp.MustCompile(`@[0-9a-f]{40}$`).MatchString(step.Uses) {
				t.Fatalf("step %q uses %s: only upload-sarif, pinned by commit, is expected", step.Name, step.Uses)
			}
			uploaded = substitute(t, step.With["sarif_file"], contexts)
			continue
		}
		if step.Shell != "bash" {
			t.Fatalf("step %q runs under %q; the action's steps run under bash", step.Name, step.Shell)
		}
		output := filepath.Join(work, fmt.Sprintf("output-%d", i))
		os.WriteFile(output, nil, 0o644)
		stepEnv := append(env, "GITHUB_OUTPUT="+output, "PATH="+pathWith(t, githubPath))
		for k, v := range step.Env {
			stepEnv = append(stepEnv, k+"="+substitute(t, v, contexts))
		}
		script := filepath.Join(work, fmt.Sprintf("step-%d.sh", i))
		os.WriteFile(script, []byte(step.Run), 0o644)
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir, cmd.Env = workspace, stepEnv
		out, err := cmd.CombinedOutput()
		ran[step.Name] = cmd.ProcessState.ExitCode()
		t.Logf("step %q (exit %d):\n%s", step.Name, ran[step.Name], out)
		if err != nil && !strings.HasPrefix(step.Name, "Fail") {
			t.Fatalf("step %q failed: %v", step.Name, err)
		}
		outputs, _ := os.ReadFile(output)
		for _, line := range strings.Split(string(outputs), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok && step.ID != "" {
				contexts["steps."+step.ID+".outputs."+k] = v
			}
		}
	}

	if got := contexts["steps.check.outputs.failed"]; got != "true" {
		t.Errorf("failed = %q, want true: a package has findings", got)
	}
	if ran["Fail on findings"] != 1 {
		t.Errorf("the action did not fail on findings (ran: %v)", ran)
	}
	if uploaded != inputs["sarif-dir"] {
		t.Errorf("upload-sarif would upload %q, want %q", uploaded, inputs["sarif-dir"])
	}
	schema, err := sariftest.Schema()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []struct {
		dir        string
		wantErrors bool
	}{{"seed-library", false}, {"broken", true}, {"equipment-lending", true}} {
		name := "packages_2f" + pkg.dir
		log, err := os.ReadFile(filepath.Join(workspace, inputs["sarif-dir"], name+".sarif"))
		if err != nil {
			t.Errorf("no SARIF log for %s: %v", pkg.dir, err)
			continue
		}
		violations, err := schema.Validate(log)
		if err != nil || len(violations) > 0 {
			t.Errorf("%s.sarif is not a valid SARIF 2.1.0 log: %v %v", name, err, violations)
		}
		var l struct {
			Runs []struct {
				Tool struct {
					Driver struct{ Version string }
				}
				AutomationDetails struct{ ID string }
				Results           []struct{ Level string }
			}
		}
		if err := json.Unmarshal(log, &l); err != nil || len(l.Runs) != 1 {
			t.Fatalf("%s.sarif: %v", name, err)
		}
		run := l.Runs[0]
		if run.Tool.Driver.Version != version {
			t.Errorf("%s.sarif was written by code2skill %q, want the installed %s", name, run.Tool.Driver.Version, version)
		}
		if want := "code2skill/validate/packages/" + pkg.dir + "/"; run.AutomationDetails.ID != want {
			t.Errorf("%s.sarif: category %q, want %q", name, run.AutomationDetails.ID, want)
		}
		errors := 0
		for _, r := range run.Results {
			if r.Level == "error" {
				errors++
			}
		}
		if (errors > 0) != pkg.wantErrors {
			t.Errorf("%s.sarif has %d error results", name, errors)
		}
	}
}

// TestActionLogNamesDoNotCollide runs the action's check step, with a
// stand-in for code2skill, over packages whose paths differ only by "/" and
// "-" (and one spelled like an escape): each gets a log of its own, named
// after its path.
func TestActionLogNamesDoNotCollide(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not on PATH: the action's steps run under bash")
	}
	a := readAction(t)
	i := slices.IndexFunc(a.Runs.Steps, func(s actionStep) bool { return s.ID == "check" })
	if i < 0 {
		t.Fatal("action.yml has no step with id check")
	}
	check := a.Runs.Steps[i]
	work := t.TempDir()
	workspace, bin := filepath.Join(work, "workspace"), filepath.Join(work, "bin")
	want := map[string]string{ // package -> its log
		"a/b-c":    "a_2fb-c.sarif",
		"a-b/c":    "a-b_2fc.sarif",
		"a_2fb-c":  "a_5f2fb-c.sarif",
		"./x.y/":   "x_2ey.sarif",
		"ünï code": "_c3_bcn_c3_af_20code.sarif",
	}
	var packages []string
	for pkg := range want {
		packages = append(packages, pkg)
		if err := os.MkdirAll(filepath.Join(workspace, pkg), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The stand-in prints a log that names the package it checked.
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "code2skill"), []byte("#!/bin/sh\nprintf '%s\\n' \"$2\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	contexts := map[string]string{
		"inputs.packages":             strings.Join(packages, "\n"),
		"inputs.command":              "validate",
		"inputs.args":                 "",
		"inputs.install-dependencies": "false",
		"inputs.sarif-dir":            "logs",
	}
	env := append(os.Environ(), "GITHUB_OUTPUT="+filepath.Join(work, "output"), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for k, v := range check.Env {
		env = append(env, k+"="+substitute(t, v, contexts))
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", check.Run)
	cmd.Dir, cmd.Env = workspace, env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the check step failed: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(filepath.Join(workspace, "logs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(want) {
		t.Errorf("%d packages got %d logs", len(want), len(entries))
	}
	for pkg, log := range want {
		got, err := os.ReadFile(filepath.Join(workspace, "logs", log))
		if err != nil {
			t.Errorf("package %q: no log %s: %v", pkg, log, err)
			continue
		}
		if strings.TrimSpace(string(got)) != pkg {
			t.Errorf("%s holds the log of %q, want %q's", log, strings.TrimSpace(string(got)), pkg)
		}
	}
}

// readAction reads action.yml.
func readAction(t *testing.T) action {
	t.Helper()
	b, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// substitute replaces ${{ context.name }} by its value; any other
// expression fails the test, so that the action stays within what the
// test can run.
func substitute(t *testing.T, s string, contexts map[string]string) string {
	t.Helper()
	return expression.ReplaceAllStringFunc(s, func(m string) string {
		name := expression.FindStringSubmatch(m)[1]
		v, ok := contexts[name]
		if !ok && !strings.HasPrefix(name, "steps.") {
			t.Fatalf("the test does not know %s", m)
		}
		return v
	})
}

var comparison = regexp.MustCompile(`^([a-z][a-z0-9._-]*) (==|!=) '([^']*)'$`)

// evalCondition decides an if: of the form ${{ a == 'x' && b != ” }}.
func evalCondition(t *testing.T, cond string, contexts map[string]string) bool {
	t.Helper()
	m := expression.FindStringSubmatch(strings.TrimSpace(cond))
	if m == nil {
		t.Fatalf("if: %s is not a ${{ }} expression", cond)
	}
	for _, term := range strings.Split(m[1], "&&") {
		c := comparison.FindStringSubmatch(strings.TrimSpace(term))
		if c == nil {
			t.Fatalf("if: the test cannot decide %q", term)
		}
		if (contexts[c[1]] == c[3]) != (c[2] == "==") {
			return false
		}
	}
	return true
}

// pathWith is PATH with the directories the steps added to GITHUB_PATH
// first, the way a runner prepends them.
func pathWith(t *testing.T, githubPath string) string {
	b, err := os.ReadFile(githubPath)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line != "" {
			dirs = append([]string{line}, dirs...)
		}
	}
	return strings.Join(append(dirs, os.Getenv("PATH")), string(os.PathListSeparator))
}

// copyTree copies a directory, without node_modules.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() && d.Name() == "node_modules" {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestExampleWorkflowUsesTheAction keeps the example workflow in
// docs/ci.md runnable: it is YAML, grants what upload-sarif needs, and
// gives the action only inputs it has, every required one among them.
func TestExampleWorkflowUsesTheAction(t *testing.T) {
	a := readAction(t)
	doc, err := os.ReadFile("docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```yaml\n")
	block, _, _ = strings.Cut(block, "```")
	if !ok {
		t.Fatal("docs/ci.md has no yaml block")
	}
	var wf struct {
		Permissions map[string]string `yaml:"permissions"`
		Jobs        map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(block), &wf); err != nil {
		t.Fatalf("the example workflow: %v", err)
	}
	if wf.Permissions["security-events"] != "write" {
		t.Error("the example workflow does not grant security-events: write, which upload-sarif needs")
	}
	uses := 0
	for _, job := range wf.Jobs {
		for _, step := range job.Steps {
			if !strings.HasPrefix(step.Uses, "code2skill/code2skill@") {
				continue
			}
			uses++
			for k := range step.With {
				if _, ok := a.Inputs[k]; !ok {
					t.Errorf("the example gives the action an input it does not have: %s", k)
				}
			}
			for k, in := range a.Inputs {
				if _, given := step.With[k]; in.Required && !given {
					t.Errorf("the example does not give the required input %s", k)
				}
			}
		}
	}
	if uses == 0 {
		t.Error("the example workflow does not use the action")
	}
}
