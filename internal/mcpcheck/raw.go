package mcpcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// LineAnswer is what a server made of a line sent outside the SDK.
type LineAnswer struct {
	// Replies are the responses without an ID the server sent before it
	// answered the next request, exactly as sent: what JSON-RPC
	// prescribes for a line it cannot read is one, a parse error.
	Replies []json.RawMessage
	// Alive says the server answered the next request (a ping) after the
	// line; when it did not, a finding of the session says why, unless
	// the server ended the session as SendLine allowed it to (Ended).
	Alive bool
	// Ended says the server exited after the line, as mayEnd allowed.
	Ended bool
}

// ReplyError returns the JSON-RPC error of a reply without an ID, or nil
// when the reply is no error response.
func ReplyError(reply json.RawMessage) *jsonrpc.Error {
	var m struct {
		Error *jsonrpc.Error `json:"error"`
	}
	if canonjson.Unmarshal(reply, &m) != nil {
		return nil
	}
	return m.Error
}

// SendLine writes one line to the server's stdin as it is, bytes the SDK
// would not send (a frame that is not JSON), then pings the server. A
// server reads its input in order, so what it answers the line arrives
// before the answer to the ping. With mayEnd, a server that exits after
// the line ends the session without a finding (the answer says Ended).
// It returns nil when the session is down.
func (s *Session) SendLine(ctx context.Context, line []byte, mayEnd bool) (*LineAnswer, error) {
	if s.down {
		return nil, nil
	}
	s.mayEnd = mayEnd
	defer func() { s.mayEnd = false }()
	s.wire.awaitLineReply(true)
	if _, err := s.stdin.Write(append(append([]byte(nil), line...), '\n')); err != nil {
		s.wire.awaitLineReply(false)
		s.down = true
		s.reportExit("a line that is not JSON", err)
		return &LineAnswer{}, nil
	}
	resp, err := s.request(ctx, "ping", func(ctx context.Context) error { return s.cs.Ping(ctx, nil) })
	replies := s.wire.awaitLineReply(false)
	if err != nil && !errors.Is(err, errNoAnswer) {
		return nil, err
	}
	return &LineAnswer{Replies: replies, Alive: resp != nil, Ended: s.ended}, nil
}

// Request sends a request of any method, outside the SDK (which sends only
// the methods it knows), and returns the server's response, or nil when
// there was none (a finding of the session says why).
func (s *Session) Request(ctx context.Context, method string, params any) (*jsonrpc.Response, error) {
	if s.down {
		return nil, nil
	}
	s.rawIDs++
	id, err := jsonrpc.MakeID(fmt.Sprintf("code2skill-%d", s.rawIDs))
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding the params of %s: %w", method, err)
	}
	line, err := jsonrpc.EncodeMessage(&jsonrpc.Request{ID: id, Method: method, Params: raw})
	if err != nil {
		return nil, err
	}
	arrived := s.wire.expectRaw(id)
	resp, err := s.request(ctx, method, func(ctx context.Context) error {
		if _, err := s.stdin.Write(append(line, '\n')); err != nil {
			return err
		}
		select {
		case <-arrived:
			return nil
		case <-s.stdoutDone:
			return errors.New("the server closed its output")
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	if errors.Is(err, errNoAnswer) {
		return nil, nil
	}
	return resp, err
}
