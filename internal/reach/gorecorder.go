//go:build ignore

// The request recorder code2skill compiles into a go-stdio package's MCP
// server (go build -overlay adds this file to package main, without its
// build constraint) to see what each Tool call sends: the Go twin of
// driver.cjs, answering the same plans with the same observations (pre,
// repeated requests, the planned answer or a failure, runaway calls),
// except learn: a Go Function decodes an answer into its own types, which
// no stand-in can watch, so a learn plan is answered as a plain one and
// the observation does not say that it learns.
// Nothing leaves the process: http.DefaultTransport, which every client
// without a Transport of its own uses, is replaced by a recorder that
// answers every request itself. Before main runs, os.Stdin and os.Stdout
// are swapped for pipes the recorder relays, so that it notes each
// reachability call (params._meta["code2skill/reach"]: {answer, markers,
// env, deadlineMs}) before the server reads it, applies the planned
// environment, keeps back what the server writes to stdout that is not a
// JSON-RPC message while a call runs, and adds its observation to the
// answer (result._meta["code2skill/reach"], or error.data). A call that
// does not answer within its deadline is answered here, marked timedOut.
// os.Exit cannot be intercepted in Go: a call that exits ends the server,
// which the checks report as such.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

const (
	c2sReachKey    = "code2skill/reach"
	c2sMaxBody     = 64 * 1024
	c2sMaxStdout   = 20
	c2sMaxRequests = 50
)

// c2sRequest is one request as driver.cjs records it.
type c2sRequest struct {
	Method   string            `json:"method,omitempty"`
	URL      string            `json:"url,omitempty"`
	Headers  map[string]string `json:"headers,omitempty"`
	Body     *string           `json:"body,omitempty"`
	Answered int               `json:"answered,omitempty"`
	Reply    string            `json:"reply,omitempty"`
	Failed   bool              `json:"failed,omitempty"`
	Invalid  string            `json:"invalid,omitempty"`
}

// c2sAnswer is how a request is answered: a status and a body, or no
// response at all.
type c2sAnswer struct {
	Status int     `json:"status"`
	Body   *string `json:"body"`
	Fail   bool    `json:"fail"`
	// Method and URL are the request a pre answer is for.
	Method string `json:"method"`
	URL    string `json:"url"`
}

// c2sGiven is a request answered other than as planned, for a repeat of
// it to get the same answer.
type c2sGiven struct {
	method, url string
	answer      c2sAnswer
}

type c2sPlan struct {
	Answer  *c2sAnswer  `json:"answer"`
	Pre     []c2sAnswer `json:"pre"`
	Markers []string    `json:"markers"`
	Env     *struct {
		Set   map[string]string `json:"set"`
		Unset []string          `json:"unset"`
	} `json:"env"`
	DeadlineMs int `json:"deadlineMs"`
}

// c2sCall is a reachability call in progress.
type c2sCall struct {
	key      string
	id       json.RawMessage
	answer   c2sAnswer
	pre      []c2sAnswer
	given    []c2sGiven
	count    int
	markers  []string
	saved    map[string]*string
	requests []c2sRequest
	stdout   []string
	timer    *time.Timer
	timedOut bool
	runaway  bool
}

type c2sRecorder struct {
	mu       sync.Mutex
	out      io.Writer // the real stdout
	calls    map[string]*c2sCall
	current  *c2sCall
	strays   []c2sRequest
	timedOut map[string]bool
}

var c2sRec = &c2sRecorder{calls: map[string]*c2sCall{}, timedOut: map[string]bool{}}

func init() {
	inR, inW, err := os.Pipe()
	if err != nil {
		panic("code2skill recorder: " + err.Error())
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		panic("code2skill recorder: " + err.Error())
	}
	realIn, realOut := os.Stdin, os.Stdout
	c2sRec.out = realOut
	os.Stdin, os.Stdout = inR, outW
	http.DefaultTransport = c2sTransport{}
	go c2sRec.relayIn(realIn, inW)
	go c2sRec.relayOut(outR)
}

// relayIn passes every line from the host to the server, noting the
// reachability calls first.
func (r *c2sRecorder) relayIn(from io.Reader, to *os.File) {
	br := bufio.NewReader(from)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			r.note(line)
			if _, werr := to.Write(line); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	to.Close()
}

func c2sKey(id json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return string(id)
	}
	return b.String()
}

