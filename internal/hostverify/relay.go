package hostverify

import (
	"bytes"
	"context"
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
	// replay answers each request with the backend's answer to the same
	// request (method, path and query) in the last forward attempt, and
	// sends nothing on: the call of a second client repeats what the
	// first client's call made, and the backend sees it once.
	replay
)

// modeNames name the modes in evidence.
var modeNames = []string{"forward", "block", "drop", "replay"}

// exchange is a request the relay forwarded and the backend's answer.
type exchange struct {
	method, path, query string
	status              int
	header              http.Header
	body                []byte
	used                bool
}

// relayed is one request the relay received.
type relayed struct {
	Method    string   `json:"method"`
	Path      string   `json:"path"`
	Forwarded bool     `json:"forwarded"`
	Replayed  bool     `json:"replayed"`
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
	// recorded are the exchanges of the last forward attempt.
	recorded []*exchange
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
	if mode == forward {
		r.recorded = nil
	}
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
		r.update(attempt, at, func(rec *relayed) { rec.Status = http.StatusServiceUnavailable })
		return
	case drop:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler) // closes the connection without an answer
	case replay:
		r.replay(w, req, attempt, at)
		return
	}
	ex, err := r.send(w, req)
	if err != nil {
		http.Error(w, "the relay could not reach the backend: "+err.Error(), http.StatusBadGateway)
	}
	r.mu.Lock()
	if attempt == r.generation && ex != nil {
		r.recorded = append(r.recorded, ex)
	}
	r.mu.Unlock()
	r.update(attempt, at, func(rec *relayed) { rec.Forwarded, rec.Status = err == nil, ex.statusOf() })
}

// replay answers a request with the first unused recorded answer to the
// same method, path and query. A request the forward attempt did not make
// is answered 502, and counts as neither forwarded nor replayed.
func (r *relay) replay(w http.ResponseWriter, req *http.Request, attempt, at int) {
	io.Copy(io.Discard, http.MaxBytesReader(w, req.Body, maxRelayBody))
	r.mu.Lock()
	var ex *exchange
	for _, e := range r.recorded {
		if !e.used && e.method == req.Method && e.path == req.URL.Path && e.query == req.URL.RawQuery {
			e.used, ex = true, e
			break
		}
	}
	r.mu.Unlock()
	if ex == nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, `{"code":"HOST_VERIFICATION_NOT_REPLAYED","message":"host verification has no answer of the backend to this request: the first client's call did not send it","details":{},"retryable":false}`)
		r.update(attempt, at, func(rec *relayed) { rec.Status = http.StatusBadGateway })
		return
	}
	for k, vs := range ex.header {
		w.Header()[k] = vs
	}
	w.WriteHeader(ex.status)
	w.Write(ex.body)
	r.update(attempt, at, func(rec *relayed) { rec.Replayed, rec.Status = true, ex.status })
}

// update records how a request of an attempt was answered, unless a new
// attempt started since.
func (r *relay) update(attempt, at int, set func(*relayed)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if attempt == r.generation && at < len(r.seen) {
		set(&r.seen[at])
	}
}

func (ex *exchange) statusOf() int {
	if ex == nil {
		return 0
	}
	return ex.status
}

// hopHeaders are not passed on (RFC 9110, section 7.6.1).
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// send forwards a request to the backend, keeping method, path (below the
// target's own path), query, headers and body, copies the answer back, and
// returns the exchange as the package received it.
func (r *relay) send(w http.ResponseWriter, req *http.Request) (*exchange, error) {
	out := *r.target
	out.Path = strings.TrimSuffix(r.target.Path, "/") + req.URL.Path
	out.RawPath = ""
	out.RawQuery = req.URL.RawQuery
	body := http.MaxBytesReader(w, req.Body, maxRelayBody)
	fwd, err := http.NewRequestWithContext(req.Context(), req.Method, out.String(), body)
	if err != nil {
		return nil, err
	}
	fwd.Header = req.Header.Clone()
	for _, h := range hopHeaders {
		fwd.Header.Del(h)
	}
	fwd.ContentLength = req.ContentLength
	resp, err := r.client.Do(fwd)
	if err != nil {
		return nil, err
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
	ex := &exchange{method: req.Method, path: req.URL.Path, query: req.URL.RawQuery, status: resp.StatusCode, header: w.Header().Clone()}
	w.WriteHeader(resp.StatusCode)
	var kept bytes.Buffer
	// The status was sent whether or not the body breaks off.
	io.Copy(io.MultiWriter(w, &kept), io.LimitReader(resp.Body, maxRelayBody))
	ex.body = kept.Bytes()
	return ex, nil
}
