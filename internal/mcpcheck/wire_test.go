package mcpcheck

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// A server can make the wire hold only the answers it waits for: responses
// to requests never sent are discarded, counted as a finding, and not
// passed on; the answer to a request is kept until taken.
func TestWireKeepsOnlySolicitedResponses(t *testing.T) {
	w := newWire("test", nil)
	tap := w.clientWriter(nopCloser{io.Discard})
	fmt.Fprintf(tap, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`+"\n")

	var out bytes.Buffer
	big := strings.Repeat("x", 1<<20)
	for i := range 20 {
		fmt.Fprintf(&out, `{"jsonrpc":"2.0","id":%d,"result":{"padding":%q}}`+"\n", 500+i, big)
	}
	fmt.Fprintf(&out, `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`+"\n")
	fmt.Fprintf(&out, `{"jsonrpc":"2.0","id":1,"result":{"tools":["again"]}}`+"\n")
	var sdk bytes.Buffer
	if err := w.filter(&out, &sdk); err != nil {
		t.Fatal(err)
	}
	if n := len(w.responses); n != 1 {
		t.Errorf("the wire holds %d responses, want only the one asked for", n)
	}
	if sdk.Len() > 1000 {
		t.Errorf("%d bytes passed on to the SDK, want only the answer", sdk.Len())
	}
	id, _ := w.lastRequest("tools/list")
	if resp := w.take(id); resp == nil || string(resp.Result) != `{"tools":[]}` {
		t.Errorf("answer = %+v", resp)
	}
	if w.take(id) != nil || len(w.responses) != 0 {
		t.Error("a taken answer is still held")
	}
	ds := w.findings()
	if len(ds) != 1 || ds[0].Rule != RuleUnsolicited.ID || !strings.Contains(ds[0].Message, "21 responses") {
		t.Errorf("findings = %v", ds)
	}
}

// A flooding server does not make the transcript grow past its limit. The
// flood is one line read again and again, and the transcript is counted
// as it is written: neither is held in memory.
func TestWireTranscriptIsBounded(t *testing.T) {
	var transcript countingWriter
	w := newWire("test", &transcript)
	line := strings.Repeat("n", 1<<20) + "\n"
	flood := make([]io.Reader, maxTranscript>>20+8)
	for i := range flood {
		flood[i] = strings.NewReader(line)
	}
	if err := w.filter(io.MultiReader(flood...), io.Discard); err != nil {
		t.Fatal(err)
	}
	if transcript.n > maxTranscript+1<<10 {
		t.Errorf("transcript holds %d bytes, limit %d", transcript.n, maxTranscript)
	}
	if !strings.HasSuffix(string(transcript.last), `"truncated":true}`+"\n") {
		t.Error("the transcript does not say it was truncated")
	}
}

// countingWriter counts the bytes written to it and keeps the last write.
type countingWriter struct {
	n    int
	last []byte
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += len(p)
	c.last = append(c.last[:0], p...)
	return len(p), nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