// note starts a reachability call when line is a tools/call carrying a
// plan.
func (r *c2sRecorder) note(line []byte) {
	if !bytes.Contains(line, []byte(c2sReachKey)) {
		return
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != "tools/call" || len(msg.ID) == 0 || msg.Params.Meta[c2sReachKey] == nil {
		return
	}
	var plan c2sPlan
	if json.Unmarshal(msg.Params.Meta[c2sReachKey], &plan) != nil {
		return
	}
	call := &c2sCall{key: c2sKey(msg.ID), id: msg.ID, answer: c2sGeneric(), pre: plan.Pre, saved: map[string]*string{}}
	if plan.Answer != nil {
		call.answer = *plan.Answer
	}
	for _, m := range plan.Markers {
		call.markers = append(call.markers, strings.ToLower(m))
	}
	deadline := time.Duration(plan.DeadlineMs) * time.Millisecond
	if deadline <= 0 {
		deadline = 2 * time.Second
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if plan.Env != nil {
		for _, name := range plan.Env.Unset {
			call.save(name)
			os.Unsetenv(name)
		}
		for name, value := range plan.Env.Set {
			call.save(name)
			os.Setenv(name, value)
		}
	}
	r.calls[call.key] = call
	r.current = call
	call.timer = time.AfterFunc(deadline, func() { r.expire(call) })
}

func (c *c2sCall) save(name string) {
	if _, ok := c.saved[name]; ok {
		return
	}
	if v, ok := os.LookupEnv(name); ok {
		c.saved[name] = &v
	} else {
		c.saved[name] = nil
	}
}

// c2sGeneric is the answer of a request that is not the Tool's own.
func c2sGeneric() c2sAnswer {
	body := "{}"
	return c2sAnswer{Status: 200, Body: &body}
}

// expire answers a call that did not answer within its deadline.
func (r *c2sRecorder) expire(call *c2sCall) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls[call.key] != call {
		return
	}
	call.timedOut = true
	r.answerNow(call)
}

// answerNow answers a call here, before the server does (it ran out of
// time, or it loops); the server's late answer is dropped. r.mu is held.
func (r *c2sRecorder) answerNow(call *c2sCall) {
	r.timedOut[call.key] = true
	obs := r.observation(call)
	r.finish(call)
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": call.id, "result": map[string]any{"content": []any{}, "_meta": map[string]any{c2sReachKey: obs}}})
	r.out.Write(append(b, '\n'))
}

func (r *c2sRecorder) observation(call *c2sCall) map[string]any {
	obs := map[string]any{"requests": nonNil(call.requests), "stdout": nonNilStrings(call.stdout), "strays": nonNil(r.strays)}
	if call.timedOut {
		obs["timedOut"] = true
	}
	if call.runaway {
		obs["runaway"] = true
	}
	r.strays = nil
	return obs
}

func nonNil(rs []c2sRequest) []c2sRequest {
	if rs == nil {
		return []c2sRequest{}
	}
	return rs
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// finish restores the environment a call changed and forgets it.
func (r *c2sRecorder) finish(call *c2sCall) {
	call.timer.Stop()
	for name, v := range call.saved {
		if v == nil {
			os.Unsetenv(name)
		} else {
			os.Setenv(name, *v)
		}
	}
	call.saved = map[string]*string{}
	delete(r.calls, call.key)
	if r.current == call {
		r.current = nil
	}
}

// relayOut passes what the server writes to the host, line by line.
func (r *c2sRecorder) relayOut(from io.Reader) {
	br := bufio.NewReader(from)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			r.mu.Lock()
			out := r.outLine(bytes.TrimRight(line, "\n"))
			if out != nil {
				r.out.Write(out)
			}
			r.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// outLine returns what the host gets of one line the server wrote.
func (r *c2sRecorder) outLine(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	pass := append(append([]byte{}, line...), '\n')
	if len(trimmed) == 0 {
		return pass
	}
	var msg map[string]json.RawMessage
	isRPC := trimmed[0] == '{' && json.Unmarshal(trimmed, &msg) == nil && string(msg["jsonrpc"]) == `"2.0"`
	if !isRPC {
		if r.current != nil {
			if len(r.current.stdout) < c2sMaxStdout {
				s := string(line)
				if len(s) > 1024 {
					s = s[:1024]
				}
				r.current.stdout = append(r.current.stdout, s)
			}
			return nil
		}
		return pass
	}
	if msg["id"] == nil || msg["method"] != nil {
		return pass
	}
	key := c2sKey(msg["id"])
	call := r.calls[key]
	if call == nil {
		if r.timedOut[key] {
			delete(r.timedOut, key) // the late answer to a call answered here
			return nil
		}
		return pass
	}
	obs := r.observation(call)
	r.finish(call)
	if res := msg["result"]; res != nil && res[0] == '{' {
		var result map[string]json.RawMessage
		if json.Unmarshal(res, &result) == nil {
			meta := map[string]any{}
			if result["_meta"] != nil {
				json.Unmarshal(result["_meta"], &meta)
			}
			meta[c2sReachKey] = obs
			result["_meta"], _ = json.Marshal(meta)
			msg["result"], _ = json.Marshal(result)
		}
	} else if e := msg["error"]; e != nil && e[0] == '{' {
		var rpcErr map[string]json.RawMessage
		if json.Unmarshal(e, &rpcErr) == nil {
			data := rpcErr["data"]
			if data == nil {
				data = json.RawMessage("null")
			}
			rpcErr["data"], _ = json.Marshal(map[string]any{c2sReachKey: obs, "data": data})
			msg["error"], _ = json.Marshal(rpcErr)
		}
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return pass
	}
	return append(b, '\n')
}

// c2sTransport records every request and answers it itself.
type c2sTransport struct{}

func (c2sTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	entry := c2sRequest{Method: req.Method, URL: req.URL.String(), Headers: map[string]string{}}
	for name, values := range req.Header {
		entry.Headers[strings.ToLower(name)] = strings.Join(values, ", ")
	}
	if req.Body != nil && req.Body != http.NoBody {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(b) > c2sMaxBody {
			b = b[:c2sMaxBody]
		}
		s := string(b)
		entry.Body = &s
	}
	c2sRec.mu.Lock()
	defer c2sRec.mu.Unlock()
	call := c2sRec.current
	if call == nil {
		if len(c2sRec.strays) < c2sMaxRequests {
			c2sRec.strays = append(c2sRec.strays, entry)
		}
		return nil, errors.New("no request may leave during validation")
	}
	if call.count >= c2sMaxRequests {
		// A loop: answer the call now, and let this request never end.
		call.runaway = true
		if c2sRec.calls[call.key] == call {
			c2sRec.answerNow(call)
		}
		c2sRec.mu.Unlock()
		<-req.Context().Done()
		c2sRec.mu.Lock()
		return nil, req.Context().Err()
	}
	call.count++
	answer := call.answerFor(entry)
	if answer.Fail {
		entry.Failed = true
		call.requests = append(call.requests, entry)
		return nil, errors.New("read: connection reset by peer")
	}
	body := ""
	if answer.Body != nil {
		body = *answer.Body
	}
	entry.Answered, entry.Reply = answer.Status, body
	call.requests = append(call.requests, entry)
	var rc io.ReadCloser = http.NoBody
	length := int64(0)
	if !c2sNullBody(answer.Status) {
		rc, length = io.NopCloser(strings.NewReader(body)), int64(len(body))
	}
	return &http.Response{
		Status:        strconv.Itoa(answer.Status) + " " + http.StatusText(answer.Status),
		StatusCode:    answer.Status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}, "Set-Cookie": {"c2s-reach-session=reach; Path=/; HttpOnly"}},
		Body:          rc,
		ContentLength: length,
		Request:       req,
	}, nil
}

// answerFor returns how the index-th request of a call is answered, as
// driver.cjs does.
func (call *c2sCall) answerFor(entry c2sRequest) c2sAnswer {
	for _, g := range call.given {
		if g.method == entry.Method && g.url == entry.URL {
			return g.answer
		}
	}
	answer, found := c2sAnswer{}, false
	for _, p := range call.pre {
		if p.Method == entry.Method && p.URL == entry.URL {
			answer, found = p, true
			break
		}
	}
	if !found {
		parts := []string{entry.URL}
		if entry.Body != nil {
			parts = append(parts, *entry.Body)
		}
		for _, v := range entry.Headers {
			parts = append(parts, v)
		}
		if len(call.markers) == 0 || c2sCarries(call.markers, parts) {
			return call.answer
		}
		answer = c2sGeneric()
	}
	call.given = append(call.given, c2sGiven{entry.Method, entry.URL, answer})
	return answer
}

// c2sNullBody reports a status whose response has no body.
func c2sNullBody(status int) bool {
	return status == 101 || status == 204 || status == 205 || status == 304
}

// c2sCarries reports whether a request's text holds one of the markers,
// raw or URL-decoded.
func c2sCarries(markers, parts []string) bool {
	text := strings.Join(parts, "\n")
	if decoded, err := url.QueryUnescape(text); err == nil {
		text += "\n" + decoded
	}
	text = strings.ToLower(text)
	for _, m := range markers {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}
