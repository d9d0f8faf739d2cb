package examples

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/buildinfo"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
	"github.com/code2skill/code2skill/internal/tsclient"
)

// The official MCP conformance suite (@modelcontextprotocol/conformance,
// pinned in .ci/tools-node) judges servers over Streamable HTTP only: the
// sample servers, which speak stdio, are reached through
// testdata/mcp-relay.mjs, one server process per HTTP session.
//
// Of its server scenarios, those that apply to a server offering Tools
// only over stdio run; every other one is named here with why it does not
// apply, and is not run.
var (
	conformanceApplies      = []string{"server-initialize", "ping", "tools-list"}
	conformanceDoesNotApply = map[string]string{
		"logging-set-level":             "a package's server declares no logging capability",
		"completion-complete":           "a package's server offers no prompts or resource templates to complete",
		"tools-call-simple-text":        "calls the suite's fixture Tool test_simple_text, which a package does not have",
		"tools-call-image":              "calls the suite's fixture Tool test_image_content, which a package does not have",
		"tools-call-audio":              "calls the suite's fixture Tool test_audio_content, which a package does not have",
		"tools-call-embedded-resource":  "calls the suite's fixture Tool test_embedded_resource, which a package does not have",
		"tools-call-mixed-content":      "calls the suite's fixture Tool test_multiple_content_types, which a package does not have",
		"tools-call-with-logging":       "calls the suite's fixture Tool test_tool_with_logging, which a package does not have",
		"tools-call-error":              "calls the suite's fixture Tool test_error_handling, which a package does not have",
		"tools-call-with-progress":      "calls the suite's fixture Tool test_tool_with_progress, which a package does not have",
		"tools-call-sampling":           "calls the suite's fixture Tool test_sampling, which a package does not have",
		"tools-call-elicitation":        "calls the suite's fixture Tool test_elicitation, which a package does not have",
		"json-schema-2020-12":           "lists the suite's fixture Tool json_schema_2020_12_tool, which a package does not have",
		"elicitation-sep1034-defaults":  "calls the suite's fixture Tool test_elicitation_sep1034_defaults, which a package does not have",
		"elicitation-sep1330-enums":     "calls the suite's fixture Tool test_elicitation_sep1330_enums, which a package does not have",
		"server-sse-polling":            "judges the Streamable HTTP transport, which is the relay's, not the stdio server's",
		"server-sse-multiple-streams":   "judges the Streamable HTTP transport, which is the relay's, not the stdio server's",
		"dns-rebinding-protection":      "judges the HTTP server's Host checks, which are the relay's, not the stdio server's",
		"resources-list":                "a package's server offers Tools only, no resources",
		"resources-read-text":           "a package's server offers Tools only, no resources",
		"resources-read-binary":         "a package's server offers Tools only, no resources",
		"resources-templates-read":      "a package's server offers Tools only, no resource templates",
		"resources-subscribe":           "a package's server offers Tools only, no resources",
		"resources-unsubscribe":         "a package's server offers Tools only, no resources",
		"prompts-list":                  "a package's server offers Tools only, no prompts",
		"prompts-get-simple":            "a package's server offers Tools only, no prompts",
		"prompts-get-with-args":         "a package's server offers Tools only, no prompts",
		"prompts-get-embedded-resource": "a package's server offers Tools only, no prompts",
		"prompts-get-with-image":        "a package's server offers Tools only, no prompts",
	}
)

// conformanceCheck is one check of a scenario's checks.json.
type conformanceCheck struct {
	ID           string
	Status       string
	ErrorMessage string
	Details      map[string]any
}

// conformance runs the pinned suite under the tools node.
type conformance struct {
	node, suite string
	binds       []sandbox.Bind
}

func newConformance(t *testing.T) *conformance {
	node := testnode.NodeAtLeast(t, "22.0.0", "the MCP conformance suite 0.1.16")
	suite := testnode.ToolsPackage(t, node, "@modelcontextprotocol/conformance")
	return &conformance{node: node, suite: filepath.Join(suite, "dist", "index.js"),
		binds: []sandbox.Bind{{Source: filepath.Dir(filepath.Dir(suite))}}}
}

func (c *conformance) argv(args ...string) []string {
	return append([]string{c.node, c.suite}, args...)
}

func (c *conformance) options(dir string) sandbox.Options {
	return sandbox.Options{Dir: dir, WritableDir: true, Network: sandbox.AllowNetwork, Binds: c.binds, Timeout: 5 * time.Minute}
}

// checks reads every checks.json the suite wrote under dir.
func (c *conformance) checks(t *testing.T, dir string) []conformanceCheck {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*", "checks.json"))
	var out []conformanceCheck
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cs []conformanceCheck
		if err := json.Unmarshal(data, &cs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, cs...)
	}
	return out
}

