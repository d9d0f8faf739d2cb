package reach

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// How the recorder answers.
//
// A Tool's own request (the last it sends, or any that carries one of its
// markers) gets the call's planned answer; the requests it sends before
// that one (a login, the reads that pre-check a write) get, in every call
// after the first, the answers they got in the first, or those a search
// found (search.go), matched by method and URL: a status call thus
// answers the request the Tool is about, not its pre-checks, and a login
// a server skips because it kept a token changes nothing. A request
// repeated within a call (a login again after a 401) gets the answer it
// got the first time. Anything else gets 200 and an empty JSON object,
// with a session cookie, as a login does.

// answer is how the recorder answers a request: a status and a body (nil
// for none, as a 204 has), or, with Fail, no response at all.
type answer struct {
	Status int     `json:"status"`
	Body   *string `json:"body"`
	Fail   bool    `json:"fail,omitempty"`
	// Method and URL are the request an answer given before the Tool's
	// own is for.
	Method string `json:"method,omitempty"`
	URL    string `json:"url,omitempty"`
}

func bodyText(s string) *string { return &s }

// gave reports whether a request was answered with a.
func (a answer) gave(q Request) bool {
	switch {
	case q.Invalid != "":
		return false
	case a.Fail:
		return q.Failed
	case a.Body == nil:
		return !q.Failed && q.Answered == a.Status && q.Reply == ""
	}
	return !q.Failed && q.Answered == a.Status && q.Reply == *a.Body
}

// statusCall is one of the calls that answer the Tool's request with a
// status a backend gives.
type statusCall struct {
	status int
	// kind names the call in findings.
	kind string
	// empty answers without a body, as a 204 does.
	empty bool
}

// statusCalls are the answers every Tool's request gets, one call each,
// with the same arguments: success with and without a body, the refusals
// a backend gives (authentication, a missing record, a conflict) and a
// server error. The first is the call the others are compared with.
var statusCalls = []statusCall{
	{200, "200", false},
	{204, "204 (no body)", true},
	{401, "401", false},
	{404, "404", false},
	{409, "409", false},
	{503, "503", false},
}

// reply is the body of the n-th answer with a status: a JSON object
// distinct from every other call's, which a Function passes through.
func reply(n, status int) string {
	return fmt.Sprintf(`{"c2sReply":"reply-%d","status":%d,"items":[]}`, n, status)
}

// answered returns the answers the requests of a call got, but the last,
// for later calls to give the same requests.
func answered(reqs []Request) []answer {
	if len(reqs) < 2 {
		return nil
	}
	out := make([]answer, 0, len(reqs)-1)
	for _, q := range reqs[:len(reqs)-1] {
		out = append(out, answer{Status: q.Answered, Body: bodyText(q.Reply), Method: q.Method, URL: q.URL})
	}
	return out
}

// readMethods are the methods that change nothing.
var readMethods = []string{"GET", "HEAD", "OPTIONS"}

func isRead(method string) bool { return slices.Contains(readMethods, method) }

// searchWord is a word of a request's path or query that says a POST
// reads: a search, a query, a lookup, a computation that stores nothing.
var searchWord = regexp.MustCompile(`^(?:search(?:es)?|_search|query|queries|graphql|gql|find|lookup|filter|filters|select|list|read|get|fetch|count|counts|aggregate|aggregates|preview|estimate|estimates|quote|quotes|calculate|calculation|calc|price|pricing|validate|validation|check|verify|match|resolve|suggest|suggestions|autocomplete|report|reports|explain|rpc|jsonrpc|batch)$`)

// SearchLike reports whether a request URL says its POST reads: a word of
// its path (split at punctuation and case changes) or of its query's
// names is one of searchWord's. A read-only Tool may read through such a
// POST; a POST to any other URL creates or changes something.
func SearchLike(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	words := splitWords(u.Path)
	for k := range u.Query() {
		words = append(words, splitWords(k)...)
	}
	return slices.ContainsFunc(words, searchWord.MatchString)
}

// splitWords splits a path into lower-cased words at punctuation and at
// lower-to-upper case changes ("findItems/v2" gives find, items, v2).
func splitWords(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, strings.ToLower(b.String()))
			b.Reset()
		}
	}
	prevLower := false
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' && b.Len() == 0:
			b.WriteRune(r)
			prevLower = true
		case r >= 'A' && r <= 'Z':
			if prevLower {
				flush()
			}
			b.WriteRune(r)
			prevLower = false
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return out
}
