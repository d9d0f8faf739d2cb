package hostverify

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// relayMode says what the relay does with the requests of one attempt.
type relayMode int

const (
	// forward sends each request on to the backend and its answer back.
	forward relayMode = iota
	// block answers each request itself, sending nothing on: an attempt
	// that must dispatch nothing cannot write even when the package is
	// wrong about it.
	block
	// drop closes each request's connection without an answer and sends
	// nothing on: the package sees a request whose outcome it cannot know.
	drop
)

// relayed is one request the relay received.
type relayed struct {
	Method    string   `json:"method"`
	Path      string   `json:"path"`
	Forwarded bool     `json:"forwarded"`
	Status    int      `json:"status,omitempty"`
	Carried   []string `json:"credentialHeaders"`
}

// relay stands between the package and one deployed base URL: the package
// is given the relay's address, and the relay counts every request the
// package sends, which is how host verification knows, without the
// package's word for it, what an attempt dispatched.
type relay struct {
	target *url.URL
	// credentials are the headers a credential may travel in (lower-case).
	credentials []string
	ln          net.Listener
	srv         *http.Server
	client      *http.Client

	mu         sync.Mutex
	mode       relayMode
	generation int // counts attempts
	seen       []relayed
}

// maxRelayBody bounds a request or response body the relay carries.
const maxRelayBody = 16 << 20

// startRelay serves a relay to target on a loopback port.
func startRelay(target *url.URL, credentials []string) (*relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &relay{
		target:      target,
		credentials: credentials,
		ln:          ln,
		client: &http.Client{
			Timeout: time.Minute,
			// The package's requests are answered as the backend answers
			// them: a redirect is the answer, never followed here.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
	}
	r.srv = &http.Server{Handler: r, ReadHeaderTimeout: 10 * time.Second}
	go r.srv.Serve(ln)
	return r, nil
}

// URL is the base URL the package is given.
func (r *relay) URL() string { return "http://" + r.ln.Addr().String() }

// attempt starts an attempt: the requests seen so far are forgotten, and
// those that follow are handled in mode.
func (r *relay) attempt(mode relayMode) {
	r.mu.Lock()
	r.mode, r.seen = mode, nil
	r.generation++
	r.mu.Unlock()
}

// received returns the requests of the current attempt.
func (r *relay) received() []relayed {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]relayed(nil), r.seen...)
}

func (r *relay) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r.srv.Shutdown(ctx)
}

func (r *relay) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	rec := relayed{Method: req.Method, Path: req.URL.Path, Carried: []string{}}
	for _, h := range r.credentials {
		if req.Header.Get(h) != "" {
			rec.Carried = append(rec.Carried, h)
		}
	}
	// The request is counted before anything answers it, so that it counts
	// in the attempt it was sent in, however soon that attempt ends.
	r.mu.Lock()
	mode, attempt := r.mode, r.generation
	r.seen = append(r.seen, rec)
	at := len(r.seen) - 1
	r.mu.Unlock()
	switch mode {
	case block:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"code":"HOST_VERIFICATION_BLOCKED","message":"host verification sends nothing on during this attempt","details":{},"retryable":false}`)
		r.update(attempt, at, false, http.StatusServiceUnavailable)
		return
	case drop:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler) // closes the connection without an answer
	}
	status, err := r.send(w, req)
	if err != nil {
		http.Error(w, "the relay could not reach the backend: "+err.Error(), http.StatusBadGateway)
	}
	r.update(attempt, at, err == nil, status)
}

// update records how a request of an attempt was answered, unless a new
// attempt started since.
func (r *relay) update(attempt, at int, forwarded bool, status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if attempt == r.generation && at < len(r.seen) {
		r.seen[at].Forwarded, r.seen[at].Status = forwarded, status
	}
}

// hopHeaders are not passed on (RFC 9110, section 7.6.1).
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// send forwards a request to the backend, keeping method, path (below the
// target's own path), query, headers and body, and copies the answer back.
func (r *relay) send(w http.ResponseWriter, req *http.Request) (int, error) {
	out := *r.target
	out.Path = strings.TrimSuffix(r.target.Path, "/") + req.URL.Path
	out.RawPath = ""
	out.RawQuery = req.URL.RawQuery
	body := http.MaxBytesReader(w, req.Body, maxRelayBody)
	fwd, err := http.NewRequestWithContext(req.Context(), req.Method, out.String(), body)
	if err != nil {
		return 0, err
	}
	fwd.Header = req.Header.Clone()
	for _, h := range hopHeaders {
		fwd.Header.Del(h)
	}
	fwd.ContentLength = req.ContentLength
	resp, err := r.client.Do(fwd)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	for _, h := range hopHeaders {
		w.Header().Del(h)
	}
	w.WriteHeader(resp.StatusCode)
	if _, err := io.Copy(w, io.LimitReader(resp.Body, maxRelayBody)); err != nil && !errors.Is(err, io.EOF) {
		return resp.StatusCode, nil // the status was sent; the body broke off
	}
	return resp.StatusCode, nil
}
