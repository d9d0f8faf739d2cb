package vectors

import (
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// request is the request a step must dispatch, as the contract's bindings
// build it from the arguments (spec §4: the literal URL with its path
// bindings percent-encoded, the declared headers with lower-cased names
// and the header bindings, query, body and multipart members). Unsupplied
// optional inputs are left out.
type request struct {
	stepID    string
	method    string
	url       string
	headers   *canonjson.Object
	query     *canonjson.Object
	body      *canonjson.Object
	multipart *canonjson.Object
}

// expectedRequests returns the requests of a call with args, answered by
// responses, with resolved attachment content. err says why the request
// cannot be derived (the check is then uncovered).
func (k *capPlan) expectedRequests(args *canonjson.Object, responses []response, attachments *canonjson.Object) ([]request, error) {
	steps := k.cp.Implementation.Steps
	var out []request
	for i := range steps {
		s := &steps[i]
		r := request{stepID: s.ID, method: s.Method, url: s.URL, headers: &canonjson.Object{},
			query: &canonjson.Object{}, body: &canonjson.Object{}, multipart: &canonjson.Object{}}
		if h, ok := s.Headers.(*canonjson.Object); ok {
			for name, v := range h.All() {
				r.headers.Set(strings.ToLower(name), v)
			}
		}
		for _, b := range s.Bindings {
			var v canonjson.Value
			var present bool
			switch b.Source.Kind {
			case contract.SourceInput:
				v, present = args.Get(b.Source.InputName)
			case contract.SourcePriorResponse:
				j := slices.IndexFunc(steps[:i], func(x contract.Step) bool { return x.ID == b.Source.StepID })
				if j < 0 || j >= len(responses) {
					return nil, fmt.Errorf("step %q reads step %q, which does not answer before it", s.ID, b.Source.StepID)
				}
				v, present = resolvePath(responses[j].data, b.Source.Path)
			case contract.SourceHostResolvedAttachment:
				v, present = attachments.Get(b.Source.InputName)
			default:
				return nil, fmt.Errorf("step %q binds a source of kind %q", s.ID, b.Source.Kind)
			}
			if !present {
				continue
			}
			if len(b.Path) == 0 {
				return nil, fmt.Errorf("step %q has a binding without a target path", s.ID)
			}
			flat := len(b.Path) == 1
			switch b.Location {
			case "path":
				if !flat {
					return nil, fmt.Errorf("step %q binds a URL path parameter at a nested path", s.ID)
				}
				placeholder := "{" + b.Path[0] + "}"
				if !strings.Contains(r.url, placeholder) {
					return nil, fmt.Errorf("step %q: the URL has no %s placeholder", s.ID, placeholder)
				}
				text, ok := pathText(v)
				if !ok {
					return nil, fmt.Errorf("step %q: a URL path parameter bound to %s", s.ID, canonjson.TypeName(v))
				}
				r.url = strings.ReplaceAll(r.url, placeholder, encodeURIComponent(text))
			case "query", "header", "multipart":
				if !flat {
					return nil, fmt.Errorf("step %q binds a %s member at a nested path", s.ID, b.Location)
				}
				target := map[string]*canonjson.Object{"query": r.query, "header": r.headers, "multipart": r.multipart}[b.Location]
				name := b.Path[0]
				if b.Location == "header" {
					name = strings.ToLower(name)
				}
				target.Set(name, canonjson.Clone(v))
			case "body":
				setPath(r.body, b.Path, canonjson.Clone(v))
			default:
				return nil, fmt.Errorf("step %q binds to the unknown location %q", s.ID, b.Location)
			}
		}
		if strings.Contains(r.url, "{") && strings.Contains(r.url, "}") {
			for _, b := range s.Bindings {
				if b.Location == "path" && len(b.Path) == 1 && strings.Contains(r.url, "{"+b.Path[0]+"}") {
					return nil, fmt.Errorf("step %q: the URL path parameter %q has no value in these arguments", s.ID, b.Path[0])
				}
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// pathText is the text of a value placed in a URL path.
func pathText(v canonjson.Value) (string, bool) {
	switch v := v.(type) {
	case canonjson.String:
		return string(v), true
	case canonjson.Number:
		return string(v), true
	case canonjson.Bool:
		if v {
			return "true", true
		}
		return "false", true
	}
	return "", false
}

// encodeURIComponent percent-encodes s as ECMAScript's encodeURIComponent
// does: everything but A-Z a-z 0-9 - _ . ! ~ * ' ( ).
func encodeURIComponent(s string) string {
	const keep = "-_.!~*'()"
	var b strings.Builder
	for _, c := range []byte(s) {
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// compareRequest compares a recorded dispatch with the request it should
// be, and says what differs ("" when they match).
func compareRequest(d dispatch, want request) string {
	if d.form != "http" {
		return "the dispatch was not an HTTP request (url, options)"
	}
	var diffs []string
	if d.url != want.url {
		diffs = append(diffs, fmt.Sprintf("url %q, want %q", d.url, want.url))
	}
	if m := str(d.options.At("method")); !strings.EqualFold(m, want.method) {
		diffs = append(diffs, fmt.Sprintf("method %q, want %q", m, want.method))
	}
	headers := &canonjson.Object{}
	if h, ok := d.options.At("headers").(*canonjson.Object); ok {
		for name, v := range h.All() {
			headers.Set(strings.ToLower(name), v)
		}
	} else if v := d.options.At("headers"); v != nil {
		diffs = append(diffs, "headers are "+canonjson.TypeName(v)+", want an object")
	}
	for _, part := range []struct {
		name      string
		got, want canonjson.Value
	}{
		{"headers", headers, want.headers},
		{"query", member(d.options, "query"), want.query},
		{"body", member(d.options, "body"), want.body},
		{"multipart", formData(member(d.options, "multipart")), want.multipart},
	} {
		if !canonjson.Equal(part.got, part.want) {
			diffs = append(diffs, fmt.Sprintf("%s %s, want %s", part.name, compact(part.got), compact(part.want)))
		}
	}
	return strings.Join(diffs, "; ")
}

// member returns an options member, with an absent one read as {}.
func member(o *canonjson.Object, key string) canonjson.Value {
	v, ok := o.Get(key)
	if !ok {
		return &canonjson.Object{}
	}
	return v
}

// formData unwraps the driver's record of a FormData multipart body.
func formData(v canonjson.Value) canonjson.Value {
	if o, ok := v.(*canonjson.Object); ok && o.Len() == 1 {
		if entries, ok := o.At("$formData").(*canonjson.Object); ok {
			return entries
		}
	}
	return v
}

func compact(v canonjson.Value) string {
	if v == nil {
		return "nothing"
	}
	s := string(canonjson.DigestForm(v))
	if len(s) > 200 {
		s = s[:197] + "..."
	}
	return s
}
