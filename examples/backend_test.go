package examples_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/examples/notice-comments/app/server"
	"github.com/code2skill/code2skill/internal/cli"
	"github.com/code2skill/code2skill/internal/testnode"
)

// run runs one code2skill command in-process and returns its exit code,
// its standard output, and both outputs together for failure messages.
func run(t *testing.T, args ...string) (code int, stdout, all string) {
	t.Helper()
	var out, errs bytes.Buffer
	code = cli.Run(context.Background(), args, &cli.Stdio{In: strings.NewReader(""), Out: &out, Err: &errs})
	return code, out.String(), out.String() + errs.String()
}

// TestBackendSampleWalksThePipeline: the backend-only sample, written
// exactly as the Producer Skill describes it, passes check-contract with
// its evidence resolved, derives, validates before finalization, and goes
// through the offline pipeline (analyze, generate, verify, finalize) to
// the verdict a package without runtime and host verification earns:
// every capability generated and behaviour-verified, the package
// requires-review.
func TestBackendSampleWalksThePipeline(t *testing.T) {
	testnode.Node(t)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the evidence key pipeline creates
	t.Setenv("HOME", t.TempDir())
	root := t.TempDir()
	writeTree(t, examples.BackendSampleSource(), filepath.Join(root, "src"))
	pkg := filepath.Join(root, examples.BackendSampleName)
	writeTree(t, examples.BackendSample(), pkg)
	srcMap := examples.BackendSampleSourceID + "=" + filepath.Join(root, "src", "app", "server")

	if code, _, out := run(t, "check-contract", pkg, "--source-map", srcMap); code != 0 || !strings.Contains(out, "evidence locators resolved") {
		t.Fatalf("check-contract: exit %d\n%s", code, out)
	}
	code, out, all := run(t, "derive", pkg)
	if code != 0 {
		t.Fatalf("derive: exit %d\n%s", code, all)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	marker := lines[len(lines)-1]
	for _, doc := range []string{"SKILL.md", "MCP.zh-CN.md", "references/feature-context.md"} {
		data, err := fs_ReadFile(pkg, doc)
		if err != nil || !strings.Contains(string(data), marker) {
			t.Errorf("%s does not carry the marker derive prints (%s): %v", doc, marker, err)
		}
	}
	if code, _, all := run(t, "pipeline", "init", pkg, "--source-map", srcMap); code != 0 {
		t.Fatalf("pipeline init: exit %d\n%s", code, all)
	}
	code, out, all = run(t, "pipeline", "run", pkg, "--format", "json")
	if code != 0 {
		t.Fatalf("pipeline run: exit %d\n%s", code, all)
	}
	var rep struct {
		Summary struct {
			Decision string `json:"decision"`
			Stages   []struct {
				Name   string `json:"name"`
				Status string `json:"status"`
			} `json:"stages"`
			Capabilities []struct {
				ID               string `json:"id"`
				Generated        string `json:"generated"`
				BehaviorVerified string `json:"behaviorVerified"`
				RuntimeVerified  string `json:"runtimeVerified"`
				HostVerified     string `json:"hostVerified"`
			} `json:"capabilities"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("pipeline run --format json: %v\n%s", err, all)
	}
	want := map[string]string{"analyze": "completed", "generate": "completed", "verify": "completed",
		"runtime-verify": "pending", "host-verify": "pending", "finalize": "completed"}
	for _, st := range rep.Summary.Stages {
		if want[st.Name] != st.Status {
			t.Errorf("stage %s: %s, want %s", st.Name, st.Status, want[st.Name])
		}
		delete(want, st.Name)
	}
	if len(want) > 0 {
		t.Errorf("stages not reported: %v", want)
	}
	if len(rep.Summary.Capabilities) != 3 {
		t.Fatalf("%d capabilities, want 3\n%s", len(rep.Summary.Capabilities), all)
	}
	for _, c := range rep.Summary.Capabilities {
		if c.Generated != "yes" || c.BehaviorVerified != "yes" || c.RuntimeVerified != "no" || c.HostVerified != "no" {
			t.Errorf("%s: generated %s, behaviour-verified %s, runtime-verified %s, host-verified %s; want yes, yes, no, no",
				c.ID, c.Generated, c.BehaviorVerified, c.RuntimeVerified, c.HostVerified)
		}
	}
	// Offline, nothing is runtime- or host-verified: the honest verdict.
	if rep.Summary.Decision != "requires-review" {
		t.Errorf("decision %q, want requires-review", rep.Summary.Decision)
	}
	if code, _, all := run(t, "validate", pkg, "--source-map", srcMap); code != 0 {
		t.Errorf("validate of the finalized package: exit %d\n%s", code, all)
	}
}

// TestBackendSampleRoutes: the board answers each step of the contract at
// its path: the list without a token, the writes only with one.
func TestBackendSampleRoutes(t *testing.T) {
	board := httptest.NewServer(server.New(server.Config{Members: map[string]string{"token-a": "member-a"}}))
	defer board.Close()
	do := func(method, path, token, body string) int {
		req, _ := http.NewRequest(method, board.URL+path, strings.NewReader(body))
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := board.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, c := range []struct {
		method, path, token, body string
		want                      int
	}{
		{"GET", "/api/notices/water-rota/comments", "", "", 200},
		{"GET", "/api/notices/fence/comments", "", "", 404},
		{"POST", "/api/notices/water-rota/comments", "", `{"body": "hi"}`, 401},
		{"POST", "/api/notices/water-rota/comments", "token-a", `{"body": "hi"}`, 201},
		{"POST", "/api/notices/water-rota/comments", "token-a", `{"body": "` + strings.Repeat("x", server.MaxCommentLength+1) + `"}`, 422},
		{"DELETE", "/api/comments/cmt-0001", "", "", 401},
		{"DELETE", "/api/comments/cmt-0001", "token-a", "", 200},
		{"DELETE", "/api/comments/cmt-0001", "token-a", "", 404},
	} {
		if got := do(c.method, c.path, c.token, c.body); got != c.want {
			t.Errorf("%s %s (token %q): %d, want %d", c.method, c.path, c.token, got, c.want)
		}
	}
}

// writeTree writes every regular file of fsys under dir.
func writeTree(t *testing.T, fsys fs.FS, dir string) {
	t.Helper()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func fs_ReadFile(dir, name string) ([]byte, error) {
	return os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
}
