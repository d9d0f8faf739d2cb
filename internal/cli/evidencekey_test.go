package cli

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/sandbox"
)

// TestEvidenceKeyHidden: once a command holds the evidence key, no child
// it starts can read it: the file is covered in the child's view, or,
// where the sandbox cannot cover it, the child is not started and the
// refusal names the key.
func TestEvidenceKeyHidden(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "evidence.key")
	if _, err := (&evidenceKeyFlag{path: path}).load(true); err != nil {
		t.Fatal(err)
	}
	// The key's directory is in the child's view, confined or not.
	res, err := sandbox.Run(context.Background(), []string{"cat", path}, sandbox.Options{Dir: t.TempDir(), Binds: []sandbox.Bind{{Source: dir}}})
	if !sandbox.Mounts(sandbox.DenyNetwork) {
		if !errors.Is(err, sandbox.ErrCannotHide) || !strings.Contains(err.Error(), "evidence key") {
			t.Fatalf("without a mount namespace: %v, want the child refused", err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 || len(res.Stdout) != 0 {
		t.Fatalf("the child read the evidence key: %q", res.Stdout)
	}
}
