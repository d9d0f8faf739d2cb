package mcpcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// maxLine bounds one stdout line, in bytes; longer lines are discarded and
// reported. It matches the Go SDK's own frame limit.
const maxLine = 16 << 20

// maxNoiseFindings bounds how many stray stdout lines (and unsolicited
// responses) are reported one by one; the rest are counted in one last
// finding.
const maxNoiseFindings = 5

// maxTranscript bounds the bytes a session writes to its transcript; a
// server that floods its stdout does not make the transcript grow beyond
// it.
const maxTranscript = 64 << 20

// TranscriptLine is one line of a transcript: a JSON-RPC message as it
// crossed the wire, or a stdout line of the server that was not one.
type TranscriptLine struct {
	Session string          `json:"session"`
	From    string          `json:"from"` // "client" or "server"
	Message json.RawMessage `json:"message,omitempty"`
	Stdout  string          `json:"stdout,omitempty"`
	// Raw is a line the client sent that is no JSON-RPC message: a
	// malformed frame sent on purpose (Session.SendLine).
	Raw string `json:"raw,omitempty"`
	// Truncated marks the last line of a transcript that reached its size
	// limit: what followed was not recorded.
	Truncated bool `json:"truncated,omitempty"`
	// Note says what the line's recording changed: "credentials redacted"
	// when Options.Redact replaced some of it.
	Note string `json:"note,omitempty"`
}

// Redactor rewrites what a transcript records of a message (JSON) or of a
// stray stdout line (text), returning the rewritten bytes and whether it
// changed anything. Only the transcript sees the result; the session and
// its checks see what the server sent.
type Redactor func(data []byte, isJSON bool) ([]byte, bool)

// wire sits between the SDK client and the server's pipes. It keeps the
// response to each request the client sent until the request has taken it,
// so that checks can read the exact bytes the server sent; records stray
// stdout lines as findings; and discards, as findings, responses to
// requests the client never sent, so that a server cannot make it hold
// more than the answers it is waiting for.
type wire struct {
	label  string
	redact Redactor

	mu          sync.Mutex
	transcript  io.Writer
	recorded    int64                            // bytes written to the transcript
	writeErr    error                            // first transcript write error
	lastID      map[string]jsonrpc.ID            // method -> ID of the last request sent
	pending     map[jsonrpc.ID]bool              // requests sent and not answered
	responses   map[jsonrpc.ID]*jsonrpc.Response // request ID -> its response, until taken
	answered    bool                             // a response has been seen (initialize is answered first)
	lines       int                              // non-blank stdout lines so far
	noise       []diag.Diagnostic
	noiseLines  int
	unsolicited int // responses to no request

	// Requests sent outside the SDK (Session.Request): their responses
	// are kept for the session, never passed to the SDK, and announced
	// on their channel.
	raw map[jsonrpc.ID]chan struct{}
	// lineReplies holds the responses without an ID (what a server
	// answers a line it cannot read) while a line sent outside the SDK
	// waits for one (Session.SendLine); nil otherwise.
	lineReplies []json.RawMessage
	awaitLine   bool
}

func newWire(label string, transcript io.Writer) *wire {
	return &wire{
		label:      label,
		transcript: transcript,
		lastID:     map[string]jsonrpc.ID{},
		pending:    map[jsonrpc.ID]bool{},
		responses:  map[jsonrpc.ID]*jsonrpc.Response{},
		raw:        map[jsonrpc.ID]chan struct{}{},
	}
}

// record appends one line to the transcript, up to maxTranscript bytes.
// The caller holds w.mu.
func (w *wire) record(l TranscriptLine) {
	if w.transcript == nil || w.writeErr != nil || w.recorded > maxTranscript {
		return
	}
	l.Session = w.label
	if w.redact != nil {
		if l.Message != nil {
			if b, changed := w.redact(l.Message, true); changed {
				l.Message, l.Note = b, "credentials redacted"
			}
		} else if l.Stdout != "" {
			if b, changed := w.redact([]byte(l.Stdout), false); changed {
				l.Stdout, l.Note = string(b), "credentials redacted"
			}
		}
	}
	b, err := json.Marshal(l)
	if err == nil && w.recorded+int64(len(b)) > maxTranscript {
		b, err = json.Marshal(TranscriptLine{Session: w.label, From: l.From, Truncated: true})
		w.recorded = maxTranscript
	}
	if err == nil {
		w.recorded += int64(len(b)) + 1
		_, err = w.transcript.Write(append(b, '\n'))
	}
	if err != nil {
		w.writeErr = fmt.Errorf("writing transcript: %w", err)
	}
}

// lastRequest returns the ID of the last request of method sent.
func (w *wire) lastRequest(method string) (jsonrpc.ID, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	id, ok := w.lastID[method]
	return id, ok
}

// take returns the server's answer to the request with the given ID, or
// nil when none arrived, and forgets it.
func (w *wire) take(id jsonrpc.ID) *jsonrpc.Response {
	w.mu.Lock()
	defer w.mu.Unlock()
	resp := w.responses[id]
	delete(w.responses, id)
	return resp
}

// err returns the first error met writing the transcript.
func (w *wire) err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writeErr
}

