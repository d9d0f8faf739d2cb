package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pipeline"
	"github.com/code2skill/code2skill/internal/probe"
)

// TestPipelineTablesEndWithoutPadding: a table whose last column is empty
// on a row leaves no spaces at the end of that row's line.
func TestPipelineTablesEndWithoutPadding(t *testing.T) {
	rep := &pipeline.Report{
		Stages: []pipeline.StageReport{
			{Name: "analyze", Status: "completed", LastAction: "executed", DurationMs: 6},
			{Name: "verify", Status: "failed", LastAction: "executed", DurationMs: 516, ErrorSummary: "offline probe failed"},
		},
		Capabilities: []pipeline.RowReport{
			{ID: "quote", Generated: "yes", BehaviorVerified: "yes", RuntimeVerified: "no", HostVerified: "no"},
			{ID: "redeem", Generated: "yes", BehaviorVerified: "failed", RuntimeVerified: "no", HostVerified: "no", Note: "behaviour failed"},
		},
	}
	var b bytes.Buffer
	writePipelineTables(&b, rep)
	out := b.String()
	for i, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, " ") {
			t.Errorf("line %d ends with spaces: %q", i+1, line)
		}
	}
	for _, want := range []string{
		"analyze  completed  executed     6ms\n",
		"verify   failed     executed     516ms     offline probe failed\n",
		"quote       yes        yes                 no                no\n",
		"redeem      yes        failed              no                no             behaviour failed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the tables lack %q:\n%s", want, out)
		}
	}
}

// The pipeline's offline probe keeps every finding but the probe's notice
// that runtime verification is still required, which the pipeline's own
// rows and next steps state (or refute).
func TestPipelineProbeDropsTheOfflineNotice(t *testing.T) {
	l := &diag.List{}
	l.Add(probe.RuleOffline.New("", "business calls were not run (--offline); runtime verification is still required"),
		probe.RuleTranscriptRedacted.New("", "redacted"))
	got := withoutOfflineNotice(l).RuleIDs()
	if len(got) != 1 || got[0] != probe.RuleTranscriptRedacted.ID {
		t.Errorf("findings %q", got)
	}
}

// TestPipelineHostLine: the summary line says which clients passed how many
// Host-phase checks, and that the host had no elicitation when its Host
// profile says so (TestSlowStrictDemoWithoutElicitation runs such a host).
func TestPipelineHostLine(t *testing.T) {
	rep := &pipeline.Report{
		Stages: []pipeline.StageReport{{Name: pipeline.StageHostVerify, Status: pipeline.StatusCompleted}},
		HostVerify: &pipeline.HostRun{Host: "code2skill reference MCP host", Clients: []string{"code2skill reference MCP host (go-sdk v1.8.0)", "typescript-sdk Client v1.32.2"},
			Checks: 27, Passed: 27},
	}
	const clients = "27 of 27 checks passed by the code2skill reference MCP host (go-sdk v1.8.0) and the typescript-sdk Client v1.32.2"
	if got := hostLine(rep); got != clients+" (no elicitation, as the Host profile says)" {
		t.Errorf("without elicitation: %q", got)
	}
	rep.HostVerify.Elicitation = true
	if got := hostLine(rep); got != clients {
		t.Errorf("with elicitation: %q", got)
	}
}
