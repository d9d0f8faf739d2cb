package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type unmarshalled struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func TestUnmarshal(t *testing.T) {
	var v unmarshalled
	if err := Unmarshal([]byte(`{"name": "a", "count": 2, "extra": true}`), &v); err != nil || v != (unmarshalled{"a", 2}) {
		t.Errorf("Unmarshal = %+v, %v; want {a 2}, nil (unknown members ignored)", v, err)
	}
	err := Unmarshal([]byte("{\n  \"name\": \"a\",\n  \"count\": 2,,\n}"), &v)
	var se *SyntaxError
	if !errors.As(err, &se) || se.Line != 3 || se.Column != 14 {
		t.Errorf("Unmarshal of broken JSON: err = %v, want a *SyntaxError at 3:14, the second comma", err)
	}
	var typeErr *json.UnmarshalTypeError
	if err := Unmarshal([]byte(`{"count": "two"}`), &v); !errors.As(err, &typeErr) {
		t.Errorf("Unmarshal of a mistyped member: err = %v, want encoding/json's type error", err)
	}
}

func TestUnmarshalStrict(t *testing.T) {
	var v unmarshalled
	if err := UnmarshalStrict([]byte(`{"name": "a", "count": 2}`), &v); err != nil || v != (unmarshalled{"a", 2}) {
		t.Errorf("UnmarshalStrict = %+v, %v; want {a 2}, nil", v, err)
	}
	for name, doc := range map[string]string{
		"unknown member":    `{"name": "a", "other": 1}`,
		"repeated key":      `{"name": "a", "name": "b"}`,
		"byte-order mark":   "\xef\xbb\xbf{}",
		"invalid UTF-8":     "{\"name\": \"\xff\"}",
		"trailing document": `{} {}`,
	} {
		if err := UnmarshalStrict([]byte(doc), &v); err == nil {
			t.Errorf("UnmarshalStrict accepts a document with a %s", name)
		}
		if name != "unknown member" && name != "trailing document" && name != "byte-order mark" {
			if err := Unmarshal([]byte(doc), &v); err != nil {
				t.Errorf("Unmarshal refuses a document with a %s, as encoding/json accepts it: %v", name, err)
			}
		}
	}
}

func TestUnmarshalFirst(t *testing.T) {
	var v unmarshalled
	if err := UnmarshalFirst([]byte(`{"name": "a"}, {"name": "b"}]}`), &v); err != nil || v.Name != "a" {
		t.Errorf("UnmarshalFirst = %+v, %v; want the first value", v, err)
	}
	if err := UnmarshalFirst([]byte(` `), &v); err == nil {
		t.Error("UnmarshalFirst of no value: no error")
	}
}

// Compact is what encoding/json's Compact makes of the file form.
func TestCompact(t *testing.T) {
	v := decodeFile(t, "testdata/format/input.json")
	var want bytes.Buffer
	if err := json.Compact(&want, Encode(v)); err != nil {
		t.Fatal(err)
	}
	if got := Compact(v); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("Compact = %s\nwant %s", got, want.Bytes())
	}
	if got := string(Compact(NewObject(Member{"b", Int(1)}, Member{"a", Array{}}))); got != `{"b":1,"a":[]}` || strings.Contains(got, " ") {
		t.Errorf("Compact keeps no order or adds space: %s", got)
	}
}
