package hostverify

import (
	"context"
	"testing"

	"github.com/code2skill/code2skill/internal/testnode"
)

// BenchmarkStrictSample measures host verification of the strict sample
// under its elicitation profile, against its desk: every Host-phase check,
// each write called for real (every-row), and re-verifications after a
// change (one-read: the list alone; the-writes: the loan and its return,
// whose case passes on the loan, with their workflows, and not the list),
// through both clients (both) and, as the baseline, through the reference
// host's own client alone (go-only). It reports the node processes it
// starts (a server per MCP session the checks need and per client, and the
// TypeScript SDK Client's own: five for the sample, three for a read; two
// and one for the baseline) and the checks it runs; its time is mostly
// node's start-up and the calls.
func BenchmarkStrictSample(b *testing.B) {
	scopes := []struct {
		name  string
		scope *Scope
	}{
		{"every-row", nil},
		{"one-read", &Scope{Capabilities: map[string]bool{"list-lendable-equipment": true}}},
		{"the-writes", &Scope{Capabilities: map[string]bool{"create-equipment-loan": true, "return-equipment-loan": true}}},
	}
	for _, sc := range scopes {
		for _, referenceOnly := range []bool{false, true} {
			b.Run(sc.name+"/"+map[bool]string{false: "both", true: "go-only"}[referenceOnly], func(b *testing.B) {
				opts, _ := samplePackage(b, "")
				opts.Progress = nil
				if s := sc.scope; s != nil && len(s.Capabilities) > 1 {
					s.Workflows = map[string]bool{}
					for _, w := range opts.Inputs.Contract.Workflows {
						s.Workflows[w.ID] = s.Capabilities[w.EntryCapabilityID]
					}
				}
				opts.Scope = sc.scope
				opts.referenceOnly = referenceOnly
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
			})
		}
	}
}
