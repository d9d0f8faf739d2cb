package testtier

import (
	"sync"
	"testing"
)

// Shared is a costly fixture the tests of one test binary share, so that
// the suite does each costly thing (a probe, a verification, a run of
// node) once: the first test that asks builds it, with its own t; the
// others reuse what it made. A build that failed or skipped fails or skips
// every test that asks after it, naming the test that made it.
//
// What build writes under its test's TempDir is removed when that test
// ends: share what a run returned, not the files it ran on.
type Shared[T any] struct {
	once    sync.Once
	v       T
	made    bool
	by      string
	skipped bool
}

// Get returns the fixture, building it with build and t when no test has.
func (s *Shared[T]) Get(t testing.TB, build func(testing.TB) T) T {
	t.Helper()
	s.once.Do(func() {
		s.by = t.Name()
		failed := t.Failed()
		// build may end the goroutine (t.Fatal, t.Skip): record how it
		// ended all the same.
		defer func() { s.skipped = t.Skipped() && !t.Failed() }()
		s.v = build(t)
		s.made = failed || !t.Failed()
	})
	switch {
	case s.made:
		return s.v
	case s.skipped:
		t.Skipf("the shared fixture was skipped in %s", s.by)
	default:
		t.Fatalf("the shared fixture failed in %s", s.by)
	}
	return s.v
}
