package cli

import (
	"context"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// A signal ends the command with ExitFailure: at once when it honours its
// context, after the grace period when it is blocked somewhere that does
// not (a read of a FIFO, say), and never with the code it would have
// returned.
func TestUntilSignalled(t *testing.T) {
	for _, tc := range []struct {
		name string
		run  func(context.Context) int
		max  time.Duration
	}{
		{"honours its context", func(ctx context.Context) int { <-ctx.Done(); return ExitPassed }, 5 * time.Second},
		{"blocked", func(context.Context) int { select {} }, 5 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sigs := make(chan os.Signal, 1)
			sigs <- syscall.SIGTERM
			began := time.Now()
			code := untilSignalled(sigs, io.Discard, 200*time.Millisecond, tc.run)
			if code != ExitFailure {
				t.Errorf("exit %d, want %d", code, ExitFailure)
			}
			if d := time.Since(began); d > tc.max {
				t.Errorf("took %s", d)
			}
		})
	}
	// Without a signal the command's own code stands.
	if code := untilSignalled(make(chan os.Signal), io.Discard, time.Second, func(context.Context) int { return ExitFindings }); code != ExitFindings {
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}
}
