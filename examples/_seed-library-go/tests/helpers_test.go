// Package tests holds the offline tests of the seed-library package. A
// fake HTTP transport records each request whole and answers it itself,
// and every service points at a reserved .invalid host with a fake member
// token, so no test can reach a network or hold a real credential.
package tests

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	functioncore "seed-library/function-core"
)

const token = "test-member-token-not-a-real-one"

var env = map[string]string{
	"CODE2SKILL_SEED_LIBRARY_CATALOG_BASE_URL":      "https://catalog.seed-library.invalid/api/",
	"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_BASE_URL": "https://reservations.seed-library.invalid/v2",
	"CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN":    token,
}

// with returns env with the given variables changed ("" removes one).
func with(changes map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range env {
		out[k] = v
	}
	for k, v := range changes {
		if v == "" {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// recorded is a request as the service would receive it.
type recorded struct {
	Method  string
	URL     string
	Headers map[string]string // lower-cased names
	Body    string
}

// recorder is a fake transport: it records each request and answers with
// one status and body.
type recorder struct {
	mu     sync.Mutex
	status int
	body   string
	calls  []recorded
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	headers := map[string]string{}
	for k := range req.Header {
		headers[strings.ToLower(k)] = req.Header.Get(k)
	}
	r.mu.Lock()
	r.calls = append(r.calls, recorded{req.Method, req.URL.String(), headers, string(body)})
	r.mu.Unlock()
	return &http.Response{StatusCode: r.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(r.body)), Request: req}, nil
}

// recording returns a Runtime whose requests the returned recorder answers.
func recording(vars map[string]string, status int, body string) (functioncore.Runtime, *recorder) {
	r := &recorder{status: status, body: body}
	return runtime(vars, r), r
}

// forbidden is a transport that must not be called.
type forbidden struct{ t *testing.T }

func (f forbidden) RoundTrip(req *http.Request) (*http.Response, error) {
	f.t.Errorf("unexpected request to %s", req.URL)
	return nil, errors.New("unexpected request")
}

// hanging never answers on its own: it waits for the request's context.
type hanging struct {
	started chan struct{}
	aborted chan error
}

func newHanging() *hanging { return &hanging{make(chan struct{}), make(chan error, 1)} }

func (h *hanging) RoundTrip(req *http.Request) (*http.Response, error) {
	close(h.started)
	<-req.Context().Done()
	h.aborted <- req.Context().Err()
	return nil, req.Context().Err()
}

func runtime(vars map[string]string, transport http.RoundTripper) functioncore.Runtime {
	return functioncore.Runtime{
		HTTP:   &http.Client{Transport: transport},
		Getenv: func(name string) string { return vars[name] },
	}
}

// jsonOf decodes a JSON text, failing the test when it is not JSON.
func jsonOf(t *testing.T, text string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, text)
	}
	return v
}

// asJSON is a value as the agent sees it.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var background = context.Background()
