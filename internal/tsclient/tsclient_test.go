package tsclient

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/testnode"
)

// TestBundledClientIsReproducible rebuilds client.mjs from the driver, its
// entry and the pinned install and requires the embedded copy to be that
// build: the client host verification runs is the one the repository's
// lockfile and sources produce.
func TestBundledClientIsReproducible(t *testing.T) {
	testnode.Modules(t)
	built, err := Build(testnode.Root())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, Bundled()) {
		t.Fatalf("internal/tsclient/client.mjs is not the build of the current driver and install (%d bytes embedded, %d built): run go generate ./internal/tsclient",
			len(Bundled()), len(built))
	}
	for _, want := range []string{" *   @modelcontextprotocol/sdk 1.32.2 (MIT)\n", "typescript-sdk Client"} {
		if !strings.Contains(string(built), want) {
			t.Errorf("client.mjs lacks %q", want)
		}
	}
}

// fixture starts a driver (the bundled client, or the entry script) in
// testdata, whose server.mjs runs on the pinned SDK.
func fixture(t *testing.T, script string) *Driver {
	t.Helper()
	testnode.Node(t)
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	if script != "" {
		script = filepath.Join(dir, script)
	}
	d, err := Start(context.Background(), Options{Dir: dir, Script: script, Binds: testnode.Binds(t, filepath.Dir(dir))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func open(t *testing.T, d *Driver, id string, elicitation bool) *Session {
	t.Helper()
	dir, _ := filepath.Abs("testdata")
	s, err := d.Open(context.Background(), id, Server{Command: "node", Args: []string{filepath.Join(dir, "server.mjs")},
		Elicitation: elicitation, ClientInfo: Implementation{"code2skill", "test"}, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func call(t *testing.T, s *Session, mode string, accept []string) *Call {
	t.Helper()
	c, err := s.CallTool(context.Background(), "lookup", map[string]any{"mode": mode}, accept, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPinnedClientRefusesAnErrorItsSchemaRejects: the pinned Client
// returns a success and an error result carrying its error as text, and
// throws -32602 on an error result whose structuredContent breaks the
// output schema (the asymmetry a host embedding it meets); a client of a
// version with the fix returns that result too.
func TestPinnedClientRefusesAnErrorItsSchemaRejects(t *testing.T) {
	d := fixture(t, "")
	if got := d.Client().String(); got != "typescript-sdk Client v1.32.2" {
		t.Errorf("the bundled client is %q", got)
	}
	s := open(t, d, "one", false)
	if s.ProtocolVersion != "2025-11-25" || len(s.Tools) != 1 {
		t.Errorf("protocol %q, %d tools", s.ProtocolVersion, len(s.Tools))
	}
	if c := call(t, s, "ok", nil); c.Thrown != nil || !strings.Contains(string(c.Result), `"status":200`) {
		t.Errorf("a success: %+v %s", c.Thrown, c.Result)
	}
	if c := call(t, s, "error-text", nil); c.Thrown != nil || !strings.Contains(string(c.Result), `"isError":true`) {
		t.Errorf("an error result with text only: %+v %s", c.Thrown, c.Result)
	}
	c := call(t, s, "error-structured", nil)
	if c.Thrown == nil || c.Thrown.Code == nil || *c.Thrown.Code != -32602 || c.Result != nil {
		t.Errorf("an error result its output schema rejects: %+v %s", c.Thrown, c.Result)
	}
	if _, err := s.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	fixed := fixture(t, "client-v2.mjs")
	if got := fixed.Client().String(); got != "typescript-sdk Client v2.4.0" {
		t.Errorf("the newer client is %q", got)
	}
	s = open(t, fixed, "one", false)
	if c := call(t, s, "error-structured", nil); c.Thrown != nil || !strings.Contains(string(c.Result), `"NOT_FOUND"`) {
		t.Errorf("the newer client on an error result its output schema rejects: %+v %s", c.Thrown, c.Result)
	}
}

// TestSessionsAnswerElicitation: a session that declares elicitation
// answers each form as the call says and records what was asked; one that
// does not is never asked. Two sessions are two servers of one driver.
func TestSessionsAnswerElicitation(t *testing.T) {
	d := fixture(t, "")
	asking := open(t, d, "asking", true)
	silent := open(t, d, "silent", false)
	for _, c := range []struct {
		accept []string
		want   string
	}{{[]string{"confirm"}, "accept"}, {nil, "cancel"}} {
		got := call(t, asking, "confirm", c.accept)
		var res struct {
			StructuredContent struct {
				Data struct{ Action string }
			}
		}
		json.Unmarshal(got.Result, &res)
		if res.StructuredContent.Data.Action != c.want || len(got.Asked) != 1 || !strings.Contains(string(got.Asked[0]), "Look it up?") {
			t.Errorf("accepting %v: %+v %s, asked %s", c.accept, got.Thrown, got.Result, got.Asked)
		}
	}
	got := call(t, silent, "confirm", []string{"confirm"})
	if got.Thrown == nil && !strings.Contains(string(got.Result), `"isError":true`) || len(got.Asked) != 0 {
		t.Errorf("a client without elicitation: %+v %s, asked %s", got.Thrown, got.Result, got.Asked)
	}
}

// TestOpenFailureIsTheClients: a server that cannot start is the client's
// error, with the server's stderr; the driver goes on.
func TestOpenFailureIsTheClients(t *testing.T) {
	d := fixture(t, "")
	_, err := d.Open(context.Background(), "broken", Server{Command: "node", Args: []string{"-e", "console.error('no server here'); process.exit(3)"},
		ClientInfo: Implementation{"code2skill", "test"}, Timeout: 20 * time.Second})
	oe, ok := err.(*OpenError)
	if !ok || !strings.Contains(oe.Stderr, "no server here") {
		t.Fatalf("open of a server that exits: %v", err)
	}
	s := open(t, d, "after", false)
	if c := call(t, s, "ok", nil); c.Thrown != nil {
		t.Errorf("after a failed open: %+v", c.Thrown)
	}
}
