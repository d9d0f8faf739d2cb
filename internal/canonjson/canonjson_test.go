package canonjson

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The files in testdata/format were written by Python's json module
// (json.dumps(v, indent=2, ensure_ascii=False) plus a newline, and
// json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)),
// the layout the established toolchain writes. They pin every escaping and
// number-formatting decision.
func TestEncodeMatchesEstablishedFormat(t *testing.T) {
	v := decodeFile(t, "testdata/format/input.json")
	want := readFile(t, "testdata/format/want-file.json")
	if got := Encode(v); !bytes.Equal(got, want) {
		t.Errorf("Encode differs (-want +got):\n%s", cmp.Diff(string(want), string(got)))
	}
	wantDigest := readFile(t, "testdata/format/want-digest.json")
	if got := DigestForm(v); !bytes.Equal(got, wantDigest) {
		t.Errorf("DigestForm differs (-want +got):\n%s", cmp.Diff(string(wantDigest), string(got)))
	}
	if got, want := Digest(v), "3622c072015a659a3417fc9ef0689a740f99e5b0dfecddcc26db2ae9f6757aea"; got != want {
		t.Errorf("Digest = %s, want %s", got, want)
	}
}

// The file form is a fixed point: decoding what Encode wrote and encoding it
// again gives the same bytes.
func TestEncodeRoundTrips(t *testing.T) {
	data := readFile(t, "testdata/format/want-file.json")
	v, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := Encode(v); !bytes.Equal(got, data) {
		t.Errorf("Encode(Decode(file form)) differs (-want +got):\n%s", cmp.Diff(string(data), string(got)))
	}
}

func TestDecodeKeepsOrderAndLiterals(t *testing.T) {
	v, err := Decode([]byte(`{"z": 1.0, "a": 10, "m": [1e2, -0, 0.50]}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(*Object)
	if diff := cmp.Diff([]string{"z", "a", "m"}, o.Keys()); diff != "" {
		t.Errorf("key order (-want +got):\n%s", diff)
	}
	z, _ := o.Get("z")
	if n := z.(Number); n != "1.0" || n.IsInteger() {
		t.Errorf("z = %q, integer %v; want the literal 1.0, not an integer", n, n.IsInteger())
	}
	a, _ := o.Get("a")
	if n, ok := a.(Number).Int64(); !ok || n != 10 {
		t.Errorf("a = %v, %v", n, ok)
	}
	if got := string(Encode(v)); got != "{\n  \"z\": 1.0,\n  \"a\": 10,\n  \"m\": [\n    100.0,\n    0,\n    0.5\n  ]\n}\n" {
		t.Errorf("Encode = %q", got)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		kind     ErrorKind
		line     int
		col      int
	}{
		{"empty", ``, KindSyntax, 1, 1},
		{"trailing comma", "{\n  \"a\": 1,\n}", KindSyntax, 3, 1},
		{"missing colon", `{"a" 1}`, KindSyntax, 1, 6},
		{"single quotes", `{'a': 1}`, KindSyntax, 1, 2},
		{"unterminated string", `["abc`, KindSyntax, 1, 6},
		{"raw newline in string", "[\"a\nb\"]", KindSyntax, 1, 4},
		{"bad escape", `["\x"]`, KindSyntax, 1, 3},
		{"short unicode escape", `["\u12"]`, KindSyntax, 1, 3},
		{"leading zero", `[01]`, KindSyntax, 1, 2},
		{"bare minus", `[-]`, KindSyntax, 1, 3},
		{"fraction without digits", `[1.]`, KindSyntax, 1, 4},
		{"exponent without digits", `[1e+]`, KindSyntax, 1, 5},
		{"NaN", `[NaN]`, KindSyntax, 1, 2},
		{"Infinity", `{"a": Infinity}`, KindSyntax, 1, 7},
		{"trailing data", `{} {}`, KindSyntax, 1, 4},
		{"trailing literal garbage", `truex`, KindSyntax, 1, 5},
		{"comment", "{\n// no\n}", KindSyntax, 2, 1},
		{"duplicate key", "{\"a\": 1,\n \"b\": {\"c\": 1, \"c\": 2}}", KindDuplicateKey, 2, 16},
		{"byte-order mark", "\xef\xbb\xbf{}", KindEncoding, 1, 1},
		{"invalid UTF-8", "[\"ok\xff\"]", KindEncoding, 1, 5},
		{"invalid UTF-8 after escape", "[\"\\n\xc3\"]", KindEncoding, 1, 3},
		{"lone high surrogate", `["\ud800"]`, KindEncoding, 1, 3},
		{"lone low surrogate", `["\udc00x"]`, KindEncoding, 1, 3},
		{"surrogate then letter", `["\ud83d\u0041"]`, KindEncoding, 1, 3},
		{"float overflow", `{"a": 1e400}`, KindNumberRange, 1, 7},
		{"too deep", strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), KindSyntax, 1, MaxDepth + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.in))
			se, ok := err.(*SyntaxError)
			if !ok {
				t.Fatalf("Decode(%q) error = %v, want a *SyntaxError", tc.in, err)
			}
			if se.Kind != tc.kind || se.Line != tc.line || se.Column != tc.col {
				t.Errorf("Decode(%q) = kind %d at %d:%d (%s), want kind %d at %d:%d",
					tc.in, se.Kind, se.Line, se.Column, se.Msg, tc.kind, tc.line, tc.col)
			}
		})
	}
}

