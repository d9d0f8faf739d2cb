package reach

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/credential"
)

// Following a pre-checked write.
//
// A write often reads before it sends: the comment must be the user's
// own, you cannot follow yourself, a login issues the token. Answered
// with an empty object, such a Function refuses, and its own request,
// where its inputs go, is never sent. When the first call ends in a
// refusal (a Tool error) after sending requests, the answers to them are
// searched for:
//
//   - a learning call answers every request with a body that, parsed,
//     records which members the Function reads (driver.cjs), each a
//     stand-in that equals nothing;
//   - then every member read and never read into (a leaf) gets one
//     shared text, so that two members compared are equal, and a member
//     named like a credential a fake token, which the credential judge
//     then knows;
//   - while the Function still refuses, one leaf at a time is given
//     another value, in this order: the value of the input named like it
//     (commentId for id), the fake user names, false, true, null, 0, 1,
//     the other inputs' values and the texts the package's code compares
//     with; a change is kept when the Function reads further or sends
//     more.
//
// The search ends when the Function sends its request and returns a
// result, after maxAttempts calls, or at the first call that hangs or
// exits. The answers found are then given, as plain JSON, to those
// requests (matched by method and URL) in every later call, an input's
// value following the input when a call changes it; the answers to
// requests of no input (a login) are given to every later Tool too, whose
// server may log in again. A recorder that cannot learn (the Go one)
// leaves the search at its first call.

// maxAttempts bounds the calls of one Tool's search.
const maxAttempts = 24

// same is the text every leaf gets first: equal to itself, so that a
// Function comparing two members (the comment's author, the signed-in
// user) finds them equal; driver.cjs uses it for stand-ins turned to text.
const same = "c2s-same"

// read is a member a learning call saw read: kind "read", "leaf" (turned
// into text or a number) or "array" (used as a list).
type read struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// valueSpec is the value of a leaf: an input's (which follows the input
// when a call changes it) or a fixed one.
type valueSpec struct {
	input *input
	value canonjson.Value
}

func (v valueSpec) equal(o valueSpec) bool {
	if v.input != nil || o.input != nil {
		return v.input == o.input
	}
	return canonjson.Equal(v.value, o.value)
}

// shapes is what a search learned of the answers a Tool's requests need.
// A path starts with its request, "METHOD URL" encoded as a URI component
// (driver.cjs), so that a request keeps its answers whatever its position.
type shapes struct {
	order  []string         // paths in the order first read
	kinds  map[string]uint8 // path -> kindRead|kindLeaf|kindArray
	values map[string]valueSpec
	// own is the Tool's own request, "METHOD URL": the answers found are
	// for the others.
	own string
	// tokens are the fake tokens given to credential-like leaves.
	tokens map[string]string
}

const (
	kindRead uint8 = 1 << iota
	kindLeaf
	kindArray
)

func newShapes() *shapes {
	return &shapes{kinds: map[string]uint8{}, values: map[string]valueSpec{}, tokens: map[string]string{}}
}

// learn adds what a learning call saw read.
func (s *shapes) learn(reads []read) {
	for _, r := range reads {
		if _, ok := s.kinds[r.Path]; !ok {
			s.order = append(s.order, r.Path)
		}
		switch r.Kind {
		case "leaf":
			s.kinds[r.Path] |= kindLeaf | kindRead
		case "array":
			s.kinds[r.Path] |= kindArray | kindRead
		default:
			s.kinds[r.Path] |= kindRead
		}
	}
}

// parent returns a path's parent, "" for a request's root.
func parent(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[:i]
	}
	return ""
}

// hasChildren reports whether some path read extends path.
func (s *shapes) hasChildren(path string) bool {
	for p := range s.kinds {
		if parent(p) == path {
			return true
		}
	}
	return false
}

