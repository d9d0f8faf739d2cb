package reach

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Finding a marker in a request.
//
// A request is read the way the service reads it, into places: the URL's
// path (each segment decoded), each query parameter (decoded, + as a
// space), each header, and the body: as sent, and, when it is JSON, each
// member name and value at its JSON Pointer (decoded, so escapes do not
// hide a value), or, for a form, each field decoded. A marker is found
// when a place contains it, without regard to case. So a value that is
// encoded, nested in an envelope ({"comment": {"body": …}}), joined with
// others (a date and a time into one timestamp), trimmed, upper-cased or
// multiplied by a power of ten is found; one that is hashed, looked up in
// a table or parsed into something else is not, and then the
// differential call decides.
//
// The fragment of a URL is a place of its own: it never leaves the client,
// so a value found only there is misplaced.

// Request is a request the recorder observed.
type Request struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Body    *string           `json:"body"`
	// Answered and Reply are the status and body the recorder answered
	// it with.
	Answered int    `json:"answered"`
	Reply    string `json:"reply"`
	// Failed marks a request the recorder gave no response (a reset
	// connection).
	Failed bool `json:"failed"`
	// planned marks a request answered with the call's planned answer:
	// the Tool's own.
	planned bool
	// Invalid is fetch's refusal of a request the code built wrongly
	// (a GET with a body, a malformed URL); the other fields are empty.
	Invalid string `json:"invalid"`
}

// place is one part of a request a marker may be found in.
type place struct {
	where string // "the path", `query parameter "q"`, `header "x-id"`, "the body at /a/b"
	text  string // lower-cased
	// fragment marks the URL's fragment, which is never sent.
	fragment bool
}

// places reads a request into its places.
func (r Request) places() []place {
	var out []place
	add := func(where, text string) {
		if text != "" {
			out = append(out, place{where: where, text: strings.ToLower(text)})
		}
	}
	if u, err := url.Parse(r.URL); err == nil {
		for _, seg := range strings.Split(u.EscapedPath(), "/") {
			if s, err := url.PathUnescape(seg); err == nil {
				add("the path", s)
			} else {
				add("the path", seg)
			}
		}
		q, _ := url.ParseQuery(u.RawQuery)
		for _, k := range slices.Sorted(maps.Keys(q)) {
			add(fmt.Sprintf("query parameter %q", k), k)
			for _, v := range q[k] {
				add(fmt.Sprintf("query parameter %q", k), v)
			}
		}
		if u.Fragment != "" {
			out = append(out, place{where: "the URL fragment", text: strings.ToLower(u.Fragment), fragment: true})
		}
	} else {
		add("the URL", r.URL)
	}
	for _, k := range slices.Sorted(maps.Keys(r.Headers)) {
		add(fmt.Sprintf("header %q", k), r.Headers[k])
	}
	if r.Body != nil {
		body := *r.Body
		add("the body", body)
		if v, err := canonjson.Decode([]byte(body)); err == nil {
			walkJSON(v, "", func(ptr, text string) { add("the body at "+pointerOrRoot(ptr), text) })
		} else if strings.Contains(strings.ToLower(r.Headers["content-type"]), "x-www-form-urlencoded") {
			if form, err := url.ParseQuery(body); err == nil {
				for _, k := range slices.Sorted(maps.Keys(form)) {
					add(fmt.Sprintf("form field %q", k), k+"="+strings.Join(form[k], ","))
				}
			}
		}
	}
	return out
}

// walkJSON calls f with the JSON Pointer and text of every member name and
// scalar of v.
func walkJSON(v canonjson.Value, at string, f func(ptr, text string)) {
	switch v := v.(type) {
	case *canonjson.Object:
		for k, e := range v.All() {
			p := at + "/" + diag.EscapeToken(k)
			f(p, k)
			walkJSON(e, p, f)
		}
	case canonjson.Array:
		for i, e := range v {
			walkJSON(e, fmt.Sprintf("%s/%d", at, i), f)
		}
	case canonjson.String:
		f(at, string(v))
	case canonjson.Number:
		f(at, string(v))
	case canonjson.Bool:
		f(at, fmt.Sprint(bool(v)))
	}
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "/"
	}
	return p
}

// found returns where a marker is in a request: the places, sent and not.
func found(r Request, marker string) (sent, fragment []string) {
	for _, p := range r.places() {
		if !strings.Contains(p.text, marker) {
			continue
		}
		if p.fragment {
			fragment = append(fragment, p.where)
		} else if !slices.Contains(sent, p.where) {
			sent = append(sent, p.where)
		}
	}
	return sent, fragment
}

// signature is a request as a set of facts, for the differential call:
// "method POST", "path /v2/items", `query q=x`, `header x-id: 1`, and the
// body's JSON leaves ("body /a/b=1") or its text.
func (r Request) signature() map[string]string {
	out := map[string]string{"method": r.Method}
	if r.Invalid != "" {
		out["invalid"] = r.Invalid
		return out
	}
	if u, err := url.Parse(r.URL); err == nil {
		out["origin"] = u.Scheme + "://" + u.Host
		out["path"] = u.EscapedPath()
		q, _ := url.ParseQuery(u.RawQuery)
		for k, vs := range q {
			out["query "+k] = strings.Join(vs, "\x00")
		}
	} else {
		out["url"] = r.URL
	}
	for k, v := range r.Headers {
		out["header "+k] = v
	}
	if r.Body != nil {
		if v, err := canonjson.Decode([]byte(*r.Body)); err == nil {
			leaves := map[string]string{}
			walkJSON(v, "", func(ptr, text string) { leaves[ptr] += text + "\x00" })
			for p, t := range leaves {
				out["body "+p] = t
			}
		} else {
			out["body"] = *r.Body
		}
	}
	return out
}

// volatile returns the facts that differ between two observations of the
// same call: a time stamp, a request or idempotency key, which a change
// of an input must not be mistaken for.
func volatile(a, b []Request) map[string]bool {
	out := map[string]bool{}
	for i := range max(len(a), len(b)) {
		var sa, sb map[string]string
		if i < len(a) {
			sa = a[i].signature()
		}
		if i < len(b) {
			sb = b[i].signature()
		}
		for k, v := range sa {
			if sb[k] != v {
				out[fmt.Sprintf("%d %s", i, k)] = true
			}
		}
		for k, v := range sb {
			if sa[k] != v {
				out[fmt.Sprintf("%d %s", i, k)] = true
			}
		}
	}
	return out
}

// differ reports whether two lists of requests differ in a fact that is
// not volatile.
func differ(a, b []Request, skip map[string]bool) bool {
	if len(a) != len(b) {
		return true
	}
	for i := range a {
		sa, sb := a[i].signature(), b[i].signature()
		for k, v := range sa {
			if !skip[fmt.Sprintf("%d %s", i, k)] && sb[k] != v {
				return true
			}
		}
		for k := range sb {
			if _, ok := sa[k]; !ok && !skip[fmt.Sprintf("%d %s", i, k)] {
				return true
			}
		}
	}
	return false
}
