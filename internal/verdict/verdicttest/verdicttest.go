// Package verdicttest builds verification evidence for tests: the reference
// example's inputs, a report in which every phase of every capability and
// workflow passed with every check the contract requires, the evidence files
// its checks hash, and live evidence for every capability (hand-written Tool
// calls and results that satisfy the reference schemas).
//
// Tests start from the green report and break one thing at a time:
//
//	g := verdicttest.NewGreen(t, verdicttest.Inputs(t, verdicttest.FullHost...))
//	g.Phase("capabilities", "save-sample-draft", "behavior").Set("status", canonjson.String("failed"))
package verdicttest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/verdict"
)

// FullHost patches the reference Host profile so that it supports every
// Host capability the contract requires: with it every capability is
// enabled and a fully verified package can be approved.
var FullHost = []contracttest.Op{
	contracttest.Set("/capabilities/trustedConfirmation/status", `"supported"`),
	contracttest.Set("/capabilities/attachmentResolution/status", `"supported"`),
}

// Inputs decodes the reference inputs, the Host profile patched by hostOps.
func Inputs(tb testing.TB, hostOps ...contracttest.Op) *derive.Inputs {
	tb.Helper()
	return PatchedInputs(tb, nil, hostOps)
}

// PatchedInputs decodes the reference inputs, the contract patched by
// contractOps and the Host profile by hostOps. The result must pass
// derive.Check.
func PatchedInputs(tb testing.TB, contractOps, hostOps []contracttest.Op) *derive.Inputs {
	tb.Helper()
	var all diag.List
	in := &derive.Inputs{}
	var l *diag.List
	c := contracttest.Reference(tb, contract.ContractFile)
	if len(contractOps) > 0 {
		c = contracttest.Patch(tb, c, contractOps...)
	}
	in.Contract, l = contract.DecodeContract(contract.ContractFile, c)
	all.Merge(l)
	in.Topology, l = contract.DecodeTopology(contract.TopologyFile, contracttest.Reference(tb, contract.TopologyFile))
	all.Merge(l)
	host := contracttest.Reference(tb, contract.HostProfileFile)
	if len(hostOps) > 0 {
		host = contracttest.Patch(tb, host, hostOps...)
	}
	in.Host, l = contract.DecodeHostProfile(contract.HostProfileFile, host)
	all.Merge(l)
	in.Export, l = contract.DecodeExportProfile(contract.ExportProfileFile, contracttest.Reference(tb, contract.ExportProfileFile))
	all.Merge(l)
	all.Merge(derive.Check(in))
	if all.HasErrors() {
		tb.Fatalf("the reference inputs have findings:\n%s", contracttest.Findings(&all))
	}
	return in
}

// Baseline returns the baseline of the inputs.
func Baseline(tb testing.TB, in *derive.Inputs) *verdict.Baseline {
	tb.Helper()
	return verdict.NewBaseline(in, nil)
}

// Green is a verification report in which everything passed, with what it
// hashes.
type Green struct {
	Report *canonjson.Object
	// EvidenceFiles are the files the report's checks hash, by name.
	EvidenceFiles map[string][]byte
	// Inputs and Results are the live payloads by capability ID, and Live
	// their digests.
	Inputs, Results map[string]canonjson.Value
	Live            map[string]verdict.Live
}

// NewGreen returns the green report of the inputs.
func NewGreen(tb testing.TB, in *derive.Inputs) *Green {
	tb.Helper()
	return NewGreenFrom(tb, Baseline(tb, in))
}

