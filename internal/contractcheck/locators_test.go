package contractcheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/diag"
)

// entryFile is the file of the reference's first evidence entry,
// features/sample-request/entry#submitIntent, under a source tree.
const entryFile = "sources/client/features/sample-request/entry"

// symbolCheck writes the first evidence entry's file with content, points
// the entry at locator and checks with the sources mapped.
func symbolCheck(t *testing.T, content, locator string) *diag.List {
	t.Helper()
	base := sourceTree(t)
	if err := os.WriteFile(filepath.Join(base, filepath.FromSlash(entryFile)), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return check(t, cc, contractcheck.Options{Sources: mapAll(t, base)},
		contracttest.Set("/evidenceCatalog/0/locator", `"`+locator+`"`))
}

const entrySource = "// The entry.\n\n\nfunction submitIntent(form) {\n  return send(form);\n}\n"

// A line hint inside the symbol's declaration holds; no hint is fine too.
func TestSymbolWhereItsLocatorSays(t *testing.T) {
	for _, locator := range []string{"features/sample-request/entry:4#submitIntent", "features/sample-request/entry:5#submitIntent", "features/sample-request/entry#submitIntent"} {
		if l := symbolCheck(t, entrySource, locator); l.Len() != 0 {
			t.Errorf("%s:\n%s", locator, contracttest.Findings(l))
		}
	}
}

// A line hint outside the declaration is a warning naming the new line.
func TestSymbolMoved(t *testing.T) {
	l := symbolCheck(t, entrySource, "features/sample-request/entry:1#submitIntent")
	if !has(l, "EVIDENCE_SYMBOL_MOVED", cc, "/evidenceCatalog/0/locator") || l.HasErrors() {
		t.Fatalf("want one EVIDENCE_SYMBOL_MOVED warning:\n%s", contracttest.Findings(l))
	}
	msg := l.Sorted()[0].Message
	for _, want := range []string{"lines 4-6", `"features/sample-request/entry:4#submitIntent"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %s", msg, want)
		}
	}
}

// A line beyond the file's end is an error, with or without a symbol; the
// file's last line is not beyond it.
func TestLineBeyondFile(t *testing.T) {
	for _, locator := range []string{"features/sample-request/entry:9999#submitIntent", "features/sample-request/entry:7", "features/sample-request/entry:9999"} {
		l := symbolCheck(t, entrySource, locator)
		if !has(l, "EVIDENCE_LINE_BEYOND_FILE", cc, "/evidenceCatalog/0/locator") {
			t.Errorf("%s: want EVIDENCE_LINE_BEYOND_FILE:\n%s", locator, contracttest.Findings(l))
		}
	}
	for _, locator := range []string{"features/sample-request/entry:6", "features/sample-request/entry:6#submitIntent"} {
		if l := symbolCheck(t, entrySource, locator); has(l, "EVIDENCE_LINE_BEYOND_FILE", cc, "/evidenceCatalog/0/locator") {
			t.Errorf("%s: the last line is in the file:\n%s", locator, contracttest.Findings(l))
		}
	}
}

// A symbol the file no longer declares is an error.
func TestSymbolVanished(t *testing.T) {
	l := symbolCheck(t, "function submitForm(form) {\n  return send(form);\n}\n", "features/sample-request/entry:4#submitIntent")
	if !has(l, "EVIDENCE_SYMBOL_VANISHED", cc, "/evidenceCatalog/0/locator") {
		t.Errorf("want EVIDENCE_SYMBOL_VANISHED:\n%s", contracttest.Findings(l))
	}
	// In Go a referenced but undeclared name is gone too.
	base := sourceTree(t)
	if err := os.WriteFile(filepath.Join(base, "sources/client/features/sample-request/entry.go"), []byte("package entry\n\nfunc other() { submitIntent() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l = check(t, cc, contractcheck.Options{Sources: mapAll(t, base)},
		contracttest.Set("/evidenceCatalog/0/locator", `"features/sample-request/entry.go#submitIntent"`))
	if !has(l, "EVIDENCE_SYMBOL_VANISHED", cc, "/evidenceCatalog/0/locator") {
		t.Errorf("want EVIDENCE_SYMBOL_VANISHED for Go:\n%s", contracttest.Findings(l))
	}
}

// A symbol that only occurs, undeclared as far as can be seen, leaves its
// line hint unchecked, and says so.
func TestSymbolNotLocated(t *testing.T) {
	l := symbolCheck(t, "import { submitIntent } from './x';\nrun(submitIntent);\n", "features/sample-request/entry:2#submitIntent")
	if !has(l, "EVIDENCE_SYMBOL_NOT_LOCATED", cc, "/evidenceCatalog/0/locator") || l.HasErrors() {
		t.Errorf("want only EVIDENCE_SYMBOL_NOT_LOCATED:\n%s", contracttest.Findings(l))
	}
	// A localisation rationale is no symbol and is not looked up.
	if l := symbolCheck(t, "x\ny\n", "features/sample-request/entry:2#the submit button handler"); l.Len() != 0 {
		t.Errorf("a rationale was looked up:\n%s", contracttest.Findings(l))
	}
}
