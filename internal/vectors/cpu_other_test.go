//go:build !unix

package vectors

import (
	"testing"
	"time"
)

const (
	self     = 0
	children = 1
)

// cpu reports no CPU time where getrusage does not exist; the benchmarks'
// CPU metrics then read 0.
func cpu(b *testing.B, who int) time.Duration { return 0 }