// NewGreenFrom returns the green report of a baseline.
func NewGreenFrom(tb testing.TB, b *verdict.Baseline) *Green {
	tb.Helper()
	g := &Green{EvidenceFiles: map[string][]byte{}, Live: map[string]verdict.Live{}}
	g.Inputs, g.Results = LivePayloads(tb)
	for id, v := range g.Inputs {
		g.Live[id] = verdict.Live{InputHash: canonjson.Digest(v), ResultHash: canonjson.Digest(g.Results[id])}
	}
	global := canonjson.Array{
		g.check("package", "global", "static-validation", "code2skill validate package --pre-finalize", nil),
		g.check("package", "global", "offline-protocol-probe", "code2skill probe package --offline", nil),
		g.check("package", "global", "behavior-vectors", "code2skill vectors package --out verification/vectors", nil),
	}
	caps := canonjson.Array{}
	for _, cb := range b.Capabilities {
		tool := cb.ToolName
		live := g.Live[cb.ID]
		bound := []canonjson.Member{
			{Key: "toolName", Value: canonjson.String(tool)},
			{Key: "inputHash", Value: canonjson.String(live.InputHash)},
			{Key: "resultHash", Value: canonjson.String(live.ResultHash)},
		}
		var behavior, rt, host canonjson.Array
		for _, e := range cb.Expected {
			switch e.Phase {
			case verdict.PhaseBehavior:
				behavior = append(behavior, g.check(cb.ID, e.Phase, e.ID, "code2skill vectors package --out verification/vectors", nil))
			case verdict.PhaseRuntime:
				if e.ID == verdict.AttachmentRuntimeCheck {
					rt = append(rt, attachmentCheck(cb, bound))
					continue
				}
				rt = append(rt, g.check(cb.ID, e.Phase, e.ID, "code2skill pipeline run package --only runtime-verify", bound))
			case verdict.PhaseHost:
				host = append(host, g.check(cb.ID, e.Phase, e.ID, "host acceptance run", nil))
			}
		}
		rt = append(rt, g.check(cb.ID, verdict.PhaseRuntime, "live-tools-call", "code2skill pipeline run package --only runtime-verify", bound))
		host = append(host, g.check(cb.ID, verdict.PhaseHost, "host-profile-acceptance", "host acceptance run", nil))
		caps = append(caps, canonjson.NewObject(
			canonjson.Member{Key: "capabilityId", Value: canonjson.String(cb.ID)},
			canonjson.Member{Key: "behavior", Value: phase(behavior)},
			canonjson.Member{Key: "runtime", Value: phase(rt)},
			canonjson.Member{Key: "host", Value: phase(host)},
		))
	}
	workflows := canonjson.Array{}
	for _, w := range b.Workflows {
		entry := b.Capabilities[w.Entry]
		live := g.Live[entry.ID]
		var bypass, rt, host canonjson.Array
		zero := []canonjson.Member{{Key: "zeroExternalWrites", Value: canonjson.Bool(true)}}
		bound := []canonjson.Member{
			{Key: "toolName", Value: canonjson.String(entry.ToolName)},
			{Key: "inputHash", Value: canonjson.String(live.InputHash)},
			{Key: "resultHash", Value: canonjson.String(live.ResultHash)},
		}
		for _, e := range w.Expected {
			switch e.Phase {
			case verdict.PhaseBypass:
				bypass = append(bypass, g.check("workflow_"+w.ID, e.Phase, e.ID, "code2skill vectors package --out verification/vectors", zero))
			case verdict.PhaseRuntime:
				rt = append(rt, g.check("workflow_"+w.ID, e.Phase, e.ID, "code2skill pipeline run package --only runtime-verify", bound))
			case verdict.PhaseHost:
				host = append(host, g.check("workflow_"+w.ID, e.Phase, e.ID, "host acceptance run", nil))
			}
		}
		rt = append(rt, g.check("workflow_"+w.ID, verdict.PhaseRuntime, "workflow-entry-live-call", "code2skill pipeline run package --only runtime-verify", bound))
		host = append(host, g.check("workflow_"+w.ID, verdict.PhaseHost, "host-profile-acceptance", "host acceptance run", nil))
		workflows = append(workflows, canonjson.NewObject(
			canonjson.Member{Key: "workflowId", Value: canonjson.String(w.ID)},
			canonjson.Member{Key: "bypass", Value: phase(bypass)},
			canonjson.Member{Key: "runtime", Value: phase(rt)},
			canonjson.Member{Key: "host", Value: phase(host)},
		))
	}
	g.Report = canonjson.NewObject(
		canonjson.Member{Key: "schemaVersion", Value: canonjson.String("vNext")},
		canonjson.Member{Key: "contractId", Value: canonjson.String(b.ContractID)},
		canonjson.Member{Key: "status", Value: canonjson.String("passed")},
		canonjson.Member{Key: "checks", Value: global},
		canonjson.Member{Key: "capabilities", Value: caps},
		canonjson.Member{Key: "workflows", Value: workflows},
	)
	return g
}

