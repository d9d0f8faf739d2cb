package reach

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/credential"
)

func schema(t *testing.T, src string) *canonjson.Object {
	t.Helper()
	v, err := canonjson.Decode([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*canonjson.Object)
}

func TestPlanValues(t *testing.T) {
	// What zod 4 emits for the example's loose inputs, a nested record, an
	// enum, a bounded number, a format, examples and a local input.
	s := schema(t, `{"type":"object","properties":{
		"query":{"type":["string","number","null"]},
		"selected":{"anyOf":[{"type":"object","properties":{"id":{"type":"string"},"lot":{"type":"string"}}},{"type":"null"}]},
		"state":{"type":"string","enum":["open","done"]},
		"month":{"type":"integer","minimum":1,"maximum":12},
		"day":{"type":"string","format":"date"},
		"ref":{"type":"string","examples":["r-1","r-2"]},
		"tags":{"type":"array","items":{"type":"string","minLength":16}},
		"confirm":{"type":"boolean","x-code2skill-local":"checked before sending"},
		"apiToken":{"type":"string"}
	}}`)
	p := planFor(Tool{Name: "t", InputSchema: s, Index: 2})
	got := map[string]string{}
	for _, in := range p.inputs {
		got[in.path] = show(in.value) + " " + in.marker + " " + show(in.alt)
		if in.path == "confirm" && in.local != "checked before sending" {
			t.Errorf("confirm is not local: %+v", in)
		}
		if in.path == "apiToken" && !in.configuration {
			t.Errorf("apiToken is not a configuration input")
		}
		// An address can stand for an input that admits text.
		if text := in.path != "month" && in.path != "confirm"; in.text != text {
			t.Errorf("%s: text = %v", in.path, in.text)
		}
	}
	want := map[string]string{
		"query":        "73000001 73000001 74000001",
		"selected.id":  `"c2s73000002" c2s73000002 "c2s74000002"`,
		"selected.lot": `"c2s73000003" c2s73000003 "c2s74000003"`,
		"state":        `"open"  "done"`,
		"month":        "1  2",
		"day":          `"2031-07-07" 2031-07-07 "2032-07-07"`,
		"ref":          `"r-73000007" 73000007 "r-74000007"`,
		"tags[]":       `"c2s73000008xxxxx" c2s73000008 "c2s74000008xxxxx"`,
		"confirm":      "true  false",
		"apiToken":     `"c2s73000010" c2s73000010 "c2s74000010"`,
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %s, want %s", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("inputs %v", got)
	}
	args := show(p.args(nil))
	if !strings.Contains(args, `"selected":{"id":"c2s73000002","lot":"c2s73000003"}`) || !strings.Contains(args, `"tags":["c2s73000008xxxxx"]`) {
		t.Errorf("args = %s", args)
	}
	for _, in := range p.inputs {
		if in.path == "selected.lot" && in.pointer != "/tools/2/inputSchema/properties/selected/anyOf/0/properties/lot" {
			t.Errorf("pointer %s", in.pointer)
		}
	}
}

func TestFound(t *testing.T) {
	body := `{"comment":{"body":"Text c2s73000001 AND 73000002\u00e9"},"cents":7300000300}`
	r := Request{Method: "POST", URL: "https://svc1.reach.invalid/base1/items/c2s73000004%2Fx?q=c2s+73000005#c2s73000006",
		Headers: map[string]string{"x-ref": "C2S73000007", "content-type": "application/json"}, Body: &body}
	for marker, where := range map[string]string{
		"c2s73000001": "the body at /comment/body",
		"73000002":    "the body at /comment/body",
		"73000003":    "the body at /cents",
		"c2s73000004": "the path",
		"73000005":    `query parameter "q"`,
		"c2s73000007": `header "x-ref"`,
	} {
		if sent, _ := found(r, marker); !slices.Contains(sent, where) {
			t.Errorf("%s found in %v, want %s", marker, sent, where)
		}
	}
	if sent, fragment := found(r, "c2s73000006"); len(sent) != 0 || len(fragment) != 1 {
		t.Errorf("the fragment's marker: sent %v, fragment %v", sent, fragment)
	}
	if sent, _ := found(r, "c2s73000009"); len(sent) != 0 {
		t.Errorf("an absent marker found in %v", sent)
	}
}

func TestDiffer(t *testing.T) {
	req := func(body, key string) Request {
		return Request{Method: "POST", URL: "https://h.invalid/x", Headers: map[string]string{"idempotency-key": key}, Body: &body}
	}
	a := []Request{req(`{"a":1,"at":"10:00"}`, "k1")}
	b := []Request{req(`{"a":1,"at":"10:01"}`, "k2")}
	skip := volatile(a, b)
	if differ(a, []Request{req(`{"a":1,"at":"10:05"}`, "k3")}, skip) {
		t.Error("a time stamp and a key that change on every call are not a change of the input")
	}
	if !differ(a, []Request{req(`{"a":2,"at":"10:05"}`, "k3")}, skip) {
		t.Error("a changed member is a change")
	}
	if !differ(a, nil, skip) {
		t.Error("no request is a change")
	}
}

func TestSetup(t *testing.T) {
	s := NewSetup(Config{Variables: []string{
		"CODE2SKILL_SHOP_API_BASE_URL", "CODE2SKILL_SHOP_API_TOKEN", "CODE2SKILL_DRY_RUN",
		"SHOP_HOST", "CODE2SKILL_SHOP_API_USERNAME", "TIMEOUT_MS",
	}, DryRunVariable: "CODE2SKILL_DRY_RUN"})
	env := strings.Join(s.Env(), "\n")
	for _, want := range []string{
		"CODE2SKILL_SHOP_API_BASE_URL=https://svc1.reach.invalid/base1",
		"SHOP_HOST=svc2.reach.invalid",
		"CODE2SKILL_SHOP_API_USERNAME=reach-user-1",
		"CODE2SKILL_SHOP_API_TOKEN=eyJ",
	} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %s:\n%s", want, env)
		}
	}
	if strings.Contains(env, "TIMEOUT_MS") || strings.Contains(env, "DRY_RUN") {
		t.Errorf("env sets what it need not:\n%s", env)
	}
	for url, base := range map[string]string{
		"https://svc1.reach.invalid/base1/orders?x=1": "CODE2SKILL_SHOP_API_BASE_URL",
		"https://svc1.reach.invalid/base1?x=1":        "CODE2SKILL_SHOP_API_BASE_URL",
		"https://svc1.reach.invalid/orders":           "",
		"https://svc1.reach.invalid/base10/orders":    "",
		"https://svc2.reach.invalid/anything":         "SHOP_HOST",
		"https://shop.example.com/base1/orders":       "",
	} {
		got := ""
		if b := s.baseOf(url); b != nil {
			got = b.Var
		}
		if got != base {
			t.Errorf("baseOf(%s) = %q, want %q", url, got, base)
		}
	}
	found := credential.FindInValueWith(canonjson.NewObject(canonjson.Member{Key: "note", Value: canonjson.String("sent " + s.Secrets[0].Value)}), s.secretValues())
	if len(found) != 1 || found[0].Pointer != "/note" || strings.Contains(found[0].What, s.Secrets[0].Value) {
		t.Errorf("FindCredentials = %+v", found)
	}
}

