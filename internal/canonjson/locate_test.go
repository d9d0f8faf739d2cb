package canonjson

import (
	"errors"
	"testing"
)

func TestLocate(t *testing.T) {
	doc := []byte(`{
  "capabilities": [
    {"capabilityId": "a", "inputs": []},
    {
      "capabilityId": "b",
      "a/b": {"m~n": 1},
      "\u0074oolName": "é-tool", "x": 2
    }
  ],
  "empty": {}
}
`)
	for _, tc := range []struct {
		pointer   string
		line, col int
		found     string
	}{
		{"", 1, 1, ""},
		{"/capabilities", 2, 3, "/capabilities"},
		{"/capabilities/0", 3, 5, "/capabilities/0"},
		{"/capabilities/0/inputs", 3, 27, "/capabilities/0/inputs"},
		{"/capabilities/1/capabilityId", 5, 7, "/capabilities/1/capabilityId"},
		{"/capabilities/1/a~1b/m~0n", 6, 15, "/capabilities/1/a~1b/m~0n"},
		// An escaped key matches its text; columns count bytes.
		{"/capabilities/1/toolName", 7, 7, "/capabilities/1/toolName"},
		{"/capabilities/1/x", 7, 35, "/capabilities/1/x"},
		// What the document lacks is located at the deepest value found.
		{"/capabilities/1/inputs/0", 4, 5, "/capabilities/1"},
		{"/capabilities/2", 2, 3, "/capabilities"},
		{"/capabilities/01", 2, 3, "/capabilities"},
		{"/capabilities/-", 2, 3, "/capabilities"},
		{"/empty/x", 10, 3, "/empty"},
		{"/capabilities/1/x/deeper", 7, 35, "/capabilities/1/x"},
		{"/nothing", 1, 1, ""},
	} {
		p, err := Locate(doc, tc.pointer)
		if err != nil {
			t.Errorf("Locate(%q): %v", tc.pointer, err)
			continue
		}
		if p.Line != tc.line || p.Column != tc.col || p.Found != tc.found {
			t.Errorf("Locate(%q) = %d:%d %q, want %d:%d %q", tc.pointer, p.Line, p.Column, p.Found, tc.line, tc.col, tc.found)
		}
		if want := offsetOf(doc, tc.line, tc.col); p.Offset != want {
			t.Errorf("Locate(%q).Offset = %d, want %d", tc.pointer, p.Offset, want)
		}
	}
}

func TestLocateErrors(t *testing.T) {
	var syntax *SyntaxError
	// Broken JSON before the value is an error with its place.
	if _, err := Locate([]byte(`{"a": [1, 2,, 3], "b": 1}`), "/b"); !errors.As(err, &syntax) || syntax.Column != 13 {
		t.Errorf("broken array: %v", err)
	}
	// A value before the break is still located; one the document may
	// hold after it is not.
	if p, err := Locate([]byte(`{"a": 1, "b": [`), "/a"); err == nil || p.Column != 2 || p.Found != "/a" {
		t.Errorf("value before a break: %v %+v", err, p)
	}
	if p, err := Locate([]byte(`{"a": 1, "b": [`), "/c"); err == nil || p.Line != 0 {
		t.Errorf("value after a break: %v %+v", err, p)
	}
	if _, err := Locate([]byte("\xef\xbb\xbf{}"), ""); !errors.As(err, &syntax) {
		t.Errorf("byte-order mark: %v", err)
	}
	if _, err := Locate([]byte(`{}`), "a"); err == nil {
		t.Error("a pointer without a leading / is accepted")
	}
}

// offsetOf returns the byte offset of a 1-based line and byte column.
func offsetOf(data []byte, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		for data[off] != '\n' {
			off++
		}
		off++
	}
	return off + col - 1
}

// LocateAll finds every pointer in one pass, as Locate finds each.
func TestLocateAll(t *testing.T) {
	doc := []byte("{\n  \"a\": [1, {\"b\": 2}],\n  \"c~d\": {\"e/f\": 3}\n}\n")
	pointers := []string{"/a/1/b", "/c~0d/e~1f", "/a/5", "", "/zz"}
	all, err := LocateAll(doc, pointers)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pointers {
		one, err := Locate(doc, p)
		if err != nil || one != all[p] {
			t.Errorf("%q: LocateAll %+v, Locate %+v (%v)", p, all[p], one, err)
		}
	}
	if got := all["/c~0d/e~1f"]; got.Line != 3 || got.Column != 11 {
		t.Errorf("/c~0d/e~1f at %d:%d", got.Line, got.Column)
	}
}
