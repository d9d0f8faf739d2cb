package agentresult

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func response(status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader(body))}
}

func TestReadHTTPResponsePassesEveryStatusThrough(t *testing.T) {
	for _, status := range []int{200, 404, 503} {
		r, err := ReadHTTPResponse(response(status, `{"n":1}`))
		if err != nil || r.HTTPStatus != status || r.BodyText != `{"n":1}` {
			t.Errorf("status %d: got %+v, %v", status, r, err)
		}
	}
	if _, err := ReadHTTPResponse(response(0, "")); err == nil {
		t.Error("a status outside 100–599 was accepted")
	}
}

type failed struct{ resp *http.Response }

func (f failed) Error() string                { return "request failed" }
func (f failed) HTTPResponse() *http.Response { return f.resp }

func TestHTTPResultFromError(t *testing.T) {
	err := fmt.Errorf("calling: %w", failed{response(409, "taken")})
	r, ok := HTTPResultFromError(err)
	if !ok || r.HTTPStatus != 409 || r.BodyText != "taken" {
		t.Fatalf("got %+v, %v", r, ok)
	}
	if _, ok := HTTPResultFromError(errors.New("no answer")); ok {
		t.Error("an error without a response gave a result")
	}
}

func TestToAgentResult(t *testing.T) {
	res := ToAgentResult(HTTPResult{HTTPStatus: 201, BodyText: "{}"})
	if got := string(res.StructuredContent.(json.RawMessage)); got != `{"httpStatus":201,"bodyText":"{}"}` {
		t.Errorf("structuredContent %s", got)
	}
	if res.Content[0].(*mcp.TextContent).Text != `{"httpStatus":201,"bodyText":"{}"}` {
		t.Errorf("text %q", res.Content[0].(*mcp.TextContent).Text)
	}
	plain := ToAgentResult("done")
	if plain.StructuredContent != nil || plain.Content[0].(*mcp.TextContent).Text != "done" {
		t.Errorf("a string result: %+v", plain)
	}
}

type configError struct{}

func (configError) Error() string     { return "X is not set" }
func (configError) ErrorName() string { return "MissingConfigurationError" }
func (configError) ErrorCode() string { return "MISSING_CONFIGURATION" }

func TestToAgentErrorNamesAndMasks(t *testing.T) {
	res := ToAgentError(configError{})
	want := `{"error":{"name":"MissingConfigurationError","message":"X is not set","code":"MISSING_CONFIGURATION"}}`
	if !res.IsError || res.StructuredContent != nil {
		t.Errorf("isError %v, structuredContent %v; an error result carries its description as text only", res.IsError, res.StructuredContent)
	}
	uerr := &url.Error{Op: "Get", URL: "https://svc.internal.example:8443/v2/items", Err: errors.New("dial tcp: connection refused")}
	if len(res.Content) != 1 {
		t.Fatalf("%d content blocks, want 1", len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if text != want {
		t.Errorf("text %s", text)
	}
	masked := ToAgentError(uerr).Content[0].(*mcp.TextContent).Text
	if strings.Contains(masked, "svc.internal.example") || strings.Contains(masked, "8443") {
		t.Errorf("the location is shown: %s", masked)
	}
	if !strings.Contains(masked, `"cause":{"name":"Error","message":"dial tcp: connection refused"}`) {
		t.Errorf("the cause is missing: %s", masked)
	}
}
