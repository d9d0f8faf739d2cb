// Package client is the client side of the equipment lending desk: the
// requests the workshop's borrowing screen sends to the desk's API, and the
// screen's logic that decides when it sends them.
//
// A Client talks to one desk as one member. The desk's address is
// deployment configuration: DefaultBaseURL unless LENDING_DESK_BASE_URL
// names another; the member's bearer token comes from LENDING_DESK_TOKEN
// and is sent with every request.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// DefaultBaseURL is where the desk serves unless deployed elsewhere.
const DefaultBaseURL = "http://127.0.0.1:8390"

// The environment variables FromEnv reads.
const (
	BaseURLVariable = "LENDING_DESK_BASE_URL"
	TokenVariable   = "LENDING_DESK_TOKEN"
)

// maxResponse bounds a response body the client reads.
const maxResponse = 1 << 20

// Client sends the borrowing screen's requests to one desk as one member.
type Client struct {
	baseURL string
	token   string
	http    *http.Client
}

// New returns a client of the desk at baseURL (scheme, host and port, no
// path) that authenticates with the member's bearer token. A nil hc means
// http.DefaultClient.
func New(baseURL, token string, hc *http.Client) *Client {
	if hc == nil {
		hc = http.DefaultClient
	}
	return &Client{baseURL: strings.TrimSuffix(baseURL, "/"), token: token, http: hc}
}

// FromEnv returns a client configured by the environment getenv reads:
// LENDING_DESK_BASE_URL (DefaultBaseURL when unset) and LENDING_DESK_TOKEN
// (required).
func FromEnv(getenv func(string) string, hc *http.Client) (*Client, error) {
	token := getenv(TokenVariable)
	if token == "" {
		return nil, fmt.Errorf("%s is not set: the desk needs the member's bearer token", TokenVariable)
	}
	base := getenv(BaseURLVariable)
	if base == "" {
		base = DefaultBaseURL
	}
	return New(base, token, hc), nil
}

// Error is a failure the desk reported with its error envelope.
type Error struct {
	Status    int            `json:"-"`
	Code      string         `json:"code"`
	Message   string         `json:"message"`
	Details   map[string]any `json:"details"`
	Retryable bool           `json:"retryable"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("desk answered %d %s: %s", e.Status, e.Code, e.Message)
}

// do sends one request and decodes the answer into out when the status is
// want (out nil expects no body), or into an *Error otherwise.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, body any, want int, out any) error {
	u := c.baseURL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	var payload io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("encoding the %s %s body: %w", method, path, err)
		}
		payload = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, payload)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse))
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode != want {
		e := &Error{Status: resp.StatusCode}
		if err := json.Unmarshal(data, e); err != nil || e.Code == "" {
			return fmt.Errorf("%s %s: the desk answered %d without its error envelope", method, path, resp.StatusCode)
		}
		return e
	}
	if out == nil {
		if len(data) > 0 {
			return fmt.Errorf("%s %s: the desk answered %d with a body, and none was expected", method, path, resp.StatusCode)
		}
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}

// IsCode reports whether err is the desk's error with the given code.
func IsCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