// leaves returns the members read and never read into, in the order
// first read: the values a Function compares or tests.
func (s *shapes) leaves() []string {
	var out []string
	for _, p := range s.order {
		if !strings.Contains(p, "/") || s.kinds[p]&kindArray != 0 || s.hasChildren(p) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// with returns a copy of s with one leaf's value changed.
func (s *shapes) with(path string, v valueSpec) *shapes {
	c := *s
	c.order = slices.Clone(s.order)
	c.kinds = maps.Clone(s.kinds)
	c.values = maps.Clone(s.values)
	c.values[path] = v
	return &c
}

// key returns the last member name of a path, and for a list's item
// ("data/0") the list's.
func key(path string) string {
	for path != "" {
		k := path[strings.LastIndexByte(path, '/')+1:]
		if _, err := strconv.Atoi(k); err != nil {
			return k
		}
		path = parent(path)
	}
	return ""
}

// leafValue returns the value a leaf gets in a call whose inputs have
// values.
func (s *shapes) leafValue(path string, values map[*input]canonjson.Value) canonjson.Value {
	if v, ok := s.values[path]; ok {
		if v.input != nil {
			if o, ok := values[v.input]; ok {
				return o
			}
			return v.input.value
		}
		return v.value
	}
	if credential.Name(key(path)) {
		tok, ok := s.tokens[path]
		if !ok {
			tok = fakeToken(900 + len(s.tokens))
			s.tokens[path] = tok
		}
		return canonjson.String(tok)
	}
	return canonjson.String(same)
}

// learnValues returns the values a learning call fixes: every leaf known.
func (s *shapes) learnValues(values map[*input]canonjson.Value) map[string]canonjson.Value {
	out := map[string]canonjson.Value{}
	for _, p := range s.leaves() {
		out[p] = s.leafValue(p, values)
	}
	return out
}

// body returns, as JSON text, the answer a request gets: the members read,
// as objects and lists, with the leaves' values; "{}" when the Function
// read none of it.
func (s *shapes) body(root string, values map[*input]canonjson.Value) string {
	v := s.build(root, values)
	if v == nil {
		return "{}"
	}
	return show(v)
}

func (s *shapes) build(path string, values map[*input]canonjson.Value) canonjson.Value {
	var children []string
	for _, p := range s.order {
		if parent(p) == path {
			children = append(children, p)
		}
	}
	kind := s.kinds[path]
	if len(children) == 0 {
		switch {
		case kind == 0:
			return nil
		case kind&kindArray != 0:
			return canonjson.Array{&canonjson.Object{}}
		case !strings.Contains(path, "/"):
			return &canonjson.Object{}
		}
		return s.leafValue(path, values)
	}
	if kind&kindArray != 0 || allIndices(children) {
		var arr canonjson.Array
		for _, c := range children {
			n, err := strconv.Atoi(c[len(path)+1:])
			if err != nil || n > 16 {
				continue
			}
			for len(arr) <= n {
				arr = append(arr, &canonjson.Object{})
			}
			arr[n] = s.build(c, values)
		}
		if len(arr) == 0 {
			arr = canonjson.Array{&canonjson.Object{}}
		}
		return arr
	}
	o := &canonjson.Object{}
	for _, c := range children {
		if v := s.build(c, values); v != nil {
			o.Set(c[len(path)+1:], v)
		}
	}
	return o
}

func allIndices(paths []string) bool {
	for _, p := range paths {
		if _, err := strconv.Atoi(p[strings.LastIndexByte(p, '/')+1:]); err != nil {
			return false
		}
	}
	return true
}

// roots returns the requests the search answered but the Tool's own, in
// the order first read.
func (s *shapes) roots() []string {
	var out []string
	for _, p := range s.order {
		if req, err := url.PathUnescape(p); !strings.Contains(p, "/") && (err != nil || req != s.own) {
			out = append(out, p)
		}
	}
	return out
}

// preAnswers returns the answers the requests before the Tool's own get
// in a call whose inputs have values; shared are those of the requests
// whose answers hold no input's value (a login), which other Tools' calls
// may send too.
func (s *shapes) preAnswers(values map[*input]canonjson.Value) (all, shared []answer) {
	for _, root := range s.roots() {
		req, err := url.PathUnescape(root)
		method, u, ok := strings.Cut(req, " ")
		if err != nil || !ok {
			continue
		}
		a := answer{Status: 200, Body: bodyText(s.body(root, values)), Method: method, URL: u}
		all = append(all, a)
		if !s.usesInputs(root) {
			shared = append(shared, a)
		}
	}
	return all, shared
}

// usesInputs reports whether a request's answer holds an input's value.
func (s *shapes) usesInputs(root string) bool {
	for p, v := range s.values {
		if v.input != nil && strings.HasPrefix(p, root+"/") {
			return true
		}
	}
	return false
}

// progress says how far a call got: the requests it sent, then the
// members it read.
type progress struct{ requests, reads int }

func (p progress) beyond(o progress) bool {
	return p.requests > o.requests || p.requests == o.requests && p.reads > o.reads
}

func progressOf(o *observed) progress {
	return progress{len(valid(o.obs.Requests)), len(o.obs.Reads)}
}

// refusedBeforeOwn reports whether a call ended in a refusal before the
// Tool's own request went out: no request answered as planned, or only
// reads from a write.
func refusedBeforeOwn(t Tool, o *observed) bool {
	if !o.refused() {
		return false
	}
	reqs := valid(o.obs.Requests)
	if len(reqs) == 0 {
		return false
	}
	for _, q := range reqs {
		if !q.planned {
			continue
		}
		if t.ReadOnly() || !isRead(q.Method) {
			return false
		}
	}
	return true
}

// succeeded reports a call that returned a result, no error.
func succeeded(o *observed) bool {
	return !o.noAnswer && !o.broken() && o.result != nil && !o.result.isError
}

// search looks for the answers that lead a Tool past its pre-checks (see
// above), after a call that refused. It returns nil when none were found.
// When the refused call had sent the Tool's own request (a read-only
// Tool's reads all look alike), a search counts only when it leads the
// Tool to send more: otherwise the refusal is of its own answer, which
// the status checks judge.
func (r *runner) search(ctx context.Context, ts *toolState, refused *observed) (*shapes, error) {
	before, sent := refusedBeforeOwn(ts.t, refused), len(valid(refused.obs.Requests))
	succeeded := func(o *observed) bool {
		return succeeded(o) && (before || len(valid(o.obs.Requests)) > sent)
	}
	sh := newShapes()
	attempts := 0
	try := func(s *shapes) (*observed, error) {
		attempts++
		return r.call(ctx, ts, callSpec{kind: "search", args: ts.args, learn: s.learnValues(nil), quiet: true})
	}
	o, err := try(sh)
	if err != nil || o.noAnswer || o.broken() || !o.obs.Learns {
		return nil, err
	}
	sh.learn(o.obs.Reads)
	for attempts < maxAttempts {
		if succeeded(o) {
			if reqs := valid(o.obs.Requests); len(reqs) > 0 {
				last := reqs[len(reqs)-1]
				sh.own = last.Method + " " + last.URL
			}
			return sh, nil
		}
		// The leaves known get their values: a call that now reads
		// further continues from there.
		o2, err := try(sh)
		if err != nil || o2.noAnswer || o2.broken() {
			return nil, err
		}
		sh.learn(o2.obs.Reads)
		if succeeded(o2) || progressOf(o2).beyond(progressOf(o)) {
			o = o2
			continue
		}
		o = o2
		moved := false
	leaves:
		for _, leaf := range sh.leaves() {
			current := valueSpec{value: sh.leafValue(leaf, nil)}
			if v, ok := sh.values[leaf]; ok {
				current = v
			}
			for _, v := range r.candidates(ts, leaf) {
				if v.equal(current) {
					continue
				}
				if attempts >= maxAttempts {
					return nil, nil
				}
				next := sh.with(leaf, v)
				o3, err := try(next)
				if err != nil || o3.noAnswer || o3.broken() {
					return nil, err
				}
				next.learn(o3.obs.Reads)
				if succeeded(o3) || progressOf(o3).beyond(progressOf(o)) {
					sh, o, moved = next, o3, true
					break leaves
				}
			}
		}
		if !moved {
			return nil, nil
		}
	}
	return nil, nil
}

// candidates returns the values a leaf is tried with, in order.
func (r *runner) candidates(ts *toolState, leaf string) []valueSpec {
	k := strings.ToLower(key(leaf))
	var named, others []valueSpec
	for _, in := range ts.p.inputs {
		if !in.owed() {
			continue
		}
		name := strings.ToLower(in.path[strings.LastIndexAny(in.path, ".]")+1:])
		if k != "" && (name == k || strings.HasSuffix(name, k) || strings.HasSuffix(k, name)) {
			named = append(named, valueSpec{input: in})
		} else {
			others = append(others, valueSpec{input: in})
		}
	}
	out := append([]valueSpec{}, named...)
	out = append(out, valueSpec{value: canonjson.String(same)})
	for _, u := range r.setup.Users {
		out = append(out, valueSpec{value: canonjson.String(u.Value)})
	}
	out = append(out,
		valueSpec{value: canonjson.Bool(false)}, valueSpec{value: canonjson.Bool(true)}, valueSpec{value: canonjson.Null{}},
		valueSpec{value: canonjson.Int(0)}, valueSpec{value: canonjson.Int(1)})
	out = append(out, others...)
	for _, c := range r.cfg.Constants {
		out = append(out, valueSpec{value: canonjson.String(c)})
	}
	return slices.CompactFunc(out, func(a, b valueSpec) bool { return a.equal(b) })
}