// check returns a passed check of scope in phase and writes its evidence.
func (g *Green) check(scope, phase, id, command string, extra []canonjson.Member) canonjson.Value {
	name := fmt.Sprintf("%s--%s--%s.log", phase, scope, id)
	log := []byte(fmt.Sprintf("%s %s of %s: passed\n", phase, id, scope))
	g.EvidenceFiles[name] = log
	members := []canonjson.Member{
		{Key: "name", Value: canonjson.String(id)},
		{Key: "checkId", Value: canonjson.String(id)},
	}
	if phase != "global" {
		members = append(members, canonjson.Member{Key: "phase", Value: canonjson.String(phase)})
	}
	members = append(members,
		canonjson.Member{Key: "command", Value: canonjson.String(command)},
		canonjson.Member{Key: "exitCode", Value: canonjson.Int(0)},
		canonjson.Member{Key: "status", Value: canonjson.String("passed")},
		canonjson.Member{Key: "evidenceHash", Value: canonjson.String(canonjson.SHA256(log))},
	)
	return canonjson.NewObject(append(members, extra...)...)
}

// attachmentCheck returns the passed attachment runtime check of a
// Host-approved attachment capability, with one proof per content binding.
// Its evidence is the proof itself: evidenceHash is the trace digest.
func attachmentCheck(cb verdict.CapabilityBase, bound []canonjson.Member) canonjson.Value {
	t := cb.ContentBindings[0]
	proof := canonjson.NewObject(
		canonjson.Member{Key: "resolverCalls", Value: canonjson.Int(1)},
		canonjson.Member{Key: "businessDispatches", Value: canonjson.Int(1)},
		canonjson.Member{Key: "resolutionFailureDispatches", Value: canonjson.Int(0)},
		canonjson.Member{Key: "rawGrantForwarded", Value: canonjson.Bool(false)},
		canonjson.Member{Key: "resolvedContentBound", Value: canonjson.Bool(true)},
		canonjson.Member{Key: "sizeVerified", Value: canonjson.Bool(true)},
		canonjson.Member{Key: "digestVerified", Value: canonjson.Bool(true)},
		canonjson.Member{Key: "stepId", Value: canonjson.String(t.StepID)},
		canonjson.Member{Key: "location", Value: canonjson.String(t.Location)},
		canonjson.Member{Key: "path", Value: canonjson.Strings(t.Path)},
	)
	trace := canonjson.Digest(proof)
	proof.Set("traceEvidenceHash", canonjson.String(trace))
	members := []canonjson.Member{
		{Key: "name", Value: canonjson.String(verdict.AttachmentRuntimeCheck)},
		{Key: "checkId", Value: canonjson.String(verdict.AttachmentRuntimeCheck)},
		{Key: "phase", Value: canonjson.String(verdict.PhaseRuntime)},
		{Key: "command", Value: canonjson.String("code2skill pipeline run package --only runtime-verify")},
		{Key: "exitCode", Value: canonjson.Int(0)},
		{Key: "status", Value: canonjson.String("passed")},
		{Key: "evidenceHash", Value: canonjson.String(trace)},
	}
	members = append(members, bound...)
	members = append(members, canonjson.Member{Key: "attachmentProof", Value: proof})
	return canonjson.NewObject(members...)
}

func phase(checks canonjson.Array) *canonjson.Object {
	if checks == nil {
		checks = canonjson.Array{}
	}
	return canonjson.NewObject(
		canonjson.Member{Key: "status", Value: canonjson.String("passed")},
		canonjson.Member{Key: "checks", Value: checks},
	)
}

// Record returns the record of a capability or workflow; kind is
// "capabilities" or "workflows".
func (g *Green) Record(tb testing.TB, kind, id string) *canonjson.Object {
	tb.Helper()
	key := "capabilityId"
	if kind == "workflows" {
		key = "workflowId"
	}
	v, _ := g.Report.Get(kind)
	for _, r := range v.(canonjson.Array) {
		o := r.(*canonjson.Object)
		if s, _ := o.Get(key); s == canonjson.String(id) {
			return o
		}
	}
	tb.Fatalf("the report has no %s record %q", kind, id)
	return nil
}

