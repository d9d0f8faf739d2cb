package canonjson

import "testing"

func TestEqual(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`{"a": [1, 2.0, {"b": null}], "c": "x"}`, `{"c": "x", "a": [1.0, 2, {"b": null}]}`, true},
		{`1e2`, `100`, true},
		{`0.1`, `0.10000000000000000000000000000000000000000000000000000000000000000000000000000000001`, false},
		{`1e308`, `10e307`, true},
		{`1e308`, `1.0000000000000001e308`, false}, // equal as float64s
		{`[1, 2]`, `[2, 1]`, false},
		{`{"a": 1}`, `{"a": 1, "b": 2}`, false},
		{`{"a": 1, "b": 2}`, `{"a": 1, "c": 2}`, false},
		{`"1"`, `1`, false},
		{`null`, `false`, false},
		{`null`, `null`, true},
		{`"x"`, `"x"`, true},
	} {
		a, err := Decode([]byte(tc.a))
		if err != nil {
			t.Fatal(err)
		}
		b, err := Decode([]byte(tc.b))
		if err != nil {
			t.Fatal(err)
		}
		if got := Equal(a, b); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestCompareNumbers(t *testing.T) {
	for _, tc := range []struct {
		a, b Number
		want int
	}{
		{"1", "2", -1}, {"2.50", "2.5", 0}, {"-0", "0", 0}, {"1e308", "1", 1}, {"-1e308", "5e-324", -1},
	} {
		if got, ok := CompareNumbers(tc.a, tc.b); !ok || got != tc.want {
			t.Errorf("CompareNumbers(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, ok, tc.want)
		}
	}
	if _, ok := CompareNumbers("1", "x"); ok {
		t.Error("compared a literal that is not a number")
	}
}

func TestAtAndStringsOf(t *testing.T) {
	o, err := Decode([]byte(`{"a": ["x", 1, "y"], "n": null}`))
	if err != nil {
		t.Fatal(err)
	}
	obj := o.(*Object)
	if got := StringsOf(obj.At("a")); len(got) != 2 || got[0] != "x" || got[1] != "y" {
		t.Errorf(`StringsOf(a) = %q, want ["x" "y"]`, got)
	}
	if obj.At("missing") != nil {
		t.Error("At of a missing member is not nil")
	}
	if _, ok := obj.At("n").(Null); !ok {
		t.Errorf("At of a null member = %#v, want Null", obj.At("n"))
	}
	var none *Object
	if none.At("a") != nil || StringsOf(String("x")) != nil {
		t.Error("a nil object or a non-array has members")
	}
}
