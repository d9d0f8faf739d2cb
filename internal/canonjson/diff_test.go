package canonjson

import (
	"slices"
	"testing"
)

func mustDecode(t *testing.T, s string) Value {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

func TestFirstDifference(t *testing.T) {
	a := mustDecode(t, `{"a": {"b": [1, 2, 3]}, "c": true}`)
	if d, differ := FirstDifference(a, mustDecode(t, `{"c": true, "a": {"b": [1, 2.0, 3]}}`)); differ {
		t.Errorf("reordered members and 2.0: a difference at %q", d.Pointer)
	}
	for _, tc := range []struct{ other, at string }{
		{`{"a": {"b": [1, 2, 4]}, "c": true}`, "/a/b/2"},
		{`{"a": {"b": [1, 2]}, "c": true}`, "/a/b/2"},
		{`{"a": {"b": [1, 2, 3, 4]}, "c": true}`, "/a/b/3"},
		{`{"a": {"b": [1, 2, 3]}}`, "/c"},
		{`{"a": {"b": [1, 2, 3]}, "c": true, "d": 1}`, "/d"},
		{`{"a": {"b": "x"}, "c": true}`, "/a/b"},
		{`{"a": {"b": [1, 2, 3]}, "c": "true"}`, "/c"},
		{`[]`, ""},
	} {
		if d, differ := FirstDifference(a, mustDecode(t, tc.other)); !differ || d.Pointer != tc.at {
			t.Errorf("%s: at %q differ %v, want a difference at %q", tc.other, d.Pointer, differ, tc.at)
		}
	}
}

func TestDifferences(t *testing.T) {
	a := mustDecode(t, `{"x/y": 1, "m": [1, 2], "s": "s", "o": {"k": null}}`)
	b := mustDecode(t, `{"m": [1.0, 3, 4], "s": "t", "o": 5, "extra": false}`)
	var got []string
	for d := range Differences(a, b) {
		got = append(got, d.Pointer+" "+show(d.A)+" "+show(d.B))
	}
	want := []string{
		"/x~1y 1 -",
		"/m/1 2 3",
		"/m/2 - 4",
		"/s \"s\" \"t\"",
		"/o {\"k\":null} 5",
		"/extra - false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Differences:\n got %q\nwant %q", got, want)
	}
	n := 0
	for range Differences(a, b) {
		if n++; n == 2 {
			break // stopping early must not panic
		}
	}
}

func show(v Value) string {
	if v == nil {
		return "-"
	}
	return string(DigestForm(v))
}

// TestDifferencesAgreeWithEqual checks that the walk finds a difference
// exactly when Equal says the values differ, by the same number rule.
func TestDifferencesAgreeWithEqual(t *testing.T) {
	values := []string{
		`1`, `1.0`, `1e0`, `0.1`, `0.10000000000000000000000000000000000000001`, `"1"`, `null`, `true`,
		`[]`, `[1]`, `[1.0]`, `{}`, `{"a": 1}`, `{"a": 1.00}`, `{"a": [1, {"b": 2}]}`, `{"a": [1, {"b": 2e0}]}`,
		`123456789012345678901234567890`, `123456789012345678901234567891`,
	}
	for _, x := range values {
		for _, y := range values {
			a, b := mustDecode(t, x), mustDecode(t, y)
			_, differ := FirstDifference(a, b)
			if differ == Equal(a, b) {
				t.Errorf("%s vs %s: FirstDifference says differ=%v, Equal says %v", x, y, differ, Equal(a, b))
			}
		}
	}
}
