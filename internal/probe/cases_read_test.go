package probe

import (
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/testtier"
)

// A case file that is a FIFO or a device is refused at once, with the
// file named, instead of blocking the probe or filling its memory.
func TestReadCasesRefusesWhatIsNotAFile(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "calls.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, file := range []string{fifo, "/dev/zero"} {
		done := make(chan error, 1)
		go func() { _, err := readCases(Success, file); done <- err }()
		select {
		case err := <-done:
			var usage *UsageError
			if !errors.As(err, &usage) || !strings.Contains(usage.Msg, file) || !strings.Contains(usage.Msg, "not a regular file") {
				t.Errorf("%s: %v, want a usage error naming it", file, err)
			}
		case <-time.After(testtier.Budget(t)):
			t.Fatalf("reading %s as a case file blocked", file)
		}
	}
}