// findings returns the stray-output findings recorded so far.
func (w *wire) findings() []diag.Diagnostic {
	w.mu.Lock()
	defer w.mu.Unlock()
	ds := append([]diag.Diagnostic(nil), w.noise...)
	if extra := w.noiseLines - len(w.noise); extra > 0 {
		ds = append(ds, RuleStdoutNoise.New(ServerFile, "%d more stdout lines are not JSON-RPC messages", extra))
	}
	if w.unsolicited > 0 {
		ds = append(ds, RuleUnsolicited.New(ServerFile,
			"the server sent %s to requests the client never sent (or had already been answered); they were discarded", plural(w.unsolicited, "response")))
	}
	return ds
}

// clientWriter returns the writer the SDK sends through: it notes the ID of
// each request and copies the message to the transcript before the server
// gets it. The SDK writes exactly one message per Write.
func (w *wire) clientWriter(stdin io.WriteCloser) io.WriteCloser {
	return &tap{wire: w, WriteCloser: stdin}
}

type tap struct {
	*wire
	io.WriteCloser
	writing sync.Mutex // one message at a time: the SDK's and the session's own
}

func (t *tap) Write(p []byte) (int, error) {
	t.writing.Lock()
	defer t.writing.Unlock()
	line := bytes.TrimRight(p, "\r\n")
	t.mu.Lock()
	if msg, err := jsonrpc.DecodeMessage(line); err == nil {
		if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
			t.lastID[req.Method] = req.ID
			t.pending[req.ID] = true
		}
		t.record(TranscriptLine{From: "client", Message: bytes.Clone(line)})
	} else {
		t.record(TranscriptLine{From: "client", Raw: string(line)})
	}
	t.mu.Unlock()
	return t.WriteCloser.Write(p)
}

// expectRaw registers a request the session sends outside the SDK and
// returns the channel closed when its response has arrived.
func (w *wire) expectRaw(id jsonrpc.ID) <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	ch := make(chan struct{})
	w.raw[id] = ch
	return ch
}

// awaitLineReply starts or ends the wait for a response without an ID to
// a line sent outside the SDK, and returns the responses seen meanwhile.
func (w *wire) awaitLineReply(on bool) []json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	got := w.lineReplies
	w.awaitLine, w.lineReplies = on, nil
	return got
}

// serverReader returns the reader the SDK receives from, fed with the JSON-RPC
// lines of stdout, and a channel closed once stdout has reached its end.
func (w *wire) serverReader(stdout io.Reader) (io.ReadCloser, <-chan struct{}) {
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		err := w.filter(stdout, pw)
		pw.CloseWithError(err)
	}()
	return pr, done
}

// filter reads stdout line by line until its end. A line that is a JSON-RPC
// message is indexed and passed to sdk; any other non-blank line is a
// finding. It returns nil at end of input.
func (w *wire) filter(stdout io.Reader, sdk io.Writer) error {
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(line) > 0 || tooLong {
			if msg := w.classify(line, tooLong); msg {
				// The SDK may have closed its end; keep draining stdout
				// anyway so that later stray lines are still seen.
				sdk.Write(append(line, '\n'))
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the server's stdout: %w", err)
		}
	}
}

// classify records one stdout line and reports whether it is a JSON-RPC
// message for the SDK.
func (w *wire) classify(line []byte, tooLong bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	when := "after initialize was answered"
	if !w.answered {
		when = "before initialize was answered"
	}
	if !tooLong && len(bytes.TrimSpace(line)) == 0 {
		return false
	}
	w.lines++
	if !tooLong {
		if msg, err := jsonrpc.DecodeMessage(line); err == nil {
			w.record(TranscriptLine{From: "server", Message: bytes.Clone(line)})
			if resp, ok := msg.(*jsonrpc.Response); ok {
				if !w.pending[resp.ID] {
					w.unsolicited++
					return false
				}
				delete(w.pending, resp.ID)
				w.responses[resp.ID] = resp
				w.answered = true
				if ch, raw := w.raw[resp.ID]; raw {
					// The session's own request: not the SDK's to read.
					delete(w.raw, resp.ID)
					close(ch)
					return false
				}
			}
			return true
		}
		if w.awaitLine && idlessResponse(line) {
			w.record(TranscriptLine{From: "server", Message: bytes.Clone(line)})
			w.lineReplies = append(w.lineReplies, bytes.Clone(line))
			return false
		}
	}
	w.noiseLines++
	w.record(TranscriptLine{From: "server", Stdout: string(line)})
	if len(w.noise) < maxNoiseFindings {
		what := fmt.Sprintf("%q", clip(string(line), 120))
		if tooLong {
			what = fmt.Sprintf("a line longer than %d bytes", maxLine)
		}
		w.noise = append(w.noise, RuleStdoutNoise.New(ServerFile,
			"stdout line %d %s is not a JSON-RPC message: %s; write logs to stderr",
			w.lines, when, what))
	}
	return false
}

// idlessResponse reports whether line is a JSON-RPC response whose id is
// null or absent: the answer JSON-RPC prescribes to a request that cannot
// be read (parse error, invalid request), which the SDK's decoder refuses.
func idlessResponse(line []byte) bool {
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Error   json.RawMessage `json:"error"`
		Result  json.RawMessage `json:"result"`
	}
	if canonjson.Unmarshal(line, &m) != nil || m.JSONRPC != "2.0" || m.Method != nil {
		return false
	}
	return (m.ID == nil || string(m.ID) == "null") && (m.Error != nil || m.Result != nil)
}

// readLine reads one line without its line ending. A line longer than
// maxLine is discarded up to its end and reported as tooLong.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLine {
				line, tooLong = nil, true
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