// Phase returns one phase object of a record.
func (g *Green) Phase(tb testing.TB, kind, id, name string) *canonjson.Object {
	tb.Helper()
	v, ok := g.Record(tb, kind, id).Get(name)
	if !ok {
		tb.Fatalf("record %q has no phase %q", id, name)
	}
	return v.(*canonjson.Object)
}

// SetNotRun makes a phase not run: status not-run, no checks.
func (g *Green) SetNotRun(tb testing.TB, kind, id, name string) {
	tb.Helper()
	p := g.Phase(tb, kind, id, name)
	p.Set("status", canonjson.String("not-run"))
	p.Set("checks", canonjson.Array{})
	g.Report.Set("status", canonjson.String("partial"))
}

// FailCheck makes the first check of a phase fail (status failed, exit code
// 1) and the phase failed.
func (g *Green) FailCheck(tb testing.TB, kind, id, name string) {
	tb.Helper()
	p := g.Phase(tb, kind, id, name)
	checks, _ := p.Get("checks")
	c := checks.(canonjson.Array)[0].(*canonjson.Object)
	c.Set("status", canonjson.String("failed"))
	c.Set("exitCode", canonjson.Int(1))
	p.Set("status", canonjson.String("failed"))
	g.Report.Set("status", canonjson.String("partial"))
}

// DropLive removes the live evidence of a capability.
func (g *Green) DropLive(id string) {
	delete(g.Live, id)
	delete(g.Inputs, id)
	delete(g.Results, id)
}

// Evidence reads the green report into evidence, failing the test on any
// finding.
func (g *Green) Evidence(tb testing.TB, b *verdict.Baseline) *verdict.Evidence {
	tb.Helper()
	data := canonjson.Encode(g.Report)
	if vs, err := verdict.ValidateReport(data); err != nil || len(vs) > 0 {
		tb.Fatalf("the report breaks its schema: %v %v", vs, err)
	}
	r, problems := verdict.FromReport(b, "report.json", g.Report)
	if len(problems) > 0 {
		tb.Fatalf("reading the report: %v", problems)
	}
	r.Evidence.Live = g.Live
	return r.Evidence
}

// LivePayloads returns the live Tool calls and results of the reference
// capabilities by capability ID. Each call returns fresh copies.
func LivePayloads(tb testing.TB) (inputs, results map[string]canonjson.Value) {
	tb.Helper()
	payloadsOnce.Do(func() {
		payloadInputs, payloadErr = readPayloads("live-inputs.json", "input")
		if payloadErr == nil {
			payloadResults, payloadErr = readPayloads("live-results.json", "result")
		}
	})
	if payloadErr != nil {
		tb.Fatal(payloadErr)
	}
	clone := func(m map[string]canonjson.Value) map[string]canonjson.Value {
		out := make(map[string]canonjson.Value, len(m))
		for k, v := range m {
			out[k] = canonjson.Clone(v)
		}
		return out
	}
	return clone(payloadInputs), clone(payloadResults)
}

var (
	payloadsOnce                  sync.Once
	payloadInputs, payloadResults map[string]canonjson.Value
	payloadErr                    error
)

func readPayloads(name, key string) (map[string]canonjson.Value, error) {
	data, err := os.ReadFile(TestdataFile(name))
	if err != nil {
		return nil, err
	}
	v, err := canonjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	out := map[string]canonjson.Value{}
	list, _ := canonjson.Resolve(v, "/capabilities")
	for _, e := range list.(canonjson.Array) {
		o := e.(*canonjson.Object)
		id, _ := o.Get("capabilityId")
		p, _ := o.Get(key)
		out[string(id.(canonjson.String))] = p
	}
	return out, nil
}

// TestdataFile returns the path of one of this package's testdata files:
// live-inputs.json and live-results.json hold the live evidence of every
// reference capability in the {"capabilities": [...]} form.
func TestdataFile(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata", name)
}

// IDs returns the capability IDs of a baseline, sorted.
func IDs(b *verdict.Baseline) []string {
	var ids []string
	for _, c := range b.Capabilities {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	return ids
}