func TestDecodeAcceptsEdgeCases(t *testing.T) {
	for _, in := range []string{
		`0`, `-0`, `"\u0000"`, `"\ud83d\ude00"`, `"\/"`, " \t\r\n[] \n",
		`{"": ""}`, `123456789012345678901234567890`, `1e-400`,
		strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	} {
		if _, err := Decode([]byte(in)); err != nil {
			t.Errorf("Decode(%q): %v", in, err)
		}
	}
}

func TestSyntaxErrorDiagnostic(t *testing.T) {
	_, err := Decode([]byte("{\n  \"a\": 1,\n  \"a\": 2\n}"))
	d := err.(*SyntaxError).Diagnostic("canonical-contract.json")
	if got, want := d.String(), `canonical-contract.json:3:3: error: duplicate key "a" [JSON_DUPLICATE_KEY]`; got != want {
		t.Errorf("Diagnostic = %s\nwant        %s", got, want)
	}
}

func TestObjectOperations(t *testing.T) {
	o := &Object{}
	for i := range 20 {
		o.Set(string(rune('a'+i)), Int(i))
	}
	o.Set("c", String("replaced"))
	o.Delete("b")
	o.Delete("missing")
	if got := strings.Join(o.Keys(), ""); got != "acdefghijklmnopqrst" {
		t.Errorf("keys = %s", got)
	}
	if v, ok := o.Get("c"); !ok || v != String("replaced") {
		t.Errorf("Get(c) = %v, %v", v, ok)
	}
	if v, ok := o.Get("t"); !ok || v != Int(19) {
		t.Errorf("Get(t) = %v, %v", v, ok)
	}
	if o.Has("b") {
		t.Error("deleted key still present")
	}
	dup := NewObject(Member{"k", Int(1)}, Member{"j", Int(2)}, Member{"k", Int(3)})
	if got := string(DigestForm(dup)); got != `{"j":2,"k":3}` {
		t.Errorf("NewObject with a repeated key = %s", got)
	}
}

func TestCloneIsDeep(t *testing.T) {
	v, _ := Decode([]byte(`{"a": {"b": [1, {"c": 2}]}}`))
	c := Clone(v)
	inner, _ := Resolve(c, "/a/b/1")
	inner.(*Object).Set("c", Int(3))
	if got := string(DigestForm(v)); got != `{"a":{"b":[1,{"c":2}]}}` {
		t.Errorf("changing a clone changed the original: %s", got)
	}
}

func TestResolve(t *testing.T) {
	v, _ := Decode([]byte(`{"a/b": {"m~n": [10, 20]}, "": 1}`))
	for ptr, want := range map[string]string{
		"":              `{"":1,"a/b":{"m~n":[10,20]}}`,
		"/a~1b/m~0n/1":  `20`,
		"/":             `1`,
		"/a~1b/m~0n":    `[10,20]`,
		"/a~1b/m~0n/01": ``,
		"/a~1b/m~0n/2":  ``,
		"/x":            ``,
		"a":             ``,
	} {
		got, ok := Resolve(v, ptr)
		if want == "" {
			if ok {
				t.Errorf("Resolve(%q) resolved to %s", ptr, DigestForm(got))
			}
			continue
		}
		if !ok || string(DigestForm(got)) != want {
			t.Errorf("Resolve(%q) = %v, %v; want %s", ptr, got, ok, want)
		}
	}
}

func decodeFile(t *testing.T, path string) Value {
	t.Helper()
	v, err := Decode(readFile(t, path))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestTypeName(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{nil, "nothing"}, {Null{}, "null"}, {Bool(true), "a boolean"}, {Number("2"), "an integer"},
		{Number("2.0"), "a number"}, {String("x"), "a string"}, {Array{}, "an array"}, {NewObject(), "an object"},
	} {
		if got := TypeName(tc.v); got != tc.want {
			t.Errorf("TypeName(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestEncodeNilObject(t *testing.T) {
	var o *Object
	if got := string(Encode(Array{o, nil})); got != "[\n  null,\n  null\n]\n" {
		t.Errorf("Encode = %q", got)
	}
	if got := string(DigestForm(Array{o})); got != "[null]" {
		t.Errorf("DigestForm = %q", got)
	}
}

// benchDocument is a contract-like document of 200 records: strings,
// integers, simple decimals, nested objects and lists (about 110 KB).
func benchDocument() []byte {
	var b strings.Builder
	b.WriteString(`{"records": [`)
	for i := range 200 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": "record-%d", "label": "Synthetic record %d — 合成", "size": %d, "ratio": 0.%d5,
			"schema": {"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}, "b": {"type": "integer", "minimum": 0}}, "required": ["a"]},
			"refs": ["ev-one", "ev-two", "ev-three"], "flags": {"ready": true, "blocked": false, "note": null}}`, i, i, i*37, i%10)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func BenchmarkDecode(b *testing.B) {
	data := benchDocument()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	v, err := Decode(benchDocument())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Encode(v)
	}
}

func BenchmarkDigest(b *testing.B) {
	v, err := Decode(benchDocument())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Digest(v)
	}
}

func TestEncodeSorted(t *testing.T) {
	v, err := Decode([]byte(`{"b": [{"z": 1, "a": null}], "a": {}, "é": true, "Z": "x"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"Z\": \"x\",\n  \"a\": {},\n  \"b\": [\n    {\n      \"a\": null,\n      \"z\": 1\n    }\n  ],\n  \"é\": true\n}\n"
	if got := string(EncodeSorted(v)); got != want {
		t.Errorf("EncodeSorted =\n%s\nwant\n%s", got, want)
	}
	// The member order of v itself is left alone.
	if got := v.(*Object).Keys(); got[0] != "b" {
		t.Errorf("EncodeSorted reordered its input: %q", got)
	}
}
