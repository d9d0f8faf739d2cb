package reach

import (
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
	}
	want := map[string]string{
		"query":        "73000001 73000001 74000001",
		"selected.id":  `"c2s73000002" c2s73000002 "c2s74000002"`,
		"selected.lot": `"c2s73000003" c2s73000003 "c2s74000003"`,
		"state":        `"open"  "done"`,
		"month":        "1  2",
		"day":          `"2031-07-07" 2031-07-07 "2032-07-07"`,
		"ref":          `"r-1"  "r-2"`,
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
