//go:build unix

package testnode

import (
	"syscall"
	"testing"
)

// ReportCPU starts counting the CPU time of the benchmark process and of
// every child it waits for (node, npm and the sandbox's supervisors, with
// their own children); the function it returns reports it per operation.
// Unlike the wall time, it does not grow when the machine is busy with
// something else:
//
//	defer testnode.ReportCPU(b)()
func ReportCPU(b *testing.B) func() {
	start := cpuSeconds()
	return func() {
		if b.N > 0 {
			b.ReportMetric((cpuSeconds()-start)*1000/float64(b.N), "cpu-ms/op")
		}
	}
}

func cpuSeconds() float64 {
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	s := func(tv syscall.Timeval) float64 { return float64(tv.Sec) + float64(tv.Usec)/1e6 }
	return s(self.Utime) + s(self.Stime) + s(children.Utime) + s(children.Stime)
}
