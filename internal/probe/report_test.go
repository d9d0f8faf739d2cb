package probe

import (
	"bytes"
	"strings"
	"testing"
)

// Tool names come from the server: the table escapes what a terminal would
// act on, and a tab that would shift the columns.
func TestWriteTableEscapesToolNames(t *testing.T) {
	r := &Result{Tools: []*ToolStatus{
		{Name: "list\x1b[2K\rsample\tnotes", Discovery: Passed, Success: NotRun, Error: NotRun, DryRun: NotRun},
	}}
	var b bytes.Buffer
	if err := r.WriteTable(&b); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\r") {
		t.Fatalf("control characters in the table: %q", b.String())
	}
	if !strings.Contains(b.String(), `list\x1b[2K\rsample\tnotes  passed`) {
		t.Errorf("table:\n%s", b.String())
	}
}
