package condition

import (
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

func decode(t *testing.T, s string) canonjson.Value {
	t.Helper()
	v, err := canonjson.Decode([]byte(s))
	if err != nil {
		t.Fatalf("decoding %s: %v", s, err)
	}
	return v
}

func TestEvalLeaves(t *testing.T) {
	args := decode(t, `{"sel": {"needs": true, "n": 3, "tags": ["a", "b"], "note": "", "nothing": null}, "count": 2.0}`).(*canonjson.Object)
	tests := []struct {
		cond string
		want Truth
	}{
		{`{"path": ["sel", "needs"], "operator": "equals", "value": true}`, True},
		{`{"path": ["sel", "needs"], "operator": "equals", "value": false}`, False},
		{`{"path": ["sel", "needs"], "operator": "not-equals", "value": false}`, True},
		{`{"path": ["count"], "operator": "equals", "value": 2}`, True}, // numbers by value
		{`{"path": ["sel", "n"], "operator": "in", "value": [1, 3]}`, True},
		{`{"path": ["sel", "n"], "operator": "not-in", "value": [1, 3]}`, False},
		{`{"path": ["sel", "n"], "operator": "gt", "value": 2}`, True},
		{`{"path": ["sel", "n"], "operator": "gte", "value": 3}`, True},
		{`{"path": ["sel", "n"], "operator": "lt", "value": 3}`, False},
		{`{"path": ["sel", "n"], "operator": "lte", "value": 3.5}`, True},
		{`{"path": ["sel", "note"], "operator": "gt", "value": 1}`, False}, // not a number
		{`{"path": ["sel", "tags"], "operator": "non-empty"}`, True},
		{`{"path": ["sel", "note"], "operator": "empty"}`, True},
		{`{"path": ["sel", "note"], "operator": "present"}`, True},
		{`{"path": ["sel", "nothing"], "operator": "absent"}`, True}, // null is absent
		{`{"path": ["sel", "missing"], "operator": "absent"}`, True},
		{`{"path": ["sel", "missing"], "operator": "empty"}`, True},
		{`{"path": ["sel", "missing"], "operator": "equals", "value": 1}`, False},
		{`{"path": ["sel", "missing"], "operator": "not-equals", "value": 1}`, True},
		{`{"path": ["other"], "operator": "present"}`, False}, // an absent root
		{`{"path": ["sel", "tags", "*"], "operator": "equals", "value": "b"}`, True},
		{`{"path": ["sel", "tags", "*"], "operator": "equals", "value": "c"}`, False},
		{`{"path": ["sel"], "operator": "unknown-op"}`, False},
		{`{"operator": "equals", "value": 1}`, Unknown}, // no path
		{`"not a condition"`, Unknown},
	}
	for _, tt := range tests {
		if got := Eval(decode(t, tt.cond), Values(args)); got != tt.want {
			t.Errorf("Eval(%s) = %v, want %v", tt.cond, got, tt.want)
		}
	}
}

func TestEvalThreeValued(t *testing.T) {
	// "a" is known true-ish, "b" is undecided.
	look := func(root string) (canonjson.Value, Presence) {
		switch root {
		case "a":
			return canonjson.Bool(true), Present
		case "b":
			return nil, Undecided
		}
		return nil, Absent
	}
	const (
		aTrue  = `{"path": ["a"], "operator": "equals", "value": true}`
		aFalse = `{"path": ["a"], "operator": "equals", "value": false}`
		bTrue  = `{"path": ["b"], "operator": "equals", "value": true}`
	)
	tests := []struct {
		cond string
		want Truth
	}{
		{bTrue, Unknown},
		{`{"path": ["b"], "operator": "absent"}`, Unknown},
		{`{"operator": "and", "conditions": [` + aTrue + `, ` + bTrue + `]}`, Unknown},
		{`{"operator": "and", "conditions": [` + aFalse + `, ` + bTrue + `]}`, False},
		{`{"operator": "or", "operands": [` + aTrue + `, ` + bTrue + `]}`, True},
		{`{"operator": "or", "operands": [` + aFalse + `, ` + bTrue + `]}`, Unknown},
		{`{"operator": "not", "condition": ` + bTrue + `}`, Unknown},
		{`{"operator": "not", "condition": ` + aFalse + `}`, True},
		{`{"operator": "and", "conditions": []}`, Unknown},
	}
	for _, tt := range tests {
		if got := Eval(decode(t, tt.cond), look); got != tt.want {
			t.Errorf("Eval(%s) = %v, want %v", tt.cond, got, tt.want)
		}
	}
}

func TestRoots(t *testing.T) {
	cond := decode(t, `{"operator": "or", "conditions": [
		{"path": ["x", "y"], "operator": "present"},
		{"operator": "not", "condition": {"path": ["z"], "operator": "empty"}},
		{"path": ["x"], "operator": "absent"}]}`)
	got := Roots(cond)
	if len(got) != 2 || got[0] != "x" || got[1] != "z" {
		t.Errorf("Roots = %q, want [x z]", got)
	}
}
