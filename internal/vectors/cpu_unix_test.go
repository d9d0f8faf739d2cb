//go:build unix

package vectors

import (
	"syscall"
	"testing"
	"time"
)

// Whose CPU time cpu reads.
const (
	self     = syscall.RUSAGE_SELF
	children = syscall.RUSAGE_CHILDREN // waited-for child processes
)

// cpu returns the CPU time (user and system) used so far by this process or
// by its waited-for children. On a machine shared with other work, CPU time
// says what the work costs where wall time says how long it waited.
func cpu(b *testing.B, who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