// serverScenarios lists the suite's server scenarios.
func (c *conformance) serverScenarios(t *testing.T) []string {
	t.Helper()
	res, err := sandbox.Run(context.Background(), c.argv("list", "--server"), c.options(t.TempDir()))
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("conformance list: %v %d\n%s", err, res.ExitCode, res.Stderr)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^\s+- (\S+)`).FindAllStringSubmatch(string(res.Stdout), -1) {
		names = append(names, m[1])
	}
	return names
}

// relay serves a sample's server over Streamable HTTP for the duration of
// the test, and returns its URL.
func relay(t *testing.T, s *mxSample) string {
	t.Helper()
	testdata, _ := filepath.Abs("testdata")
	proc, err := sandbox.Start(append([]string{"node", filepath.Join(testdata, "mcp-relay.mjs"), "serve", s.command}, s.args...), sandbox.Options{
		Dir: s.dir, Env: envList(s.env), Network: sandbox.AllowNetwork, Binds: append(testnode.Binds(t, testdata), s.binds...)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		proc.Close(5 * time.Second)
		proc.Stdout.Close()
	})
	line := firstLine(t, proc.Stdout, func(string) bool { return true })
	var out struct{ URL string }
	if err := json.Unmarshal([]byte(line), &out); err != nil || out.URL == "" {
		t.Fatalf("the relay said %q: %v\n%s", line, err, proc.Stderr())
	}
	return out.URL
}

// firstLine returns the first line of r that match accepts, waiting at
// most a minute.
func firstLine(t *testing.T, r io.Reader, match func(string) bool) string {
	t.Helper()
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if match(sc.Text()) {
				found <- sc.Text()
				io.Copy(io.Discard, r)
				return
			}
		}
		close(found)
	}()
	select {
	case line, ok := <-found:
		if !ok {
			t.Fatal("the output ended before the line the test waits for")
		}
		return line
	case <-time.After(time.Minute):
		t.Fatal("no line within a minute")
	}
	return ""
}

// TestSlowConformance runs the official MCP conformance suite's server
// scenarios that apply against the three sample servers, and its
// client-side initialize check against code2skill's own clients (the Go
// SDK session of its checks and the TypeScript SDK Client of host
// verification), which announce code2skill and its version.
func TestSlowConformance(t *testing.T) {
	testtier.Slow(t)
	testnode.Node(t)
	c := newConformance(t)

	listed := c.serverScenarios(t)
	var notRun []string
	for _, name := range listed {
		why, skip := conformanceDoesNotApply[name]
		switch {
		case slices.Contains(conformanceApplies, name):
		case skip:
			notRun = append(notRun, name+" ("+why+")")
		default:
			t.Errorf("the suite's server scenario %s is neither run nor named as not applying to a tools-only stdio server", name)
		}
	}
	for _, name := range append(slices.Clone(conformanceApplies), keys(conformanceDoesNotApply)...) {
		if !slices.Contains(listed, name) {
			t.Errorf("the suite has no server scenario %s any more", name)
		}
	}
	t.Logf("not run, as they do not apply to a server offering Tools only over stdio: %s", strings.Join(notRun, "; "))

	for _, s := range threeSamples(t) {
		t.Run("server/"+s.name, func(t *testing.T) {
			url := relay(t, s)
			for _, scenario := range conformanceApplies {
				out := t.TempDir()
				res, err := sandbox.Run(context.Background(), c.argv("server", "--url", url, "--scenario", scenario, "-o", out), c.options(out))
				if err != nil {
					t.Fatal(err)
				}
				checks := c.checks(t, out)
				if res.ExitCode != 0 || len(checks) == 0 {
					t.Errorf("%s: exit %d, %d checks\n%s%s", scenario, res.ExitCode, len(checks), res.Stdout, res.Stderr)
				}
				for _, ch := range checks {
					if ch.Status != "SUCCESS" && ch.Status != "INFO" {
						t.Errorf("%s: %s %s: %s", scenario, ch.ID, ch.Status, ch.ErrorMessage)
					}
				}
			}
		})
	}

	t.Run("client/initialize", func(t *testing.T) {
		out := t.TempDir()
		suite, err := sandbox.Start(c.argv("client", "--scenario", "initialize", "-o", out), c.options(out))
		if err != nil {
			t.Fatal(err)
		}
		line := firstLine(t, suite.Stdout, func(l string) bool { return strings.HasPrefix(l, "Server URL: ") })
		url := strings.TrimPrefix(line, "Server URL: ")
		testdata, _ := filepath.Abs("testdata")
		connect := []string{filepath.Join(testdata, "mcp-relay.mjs"), "connect", url}
		ctx := context.Background()

		// The Go SDK client of code2skill's checks.
		s, err := mcpcheck.Start(ctx, testdata, mcpcheck.Options{Command: append([]string{"node"}, connect...),
			Binds: testnode.Binds(t, testdata), Network: sandbox.AllowNetwork, RequestTimeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		s.ListTools(ctx)
		s.Close()
		// The TypeScript SDK Client of host verification.
		d, err := tsclient.Start(ctx, tsclient.Options{Dir: testdata, Binds: testnode.Binds(t, testdata), Network: sandbox.AllowNetwork})
		if err != nil {
			t.Fatal(err)
		}
		info := mcpcheck.ClientInfo()
		sess, err := d.Open(ctx, "conformance", tsclient.Server{Command: "node", Args: connect,
			ClientInfo: tsclient.Implementation{Name: info.Name, Version: info.Version}, Timeout: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		sess.Close(ctx)
		d.Close()

		suite.Close(2 * time.Second) // the suite writes its checks when stopped
		suite.Stdout.Close()
		var inits []conformanceCheck
		for _, ch := range c.checks(t, out) {
			if ch.ID == "mcp-client-initialization" {
				inits = append(inits, ch)
			}
		}
		if len(inits) != 2 {
			t.Fatalf("%d client initialization checks, want one per client: %+v\n%s", len(inits), inits, suite.Stderr())
		}
		for i, ch := range inits {
			name, version := fmt.Sprint(ch.Details["clientName"]), fmt.Sprint(ch.Details["clientVersion"])
			if ch.Status != "SUCCESS" || name != "code2skill" || version != buildinfo.Code2skill() {
				t.Errorf("client %d: %s %s, clientInfo %s %s (code2skill's version is %s)", i, ch.Status, ch.ErrorMessage, name, version, buildinfo.Code2skill())
			}
		}
	})
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