func TestShapeLike(t *testing.T) {
	for example, want := range map[string]string{
		"r-1":          "r-73000004",
		"eyJpZCI6MTB9": "eyJpZCI73000004MTB9",
		"page-12-of-3": "page-73000004-of-3",
		"open":         "open73000004",
	} {
		if got := shapeLike(example, 73000004); got != want {
			t.Errorf("shapeLike(%q) = %q, want %q", example, got, want)
		}
	}
}

func TestExamplesAndFixedValues(t *testing.T) {
	s := schema(t, `{"type":"object","properties":{
		"after":{"type":["string","null"],"examples":["eyJpZCI6MTB9"]},
		"size":{"type":"integer","examples":[10,20]},
		"kind":{"type":"string","enum":["one"]},
		"fixed":{"const":"x"}
	}}`)
	p := planFor(Tool{Name: "t", InputSchema: s})
	byPath := map[string]*input{}
	for _, in := range p.inputs {
		byPath[in.path] = in
	}
	if in := byPath["after"]; in.marker != "73000001" || show(in.value) != `"eyJpZCI73000001MTB9"` || in.alt == nil {
		t.Errorf("after = %+v", in)
	}
	if in := byPath["size"]; in.marker != "73000002" {
		t.Errorf("size = %+v", in)
	}
	for _, path := range []string{"kind", "fixed"} {
		if in := byPath[path]; in.alt != nil || in.fixed == "" {
			t.Errorf("%s = %+v, want a fixed value", path, in)
		}
	}
	// A Tool that refuses shaped values gets the examples.
	if !p.plainExamples() {
		t.Fatal("no example-shaped value")
	}
	if in := byPath["after"]; show(in.value) != `"eyJpZCI6MTB9"` || in.marker != "" || in.alt != nil || in.fixed == "" {
		t.Errorf("after, plain = %+v", in)
	}
	if in := byPath["size"]; show(in.value) != "10" || show(in.alt) != "20" {
		t.Errorf("size, plain = %+v", in)
	}
	if p.plainExamples() {
		t.Error("plain twice")
	}
}

