package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// Protocol errors as clients meet them.
//
// Spec 000 makes malformed JSON-RPC and unknown methods protocol errors.
// The probe sends the server a line that is not JSON and a request of a
// method no MCP server has, over the session's own pipes (the Go SDK
// sends neither):
//
//   - the line must get JSON-RPC error -32700 (parse error, id null) or no
//     reply at all, and in both cases the server must go on answering:
//     the next request, a ping, is answered. The TypeScript SDK server,
//     on which strict and core node packages are built, sends no reply to
//     a line it cannot parse (it reports it to its own error handler);
//     demanding -32700 would fail every correct package built on it, so
//     no reply passes and the summary says which form the server used
//     (Result.MalformedFrameAnswer). A reply that is not -32700, or a
//     server that stops answering, is a finding. The Go SDK server
//     (v1.8.0) of a go-stdio package reads its input as one JSON stream
//     and ends the session at a line it cannot parse, without a reply: for
//     such a package that is accepted as the Go SDK's form and named in
//     the summary, and the line is sent last, after every other check of
//     the session;
//   - the request must get JSON-RPC error -32601 (method not found).

// malformedFrame is a request cut short: not JSON.
const malformedFrame = `{"jsonrpc": "2.0", "id": "code2skill-malformed", "method": "tools/list"`

// unknownMethod is a method no MCP server has.
const unknownMethod = "code2skill/unknown-method"

// JSON-RPC's error codes for the two cases.
const (
	codeParseError     = -32700
	codeMethodNotFound = -32601
)

// malformed sends the line that is not JSON and judges what follows.
func (p *prober) malformed(ctx context.Context, s *mcpcheck.Session) error {
	ans, err := s.SendLine(ctx, []byte(malformedFrame), p.goStdio)
	if err != nil || ans == nil {
		return err // down: the session reported why
	}
	if ans.Ended && len(ans.Replies) == 0 {
		p.result.MalformedFrameAnswer = AnswerSessionEnded
		p.result.Checks.MalformedFrame.add(true)
		return nil
	}
	var problems []string
	form := AnswerNoReply
	for _, reply := range ans.Replies {
		werr := mcpcheck.ReplyError(reply)
		switch {
		case werr == nil:
			problems = append(problems, fmt.Sprintf("it answered with %s, not an error", clipString(string(compactJSON(reply)), 160)))
		case werr.Code != codeParseError:
			problems = append(problems, fmt.Sprintf("it answered JSON-RPC error %d (%s); a line that is not JSON is parse error %d", werr.Code, clipString(werr.Message, 120), codeParseError))
		default:
			form = AnswerParseError
		}
	}
	if !ans.Alive {
		problems = append(problems, "it did not answer the next request (a ping); a server goes on serving after a line it cannot read")
	}
	ok := len(problems) == 0
	if ok {
		p.result.MalformedFrameAnswer = form
	} else {
		p.result.Diagnostics.Add(RuleMalformedFrame.New(serverFile, "sent a line that is not JSON (%s): %s", malformedFrame, strings.Join(problems, "; ")))
	}
	p.result.Checks.MalformedFrame.add(ok)
	return nil
}

func (p *prober) unknownMethodCall(ctx context.Context, s *mcpcheck.Session) error {
	resp, err := s.Request(ctx, unknownMethod, map[string]any{})
	if err != nil || resp == nil {
		return err // no answer: the session reported why
	}
	var problem string
	switch werr := mcpcheck.ResponseError(resp); {
	case werr == nil:
		problem = fmt.Sprintf("it answered with a result (%s)", clipString(string(compactJSON(resp.Result)), 120))
	case werr.Code != codeMethodNotFound:
		problem = fmt.Sprintf("it answered JSON-RPC error %d (%s)", werr.Code, clipString(werr.Message, 120))
	}
	if problem != "" {
		p.result.Diagnostics.Add(RuleUnknownMethod.New(serverFile, "a request of the method %q: %s; the answer is JSON-RPC error %d (method not found)", unknownMethod, problem, codeMethodNotFound))
	}
	p.result.Checks.UnknownMethod.add(problem == "")
	return nil
}

// compactJSON is raw JSON without insignificant space, or raw itself.
func compactJSON(raw json.RawMessage) []byte {
	v, err := canonjson.Decode(raw)
	if err != nil {
		return raw
	}
	return canonjson.Compact(v)
}
