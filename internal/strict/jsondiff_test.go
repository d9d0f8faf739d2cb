package strict

import (
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

func TestFirstDifferenceMessages(t *testing.T) {
	want := `{"a": [1, 2], "b": {"c": "x"}, "n": 1}`
	for _, tc := range []struct {
		got, pointer, message string
	}{
		{`{"b": {"c": "x"}, "n": 1.0, "a": [1, 2.0]}`, "", ""},
		{`{"a": [1, 3], "b": {"c": "x"}, "n": 1}`, "/a/1", "is 3; derive computes 2"},
		{`{"a": [1], "b": {"c": "x"}, "n": 1}`, "/a", "has 1 element(s); derive computes 2, the next being 2"},
		{`{"a": [1, 2, 4], "b": {"c": "x"}, "n": 1}`, "/a/2", "is 4; derive computes 2 element(s), not 3"},
		{`{"a": [1, 2], "b": {}, "n": 1}`, "/b/c", `is missing; derive computes "x"`},
		{`{"a": [1, 2], "b": {"c": "x", "d": null}, "n": 1}`, "/b/d", "is null, which derive does not compute"},
		{`{"a": [1, 2], "b": "x", "n": 1}`, "/b", `is "x"; derive computes {"c":"x"}`},
		{`[]`, "", `is []; derive computes {"a":[1,2],"b":{"c":"x"},"n":1}`},
	} {
		g, err := canonjson.Decode([]byte(tc.got))
		if err != nil {
			t.Fatal(err)
		}
		w, _ := canonjson.Decode([]byte(want))
		d := firstDifference(g, w)
		switch {
		case tc.message == "" && d != nil:
			t.Errorf("%s: a difference at %q: %s", tc.got, d.pointer, d.message)
		case tc.message != "" && (d == nil || d.pointer != tc.pointer || d.message != tc.message):
			t.Errorf("%s: got %+v, want {%s %s}", tc.got, d, tc.pointer, tc.message)
		}
	}
}
