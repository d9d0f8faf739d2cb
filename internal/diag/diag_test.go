package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var (
	testErr  = Register("TEST_DIAG_ERROR", Error, "a test error")
	testWarn = Register("TEST_DIAG_WARNING", Warning, "a test warning")
)

func TestRegisterRejectsBadRules(t *testing.T) {
	for _, tc := range []struct{ id, purpose string }{
		{"lowercase_id", "x"},
		{"NOPREFIX", "x"},
		{"TEST_DIAG_ERROR", "duplicate"},
		{"TEST_DIAG_EMPTY", " "},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%q, %q) did not panic", tc.id, tc.purpose)
				}
			}()
			Register(tc.id, Error, tc.purpose)
		}()
	}
}

func TestSortedDeduplicatesAndOrders(t *testing.T) {
	var l List
	l.Add(
		testWarn.New("b.json", "second").AtPointer("/x"),
		testErr.New("a.md", "late").At(9, 1),
		testErr.New("a.md", "early").At(2, 5),
		testErr.New("a.md", "early").At(2, 5),
		testErr.New("", "package-wide"),
	)
	var got []string
	for _, d := range l.Sorted() {
		got = append(got, d.String())
	}
	want := []string{
		"error: package-wide [TEST_DIAG_ERROR]",
		"a.md:2:5: error: early [TEST_DIAG_ERROR]",
		"a.md:9:1: error: late [TEST_DIAG_ERROR]",
		"b.json#/x: warning: second [TEST_DIAG_WARNING]",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if e, w := l.Counts(); e != 4 || w != 1 {
		t.Errorf("Counts = %d, %d", e, w)
	}
	if !l.Has(testWarn) || !l.HasErrors() {
		t.Error("Has/HasErrors wrong")
	}
	if diff := cmp.Diff([]string{"TEST_DIAG_ERROR", "TEST_DIAG_WARNING"}, l.RuleIDs()); diff != "" {
		t.Errorf("RuleIDs (-want +got)\n%s", diff)
	}
	if ids := (&List{}).RuleIDs(); ids != nil {
		t.Errorf("RuleIDs of an empty list = %v, want nil", ids)
	}
}

func TestPointer(t *testing.T) {
	p := Pointer("capabilities", 3, "a/b", "c~d")
	if p != "/capabilities/3/a~1b/c~0d" {
		t.Fatalf("Pointer = %q", p)
	}
	if diff := cmp.Diff([]string{"capabilities", "3", "a/b", "c~d"}, SplitPointer(p)); diff != "" {
		t.Error(diff)
	}
	if SplitPointer("") != nil {
		t.Error("empty pointer has tokens")
	}
}

func TestJSONReportShape(t *testing.T) {
	var l List
	l.Add(testErr.New("package.json", "bad <type>").AtPointer("/type"))
	r := &Report{Command: "validate", Status: StatusFailed, List: &l}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `\u003c`) {
		t.Error("JSON report escapes HTML characters")
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"schemaVersion": 1.0,
		"command":       "validate",
		"status":        "failed",
		"diagnostics": []any{map[string]any{
			"rule": "TEST_DIAG_ERROR", "severity": "error", "message": "bad <type>",
			"file": "package.json", "pointer": "/type",
		}},
		"summary": map[string]any{"errors": 1.0, "warnings": 0.0},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}

	empty := &Report{Command: "validate", Status: StatusPassed}
	b.Reset()
	empty.WriteJSON(&b)
	if !strings.Contains(b.String(), `"diagnostics": []`) {
		t.Errorf("empty report does not print []: %s", b.String())
	}
}
