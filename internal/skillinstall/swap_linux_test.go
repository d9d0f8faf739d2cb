package skillinstall

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/atomicfile"
)

// Only Linux exchanges directories in one step (renameat2); elsewhere a
// reinstall briefly removes the Skill, so the guarantee is tested here.

// TestReinstallIsAtomic reads a Skill while it is reinstalled, alternating
// two versions: every read must find one whole version.
func TestReinstallIsAtomic(t *testing.T) {
	versions := [2][]Skill{
		{{Name: "x", Files: []atomicfile.File{{Path: "SKILL.md", Data: bytes.Repeat([]byte("a"), 64<<10)}}}},
		{{Name: "x", Files: []atomicfile.File{{Path: "SKILL.md", Data: bytes.Repeat([]byte("b"), 32<<10)}}}},
	}
	dir := t.TempDir()
	if err := Install(dir, versions[0]); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var bad atomic.Value
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			b, err := os.ReadFile(filepath.Join(dir, "x", "SKILL.md"))
			if err != nil {
				bad.Store(err.Error())
				return
			}
			if !bytes.Equal(b, versions[0][0].Files[0].Data) && !bytes.Equal(b, versions[1][0].Files[0].Data) {
				bad.Store("read a mixture of versions")
				return
			}
		}
	}()
	deadline := time.Now().Add(300 * time.Millisecond)
	for i := 0; time.Now().Before(deadline); i++ {
		if err := Install(dir, versions[i%2]); err != nil {
			t.Fatal(err)
		}
	}
	stop.Store(true)
	wg.Wait()
	if msg := bad.Load(); msg != nil {
		t.Fatalf("a reader saw an incomplete install: %v", msg)
	}
	assertNoTemporaries(t, dir)
}
