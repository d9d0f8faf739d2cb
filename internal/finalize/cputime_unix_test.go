//go:build unix

package finalize_test

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) this process has used. On
// a machine shared with other work, CPU time per operation measures
// code2skill's own work where wall-clock time also measures the queue.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