func TestSearchLike(t *testing.T) {
	for u, want := range map[string]bool{
		"https://h.invalid/api/tasks/search":          true,
		"https://h.invalid/api/v1/graphql":            true,
		"https://h.invalid/api/orders/findByCustomer": true,
		"https://h.invalid/api/quotes":                true,
		"https://h.invalid/api/orders?query=x":        true,
		"https://h.invalid/api/orders":                false,
		"https://h.invalid/api/notes/a/comments":      false,
		"https://h.invalid/api/research-notes":        false,
	} {
		if got := SearchLike(u); got != want {
			t.Errorf("SearchLike(%s) = %v, want %v", u, got, want)
		}
	}
}

// TestShapesBody builds the answers a search found from the members a
// Function read.
func TestShapesBody(t *testing.T) {
	root := url.PathEscape("GET https://h.invalid/api/user")
	comments := url.PathEscape("GET https://h.invalid/api/notes/a/comments")
	sh := newShapes()
	sh.learn([]read{
		{root, "read"}, {root + "/data", "read"}, {root + "/data/username", "read"},
		{comments, "read"}, {comments + "/data", "read"}, {comments + "/data", "array"},
		{comments + "/data/0", "read"}, {comments + "/data/0/id", "leaf"}, {comments + "/data/0/author", "read"},
		{comments + "/data/0/author/username", "read"},
		{root + "/access_token", "read"},
	})
	id := &input{path: "commentId", value: canonjson.String("c2s73000002")}
	sh.values[comments+"/data/0/id"] = valueSpec{input: id}
	if got, want := sh.leaves(), []string{root + "/data/username", comments + "/data/0/id", comments + "/data/0/author/username", root + "/access_token"}; !slices.Equal(got, want) {
		t.Errorf("leaves = %v, want %v", got, want)
	}
	if got := sh.body(comments, nil); got != `{"data":[{"id":"c2s73000002","author":{"username":"c2s-same"}}]}` {
		t.Errorf("comments answer = %s", got)
	}
	if got := sh.body(comments, map[*input]canonjson.Value{id: canonjson.String("c2s74000002")}); !strings.Contains(got, `"id":"c2s74000002"`) {
		t.Errorf("the answer does not follow the input: %s", got)
	}
	user := sh.body(root, nil)
	if !strings.Contains(user, `"username":"c2s-same"`) || !strings.Contains(user, `"access_token":"eyJ`) || len(sh.tokens) != 1 {
		t.Errorf("user answer = %s, tokens %v", user, sh.tokens)
	}
	sh.own = "GET https://h.invalid/api/notes/a/comments"
	all, shared := sh.preAnswers(nil)
	if len(all) != 1 || all[0].URL != "https://h.invalid/api/user" || all[0].Method != "GET" || len(shared) != 1 {
		t.Errorf("pre answers = %+v, shared %+v", all, shared)
	}
}
