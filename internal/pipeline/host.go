package pipeline

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/hostverify"
)

// StageHostVerify runs the Host-phase checks under the declared Host
// profile, code2skill playing the reference MCP host, when the run enables
// it.
const StageHostVerify = "host-verify"

var hostVerifyStage = &stage{
	name:     StageHostVerify,
	enable:   "--enable-host-verify",
	disabled: "host verification was not enabled for this run (--enable-host-verify)",
	enabled:  func(o *RunOptions) bool { return o.EnableHostVerify },
	phase:    PhaseHost,
	inputs: func(r *runner) ([]input, error) {
		return inputsOf(
			r.candidate,
			func() ([]input, error) { return r.stateTree(labelLiveCases, LiveCasesDir) },
			func() ([]input, error) { return r.hostAuthority(), nil },
		)
	},
	run:     (*runner).hostVerify,
	failed:  func(r *runner) error { return r.p.clearRecords([]string{PhaseHost}) },
	restore: hostCommand,
}

// Labels of host-verify's fingerprint inputs.
const (
	labelHostEnabled = "host-verify:enabled"
	labelHostWrites  = "host-verify:authorized-writes"
	labelHostEnv     = "host-verify:environment"
)

// HostRun is how host verification last ran, for information only:
// authorisations are never read back.
type HostRun struct {
	Host string `json:"host"`
	// Clients are the clients every check ran through, with their
	// versions (hostverify.Result.Clients).
	Clients          []string `json:"clients,omitempty"`
	Elicitation      bool     `json:"elicitation"`
	AuthorizedWrites []string `json:"authorizedWrites"`
	Checks           int      `json:"checks"`
	Passed           int      `json:"passed"`
	Skipped          int      `json:"skipped"`
	RanAt            string   `json:"ranAt"`
	// EnvFile is the --host-env-file the run was given, as given.
	EnvFile string `json:"envFile,omitempty"`
}

// hostVerify verifies the package under its declared Host profile, with
// code2skill as the reference MCP host (internal/hostverify): the package
// started as MCP-SETUP.md registers it, through its host runtime, with the
// host env file's values; each capability's and workflow's Host-phase
// checks recorded with their evidence. A write is called for real only
// when this run authorises it; the checks that prove a refusal never let a
// request through to the backend.
//
// As runtime verification does, it keeps the passed records that are
// still current (carryEvidence) when the host env file's values and the
// code2skill version are those of their run, and verifies the other rows
// only: each capability without current evidence, every capability whose
// result a due one's live case passes on, and each workflow without it
// (its entry with it).
func (r *runner) hostVerify() (*stageOutcome, error) {
	out := &stageOutcome{steps: []string{"the " + hostverify.HostName + " starts node <package>/" + hostruntime.RuntimeFile + " for each of its clients and runs the Host-phase checks through them"}}
	auth := slices.Clone(r.opts.AuthorizeWrites)
	slices.Sort(auth)
	out.authorized = slices.Compact(auth)
	if err := r.computeScopes(PhaseHost); err != nil {
		return out, err
	}
	kept, err := r.keptRecords(PhaseHost, StageHostVerify, []string{labelHostEnv, r.hostEnvDigest()})
	if err != nil {
		return out, err
	}
	r.st.HostInvalidated = nil
	in, err := r.checkedCore(out)
	if in == nil || err != nil {
		return out, err
	}
	scope := hostScope(in.Contract, kept, r.p.statePath(LiveCasesDir))
	if err := r.dropUnkept(PhaseHost, kept); err != nil {
		return out, err
	}
	if scope != nil && len(scope.Capabilities) == 0 && len(scope.Workflows) == 0 {
		out.steps = append(out.steps, fmt.Sprintf("kept the current host evidence of %s; nothing else to verify", scopeList(sortedKeys(kept))))
		return out, nil
	}
	if in.Export == nil || !hostruntime.Declared(in) {
		out.findings.Add(hostverify.RuleNoRuntime.New("export-profile.json", "host verification starts the package through its host runtime, and the export profile declares no hostRuntime"))
		return out.fail("the package carries no host runtime"), nil
	}
	schemas := inputSchemas(r.core.Views())
	cases := map[string]*canonjson.Object{}
	for i := range in.Contract.Capabilities {
		cp := &in.Contract.Capabilities[i]
		lc, ds, err := r.p.readLiveCase(in.Contract, cp, schemas[cp.ID])
		if err != nil {
			return out, err
		}
		out.findings.Add(ds...)
		if lc != nil {
			cases[cp.ID] = lc.Arguments
		}
	}
	res, err := r.p.Steps.HostVerify(r.ctx, hostverify.Options{
		Dir:              r.p.abs,
		Inputs:           in,
		Cases:            cases,
		Check:            func(id string, args *canonjson.Object) string { return validArguments(schemas[id], args) },
		AuthorizedWrites: r.opts.AuthorizeWrites,
		Env:              r.opts.HostEnv,
		RequestTimeout:   r.opts.RequestTimeout,
		TimeoutFlag:      RequestTimeoutFlag,
		Progress:         r.p.Progress,
		Scope:            scope,
	})
	if errors.Is(err, ErrNotAvailable) {
		out.findings.Add(RuleStepUnavailable.New("", "host verification is not available in this build"))
		return out.fail("host verification is not available in this build"), nil
	}
	if err != nil {
		return out, fmt.Errorf("host verification: %w", err)
	}
	out.findings.Merge(res.Diagnostics)
	out.nodes += res.NodeProcesses
	run := &HostRun{Host: hostverify.HostName, Clients: res.Clients, Elicitation: hostverify.Elicitation(in), AuthorizedWrites: out.authorized, RanAt: r.p.now(), EnvFile: r.opts.HostEnvFile}
	for _, c := range res.Checks {
		run.Checks++
		if c.Skipped != "" {
			run.Skipped++
			continue // not run: the phase cannot pass, and no record says otherwise
		}
		if c.Passed {
			run.Passed++
		}
		if err := r.recordHostCheck(c, res.Clients); err != nil {
			return out, err
		}
	}
	r.st.HostVerify = run
	if len(kept) > 0 {
		out.steps = append(out.steps, fmt.Sprintf("kept the current host evidence of %s", scopeList(sortedKeys(kept))))
	}
	return out, nil
}

