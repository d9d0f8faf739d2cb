package cli

import (
	"context"
	"io"
	"os"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/testtier"
)

// A signal ends the command with ExitFailure: at once when it honours its
// context, after the grace period when it is blocked somewhere that does
// not (a read of a FIFO, say), and never with the code it would have
// returned.
func TestUntilSignalled(t *testing.T) {
	var stops, removals atomic.Int32
	stopped := make(chan struct{}, 2)
	savedStop, savedRemove := stopChildren, removeScratch
	stopChildren, removeScratch = func() { stops.Add(1); stopped <- struct{}{} }, func() { removals.Add(1) }
	defer func() { stopChildren, removeScratch = savedStop, savedRemove }()
	// The grace a blocked command gets is the wait that ends it; a signalled
	// command must end soon after.
	grace, prompt := testtier.Scaled(200*time.Millisecond), testtier.Scaled(5*time.Second)
	for _, tc := range []struct {
		name string
		run  func(context.Context) int
		max  time.Duration
	}{
		{"honours its context", func(ctx context.Context) int { <-ctx.Done(); return ExitPassed }, prompt},
		{"blocked", func(context.Context) int { select {} }, prompt},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sigs := make(chan os.Signal, 1)
			sigs <- syscall.SIGTERM
			began := time.Now()
			code := untilSignalled(sigs, io.Discard, grace, tc.run)
			if code != ExitFailure {
				t.Errorf("exit %d, want %d", code, ExitFailure)
			}
			if d := time.Since(began); d > tc.max {
				t.Errorf("took %s", d)
			}
		})
	}
	// Every interrupted command stopped its children and removed what it
	// left.
	for range 2 { // a blocked command's children are stopped in the background
		select {
		case <-stopped:
		case <-time.After(testtier.Budget(t)):
			t.Fatal("an interrupted command's children were never stopped")
		}
	}
	if stops.Load() != 2 || removals.Load() != 2 {
		t.Errorf("children stopped %d times, scratch removed %d times; want 2 each", stops.Load(), removals.Load())
	}
	// Without a signal the command's own code stands.
	if code := untilSignalled(make(chan os.Signal), io.Discard, grace, func(context.Context) int { return ExitFindings }); code != ExitFindings {
		t.Errorf("exit %d, want %d", code, ExitFindings)
	}
}
