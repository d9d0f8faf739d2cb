package pkgdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/testtier"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "contract.json")
	if err := os.WriteFile(file, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(file, 0); err != nil || string(b) != `{"a":1}` {
		t.Fatalf("regular file: %q, %v", b, err)
	}
	if _, err := ReadFile(file, 3); !errors.Is(err, ErrTooLarge) {
		t.Errorf("7 bytes with a limit of 3: %v, want ErrTooLarge", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "absent.json"), 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent file: %v, want ErrNotExist", err)
	}
	if _, err := ReadFile(dir, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v, want ErrNotRegular", err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("symbolic link: %v, want ErrNotRegular", err)
	}
	if _, err := ReadFile("/dev/zero", 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("/dev/zero: %v, want ErrNotRegular", err)
	}
}

// A FIFO without a writer must be refused at once, not block the reader.
func TestReadFileFIFODoesNotBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "canonical-contract.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(fifo, 0); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("FIFO: %v, want ErrNotRegular naming a FIFO", err)
		}
	case <-time.After(testtier.Budget(t)):
		t.Fatal("ReadFile blocked on a FIFO")
	}
}

func TestReadFinding(t *testing.T) {
	for _, tc := range []struct {
		err  error
		rule string
		ok   bool
	}{
		{ErrNotRegular, RuleInputNotRegular.ID, true},
		{ErrTooLarge, RuleInputTooLarge.ID, true},
		{fs.ErrPermission, "", false},
	} {
		d, ok := ReadFinding("canonical-contract.json", tc.err)
		if ok != tc.ok || d.Rule != tc.rule {
			t.Errorf("ReadFinding(%v) = %q, %v; want %q, %v", tc.err, d.Rule, ok, tc.rule, tc.ok)
		}
	}
}