// HostClients names the clients host verification ran through, for a
// sentence: "the A and the B"'s "A and the B"; host when there are none
// (a run recorded before they were named).
func HostClients(clients []string, host string) string {
	switch len(clients) {
	case 0:
		return host
	case 1:
		return clients[0]
	}
	return strings.Join(clients[:len(clients)-1], ", the ") + " and the " + clients[len(clients)-1]
}

// hostScope is what host verification verifies, given the scopes whose
// records it keeps: nil (everything) when it keeps none. A kept capability
// whose result a due call's case passes on is called, and so verified,
// again: its scope leaves kept.
func hostScope(c *contract.Contract, kept map[string]bool, casesDir string) *hostverify.Scope {
	if len(kept) == 0 {
		return nil
	}
	s := &hostverify.Scope{Capabilities: dueCalls(c, kept, casesDir), Workflows: map[string]bool{}}
	for id := range s.Capabilities {
		delete(kept, attest.CapabilityScope(id))
	}
	for _, w := range c.Workflows {
		if !kept[attest.WorkflowScope(w.ID)] {
			s.Workflows[w.ID] = true
		}
	}
	return s
}

// recordHostCheck records one Host-phase check with its evidence; its
// command names the clients it ran through.
func (r *runner) recordHostCheck(c *hostverify.Check, clients []string) error {
	began := r.p.Now()
	tool := ""
	if c.Evidence != nil {
		s, _ := c.Evidence.At("toolName").(canonjson.String)
		tool = string(s)
	}
	rec := &Record{CheckID: c.CheckID, Name: strings.TrimSpace("host " + c.CheckID + " " + tool), Phase: PhaseHost,
		CapabilityID: c.CapabilityID, WorkflowID: c.WorkflowID,
		Command: c.CheckID + " by the " + HostClients(clients, hostverify.HostName) + " (MCP over stdio)", ExitCode: 1, Status: CheckFailed}
	if c.Passed {
		rec.ExitCode, rec.Status = 0, CheckPassed
	} else {
		rec.Detail = c.Detail
	}
	evidence := c.Evidence
	if evidence == nil {
		evidence = &canonjson.Object{}
	}
	return r.finish(rec, began, r.p.Now(), canonjson.Encode(evidence))
}

// hostAuthority digests what this run authorises host verification to do:
// that it is enabled, the writes it may call, and the host env file's
// values (hashed, never stored).
func (r *runner) hostAuthority() []input {
	return []input{
		{labelHostEnabled, "true"},
		{labelHostWrites, writesDigest(r.opts.AuthorizeWrites)},
		{labelHostEnv, r.hostEnvDigest()},
	}
}

// hostEnvDigest digests the host env file's values.
func (r *runner) hostEnvDigest() string {
	var lines []string
	for _, k := range sortedKeys(r.opts.HostEnv) {
		lines = append(lines, k+"="+stringDigest(r.opts.HostEnv[k]))
	}
	return stringDigest(strings.Join(lines, "\n"))
}
