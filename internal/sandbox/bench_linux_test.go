package sandbox

import (
	"context"
	"testing"
)

// BenchmarkRun measures what the sandbox adds to starting a process: the
// supervisor's re-execution and, when confined, building the child's root.
// "true" itself costs next to nothing; node's own start-up is ~40 ms.
func BenchmarkRun(b *testing.B) {
	for _, m := range modes() {
		b.Run(m.name, func(b *testing.B) {
			levelMu.Lock()
			saved := levelChosen
			levelChosen = m.index
			levelMu.Unlock()
			defer func() {
				levelMu.Lock()
				levelChosen = saved
				levelMu.Unlock()
			}()
			dir := b.TempDir()
			b.ReportAllocs()
			for b.Loop() {
				res, err := Run(context.Background(), []string{"true"}, Options{Dir: dir})
				if err != nil || res.ExitCode != 0 {
					b.Fatalf("%v %+v", err, res)
				}
			}
		})
	}
}
