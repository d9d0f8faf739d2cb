//go:build unix

package strict_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/code2skill/code2skill/internal/strict"
)

// A FIFO where a document should be is never opened (reading it could
// block forever), and a document larger than code2skill reads is a finding.
func TestHostileDocuments(t *testing.T) {
	dir := referencePackage(t)
	skill := filepath.Join(dir, "SKILL.md")
	if err := os.Remove(skill); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(skill, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	res := validate(t, dir, true)
	wantFindings(t, res, "STRICT_FILE_MISSING SKILL.md")
	if d := res.Diagnostics.Sorted()[0]; !strings.Contains(d.Message, "not a regular file") {
		t.Errorf("message %q does not say the file is not a regular file", d.Message)
	}

	if err := os.Remove(skill); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "SKILL.md", strings.Repeat("样", 2<<20)) // 6 MiB
	res = validate(t, dir, true)
	wantFindings(t, res, "PKG_INPUT_TOO_LARGE SKILL.md")
	wantStage(t, res, strict.StageDocuments, strict.Failed)
}
