package testtier

import (
	"context"
	"math"
	"os"
	"strconv"
	"testing"
	"time"
)

// Time limits in tests. A test waits for something in one of two ways:
//
//   - for a step that should finish, as long as the test may run at all:
//     Budget, what is left of the test's deadline (go test -timeout) less a
//     margin to report in. Such a limit stops a test only where go test
//     would have stopped it anyway, so a busy machine makes the test
//     slower, never failed;
//   - for the one step that is meant to hang, or to be stopped, briefly:
//     Scaled, a short wait multiplied by CODE2SKILL_TEST_SCALE (default 1)
//     on a machine too slow even for that. Only that step gets the short
//     limit; the steps before it (starting node, initialize) get Budget.

// ScaleVariable names the environment variable that multiplies every short
// wait of the tests (Scaled): 2 doubles them.
const ScaleVariable = "CODE2SKILL_TEST_SCALE"

// noDeadline is the budget of a test run without a time limit
// (go test -timeout 0) and of a benchmark.
const noDeadline = time.Hour

// Scale is the factor ScaleVariable sets: 1 when unset, and at least 1.
func Scale() float64 {
	f, err := strconv.ParseFloat(os.Getenv(ScaleVariable), 64)
	if err != nil || math.IsNaN(f) || f < 1 {
		return 1
	}
	return min(f, 1000)
}

// Scaled returns d multiplied by Scale: the limit of a step that is meant
// to hang or be stopped, and of a wait that proves something is prompt.
func Scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Scale())
}

// Budget returns how long a step of t may take: the time left until t's
// deadline less a tenth of it (at most 30 s) to report in, never less than
// a second. A test without a deadline, or a benchmark, gets an hour.
func Budget(t testing.TB) time.Duration {
	t.Helper()
	dt, ok := t.(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return noDeadline
	}
	deadline, ok := dt.Deadline()
	if !ok {
		return noDeadline
	}
	left := time.Until(deadline)
	return max(left-min(left/10, 30*time.Second), time.Second)
}

// Context returns a context that ends after Budget(t), and ends when t's
// cleanup runs.
func Context(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), Budget(t))
	t.Cleanup(cancel)
	return ctx
}
