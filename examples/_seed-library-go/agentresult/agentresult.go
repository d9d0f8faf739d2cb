// Package agentresult projects what a go-stdio package's Functions obtain
// into MCP Tool results. It is a reviewed asset: code2skill copies it byte
// for byte into every go-stdio package (agentresult/agentresult.go) and
// validate reports a copy that differs.
//
// The projection mirrors portable-agent-result.mjs of the node-stdio
// profile:
//
//   - ReadHTTPResponse turns any HTTP answer, 2xx, 4xx or 5xx alike, into
//     {httpStatus, bodyText}: the status and the complete body, unjudged.
//   - HTTPResultFromError recovers the status and body from an error that
//     carries a response (a client that fails on 4xx/5xx), so that the
//     answer still reaches the agent as a plain result.
//   - ToAgentResult serializes a Function's value as the Tool result: the
//     JSON text as content and, for an object, the same value as
//     structuredContent.
//   - ToAgentError is for a call that obtained no response at all: an
//     isError result whose one text block holds {error: {name, message,
//     code, details, errors, cause}}, with network locations (host,
//     address, port) masked out of the message. It carries no
//     structuredContent: clients such as the TypeScript SDK Client check
//     structuredContent against a Tool's output schema even on error
//     results, and would throw instead of returning the error.
package agentresult

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxCauseDepth bounds how deep ToAgentError follows wrapped errors.
const maxCauseDepth = 4

// HTTPResult is an HTTP answer passed through unchanged.
type HTTPResult struct {
	HTTPStatus int    `json:"httpStatus"`
	BodyText   string `json:"bodyText"`
}

// ReadHTTPResponse reads the whole body of resp and closes it. Any status
// between 100 and 599 is a result; deciding what it means is left to the
// agent.
func ReadHTTPResponse(resp *http.Response) (HTTPResult, error) {
	if resp == nil || resp.StatusCode < 100 || resp.StatusCode > 599 {
		return HTTPResult{}, errors.New("ReadHTTPResponse: expected an HTTP response with a status between 100 and 599")
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return HTTPResult{}, fmt.Errorf("reading the response body: %w", err)
	}
	return HTTPResult{HTTPStatus: resp.StatusCode, BodyText: string(body)}, nil
}

// ResponseCarrier is an error that holds the HTTP response it failed on.
type ResponseCarrier interface {
	HTTPResponse() *http.Response
}

// HTTPResultFromError returns the HTTP answer an error carries, and false
// when it carries none (the call obtained no response).
func HTTPResultFromError(err error) (HTTPResult, bool) {
	var rc ResponseCarrier
	if !errors.As(err, &rc) {
		return HTTPResult{}, false
	}
	resp := rc.HTTPResponse()
	if resp == nil || resp.Body == nil {
		return HTTPResult{}, false
	}
	r, readErr := ReadHTTPResponse(resp)
	if readErr != nil {
		return HTTPResult{}, false
	}
	return r, true
}

// ToAgentResult serializes value as a Tool result: its JSON text as a text
// block (a string as it is) and, when it is a JSON object, the same value
// as structuredContent.
func ToAgentResult(value any) *mcp.CallToolResult {
	raw, err := json.Marshal(value)
	if err != nil {
		raw = []byte(`"[Unreadable]"`)
	}
	text := string(raw)
	var s string
	if json.Unmarshal(raw, &s) == nil {
		text = s
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if len(raw) > 0 && raw[0] == '{' {
		res.StructuredContent = json.RawMessage(raw)
	}
	return res
}

// ToAgentError turns a call that obtained no response into an isError
// result the agent can read: its description as the JSON of the one text
// block, without structuredContent.
func ToAgentError(err error) *mcp.CallToolResult {
	payload := struct {
		Error *errorDescription `json:"error"`
	}{describe(err, 0)}
	raw, mErr := json.Marshal(payload)
	if mErr != nil {
		raw = []byte(`{"error":{"name":"Error","message":"the error could not be read"}}`)
	}
	return &mcp.CallToolResult{
		IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: string(raw)}},
	}
}

// The optional methods an error implements to say more about itself.
type (
	named   interface{ ErrorName() string }
	coded   interface{ ErrorCode() string }
	details interface{ ErrorDetails() any }
)

// errorDescription is the serializable form of an error, its fields in
// the order portable-agent-result.mjs writes them.
type errorDescription struct {
	Name    string              `json:"name"`
	Message string              `json:"message"`
	Code    string              `json:"code,omitempty"`
	Details any                 `json:"details,omitempty"`
	Errors  []*errorDescription `json:"errors,omitempty"`
	Cause   *errorDescription   `json:"cause,omitempty"`
}

// describe is the serializable form of err: name, message (locations
// masked), code and details when the error says them, the errors it joins
// and the error it wraps.
func describe(err error, depth int) *errorDescription {
	if err == nil {
		return &errorDescription{Name: "Error", Message: "<nil>"}
	}
	out := &errorDescription{Name: "Error", Message: maskLocation(err, err.Error())}
	if n, ok := err.(named); ok && n.ErrorName() != "" {
		out.Name = n.ErrorName()
	}
	if c, ok := err.(coded); ok {
		out.Code = c.ErrorCode()
	}
	if d, ok := err.(details); ok {
		out.Details = d.ErrorDetails()
	}
	if depth >= maxCauseDepth {
		return out
	}
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out.Errors = append(out.Errors, describe(e, depth+1))
		}
	case interface{ Unwrap() error }:
		if cause := u.Unwrap(); cause != nil {
			out.Cause = describe(cause, depth+1)
		}
	}
	return out
}

// maskLocation replaces the network locations an error names (the host of
// a URL, an address, a port) with their kind, so that a Tool error does not
// show where the service runs.
func maskLocation(err error, message string) string {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		if u, pErr := url.Parse(urlErr.URL); pErr == nil && u.Host != "" {
			message = strings.ReplaceAll(message, urlErr.URL, "[url]")
			message = strings.ReplaceAll(message, u.Host, "[host]")
			message = strings.ReplaceAll(message, u.Hostname(), "[hostname]")
		}
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.Name != "" {
		message = strings.ReplaceAll(message, dnsErr.Name, "[hostname]")
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Addr != nil {
		addr := opErr.Addr.String()
		message = strings.ReplaceAll(message, addr, "[address]")
		if host, port, sErr := net.SplitHostPort(addr); sErr == nil {
			message = strings.ReplaceAll(message, host, "[address]")
			if _, aErr := strconv.Atoi(port); aErr == nil {
				message = strings.ReplaceAll(message, ":"+port, ":[port]")
			}
		}
	}
	return message
}
