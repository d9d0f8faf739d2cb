package hostverify

import (
	"context"
	"testing"

	"github.com/code2skill/code2skill/internal/testnode"
)

// BenchmarkStrictSample measures host verification of the strict sample
// under its elicitation profile, against its desk: every Host-phase check,
// each write called for real. It reports the node processes it starts (one
// per MCP session the checks need: two for the sample) and the checks it
// runs; its time is mostly node's start-up and the calls.
func BenchmarkStrictSample(b *testing.B) {
	opts, _ := samplePackage(b, "")
	opts.Progress = nil
	cpu := testnode.ReportCPU(b)
	nodes, checks := 0, 0
	for b.Loop() {
		res, err := Run(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range res.Checks {
			if !c.Passed {
				b.Fatalf("%s%s %s: %s %s", c.CapabilityID, c.WorkflowID, c.CheckID, c.Detail, c.Skipped)
			}
		}
		nodes += res.NodeProcesses
		checks += len(res.Checks)
	}
	cpu()
	b.ReportMetric(float64(nodes)/float64(b.N), "nodeProcesses/op")
	b.ReportMetric(float64(checks)/float64(b.N), "checks/op")
}
