package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, with\ttab", "plain text, with\ttab"},
		{"ünïcödé 漢字 ✓", "ünïcödé 漢字 ✓"},
		{"\x1b[1A\x1b[2Kpassed", `\x1b[1A\x1b[2Kpassed`},
		{"line\nforged", `line\nforged`},
		{"over\rwrite", `over\rwrite`},
		{"bell\x07del\x7f", `bell\x07del\x7f`},
		{"c1 \u009b31m", `c1 \u009b31m`},
		{"rtl \u202egnp.exe", `rtl \u202egnp.exe`},
		{"isolate \u2066x\u2069", `isolate \u2066x\u2069`},
		{"sep\u2028x", `sep\u2028x`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := EscapeLines("a\x1b\nb"); got != "a\\x1b\nb" {
		t.Errorf("EscapeLines = %q", got)
	}
}

// A finding whose file name, message and detail hold escape sequences
// prints as one line (plus indented detail lines) with nothing a terminal
// would act on; the JSON report keeps the exact text.
func TestReportEscapesWhatCameFromThePackage(t *testing.T) {
	hostile := "x.mjs\x1b[1A\x1b[2K\rpkg: passed"
	var l List
	l.Add(Diagnostic{Rule: "JS_SYNTAX", Severity: Error, File: hostile, Line: 1, Message: "bad\nline",
		Detail: "stderr:\n\x1b[31mred\x1b[0m\r\n"})
	r := &Report{Command: "validate", Status: StatusFailed, List: &l, Line: "pkg\x1b[2K: failed"}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	if strings.ContainsAny(out, "\x1b\r") {
		t.Fatalf("control characters reach the terminal:\n%q", out)
	}
	want := "x.mjs\\x1b[1A\\x1b[2K\\rpkg: passed:1: error: bad\\nline [JS_SYNTAX]\n" +
		"    | stderr:\n" +
		"    | \\x1b[31mred\\x1b[0m\\r\n" +
		"pkg\\x1b[2K: failed\n"
	if out != want {
		t.Errorf("text:\n%q\nwant\n%q", out, want)
	}

	var js bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Diagnostics []struct{ File, Message string }
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if d := doc.Diagnostics[0]; d.File != hostile || d.Message != "bad\nline" {
		t.Errorf("JSON changed the text: %q %q", d.File, d.Message)
	}
}

func TestEscapingWriterKeepsSplitCharacters(t *testing.T) {
	var b bytes.Buffer
	w := EscapingWriter(&b)
	msg := []byte("résumé \u202e ok\n")
	for i := range msg {
		w.Write(msg[i : i+1]) // one byte at a time
	}
	if got := b.String(); got != "résumé \\u202e ok\n" {
		t.Errorf("got %q", got)
	}
}
