// Package hostverify verifies a strict package under its declared Host
// profile, in a host: code2skill plays a standard MCP stdio host (the
// reference MCP host) and starts the package exactly as MCP-SETUP.md
// registers it, node with the absolute path of its host runtime, in the
// package directory, with the environment the user's host env file gives
// the runtime's variables.
//
// Every check runs through two clients, each with a server of its own in
// every session: the reference host's own, the official Go SDK client,
// which reads results as the server sent them, and the official
// TypeScript SDK Client a host embeds (internal/tsclient: one node process
// driving all its sessions), which throws on a result its Tool's output
// schema rejects. A result either client refuses fails the check for that
// client. Each client declares elicitation (form mode) exactly when the
// Host profile says trusted confirmation is supported, and answers each
// form as the check needs: accept, decline or cancel.
//
// Every base URL the package is given is a counting relay of code2skill's
// in front of the one the host env file names, so that what an attempt
// dispatched is counted outside the package: an attempt that must dispatch
// nothing is blocked at the relay (nothing reaches the backend even if the
// package is wrong), and an unknown outcome is produced by closing the
// request's connection unanswered, again sending nothing on. The first
// client's requests are forwarded and the backend's answers recorded; the
// second client's call of the same step is answered with those recordings,
// so that the backend sees each call once and an authorised write is made
// once.
//
// Two MCP sessions, each a node process per client: the first is the host
// of the profile (discovery, each capability's call end to end, a
// confirmed write's decline and cancel, a write's unknown outcome); the
// second is another session of a client that declares no elicitation, in
// which a confirmed write must be refused and a protected value the first
// session was issued must be unusable. A third starts only for a write
// that both needs the user's confirmation and redeems issued values: its
// isolation is checked by a client that confirms. The later servers start
// while the first session's checks run, so that their start-up costs no
// wall time of its own. The checks (ExpectedChecks) are Host-phase checks,
// each with its evidence; a write is called for real only when the run
// authorises it.
//
// The servers run in the sandbox with the network allowed for this run
// only.
package hostverify

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"slices"
	"time"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/sandbox"
)

// DefaultRequestTimeout bounds each call of host verification.
const DefaultRequestTimeout = 15 * time.Second

// Options configure a host verification.
type Options struct {
	// Dir is the package directory, absolute: the host starts node with
	// Dir/portable-host-runtime.mjs, in Dir.
	Dir string
	// Inputs are the package's Portable Core inputs, which derive.Check
	// accepted.
	Inputs *derive.Inputs
	// Cases are each capability's call: its arguments, which may pass on
	// results of earlier calls of the session (livecall.Resolve). A
	// capability without required inputs is called with {} when it has
	// none.
	Cases map[string]*canonjson.Object
	// Check judges a capability's resolved arguments (its input schema);
	// nil accepts them.
	Check func(capabilityID string, args *canonjson.Object) string
	// AuthorizedWrites are the writes whose calls may really be sent.
	AuthorizedWrites []string
	// Env is the host env file: values of the host runtime's variables.
	Env map[string]string
	// RequestTimeout bounds each call; 0 means DefaultRequestTimeout.
	RequestTimeout time.Duration
	// TimeoutFlag is how the user raises RequestTimeout, named when a
	// call runs out of time.
	TimeoutFlag string
	// Progress receives a line per check; nil for none.
	Progress io.Writer
	// Scope, when not nil, limits the run to some rows: the others'
	// evidence is current and their checks do not run.
	Scope *Scope

	// referenceOnly runs the checks through the reference host's own
	// client alone: the benchmark's baseline, never a verification.
	referenceOnly bool
}

// Scope names the rows a run verifies: the capabilities whose checks run
// (with every capability whose result their cases pass on: calls resolve
// within one session) and the workflows whose checks repeat their entry's
// (each entry among the capabilities).
type Scope struct {
	Capabilities map[string]bool
	Workflows    map[string]bool
}

// limit drops the checks of the rows outside the scope.
func (s *Scope) limit(exp *Expected) {
	if s == nil {
		return
	}
	for id := range exp.Capabilities {
		if !s.Capabilities[id] {
			delete(exp.Capabilities, id)
		}
	}
	for id := range exp.Workflows {
		if !s.Workflows[id] {
			delete(exp.Workflows, id)
		}
	}
}

// Check is the outcome of one Host-phase check.
type Check struct {
	CheckID string
	// CapabilityID or WorkflowID is the row the check is about.
	CapabilityID, WorkflowID string
	Passed                   bool
	// Skipped says why a check did not run; it is neither passed nor
	// failed, and its phase cannot pass.
	Skipped string
	// Rule is the rule a failure is reported under; Detail says why.
	Rule   *diag.Rule
	Detail string
	// Evidence is what the check saw, sanitised: the host, the session,
	// the calls, their results and what reached the relay.
	Evidence *canonjson.Object
}

// Result is what host verification did.
type Result struct {
	Checks []*Check
	// Host says which host verified: HostName, its clients, protocol,
	// elicitation and facilities.
	Host *canonjson.Object
	// Clients name the clients every check ran through, as they ran:
	// GoClientName, then the TypeScript SDK Client with its version.
	Clients []string
	// NodeProcesses counts the node processes started: the servers of
	// every session of every client, and the TypeScript SDK Client's.
	NodeProcesses int
	Isolation     sandbox.Isolation
	// Diagnostics are the findings: failed checks by rule, the server's
	// own problems, the host env file's gaps.
	Diagnostics *diag.List
}

// Run verifies the package under its Host profile. err means the job could
// not be done: node missing (it wraps sandbox.ErrNotFound), a relay could
// not listen, ctx ended.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.RequestTimeout <= 0 {
		opts.RequestTimeout = DefaultRequestTimeout
	}
	in := opts.Inputs
	v := &verifier{opts: opts, in: in, res: &Result{Diagnostics: &diag.List{}}, expected: ExpectedChecks(in),
		elicitation: Elicitation(in), tools: map[string]*canonjson.Object{}, workflows: map[string]*canonjson.Object{}}
	opts.Scope.limit(v.expected)
	if !hostruntime.Declared(in) {
		v.res.Diagnostics.Add(RuleNoRuntime.New(contract.ExportProfileFile,
			"the export profile declares no hostRuntime, so the package carries no host runtime a stdio host can start it through"))
		return v.res, nil
	}
	binding, _ := hostruntime.Binding(in)
	doc, _ := canonjson.Decode(binding)
	for _, t := range arrayAt(doc, "/tools") {
		v.tools[stringAt(t, "/capabilityId")] = t.(*canonjson.Object)
	}
	for _, w := range arrayAt(doc, "/workflows") {
		v.workflows[stringAt(w, "/workflowId")] = w.(*canonjson.Object)
	}
	v.schemas = map[string]canonjson.Value{}
	for _, c := range arrayAt(derive.SchemaContract(in.Contract), "/capabilities") {
		v.schemas[stringAt(c, "/capabilityId")], _ = canonjson.Resolve(c, "/inputSchema")
	}
	env, err := v.environment(doc)
	defer v.closeRelays()
	if err != nil {
		return nil, err
	}
	v.env = env
	v.clients = []*client{v.goClient()}
	if !opts.referenceOnly {
		v.ts = v.startTypeScript(ctx)
		defer v.ts.close()
		v.clients = append(v.clients, v.ts.client)
	}
	if err := v.run(ctx); err != nil {
		return nil, err
	}
	if v.ts != nil && v.ts.driver != nil {
		v.res.NodeProcesses++
	}
	return v.res, nil
}

// verifier carries one host verification.
type verifier struct {
	opts        Options
	in          *derive.Inputs
	res         *Result
	expected    *Expected
	elicitation bool
	tools       map[string]*canonjson.Object // capability ID -> binding Tool
	schemas     map[string]canonjson.Value   // capability ID -> input schema
	workflows   map[string]*canonjson.Object // workflow ID -> binding workflow
	env         []string
	relays      []*relay
	names       []string // the variables the server gets
	ts          *typescript
	// clients are the clients every check runs through, in order: the
	// reference host's own, then the TypeScript SDK Client.
	clients []*client
	// listed holds the outputSchema each Tool listed to the first client
	// (nil for none), which every client's results are judged against.
	listed map[string]canonjson.Value
}

// environment builds the server's environment from the host env file: a
// relay for each base URL, the credentials and subject as they are. A
// variable the runtime reads that the file lacks is a warning (the calls
// that need it fail with the runtime's own error); one it does not read is
// not passed.
func (v *verifier) environment(binding canonjson.Value) ([]string, error) {
	var credentialHeaders []string
	for _, c := range arrayAt(binding, "/credentials") {
		h := stringAt(c, "/header")
		if stringAt(c, "/cookie") != "" {
			h = "cookie"
		}
		if !slices.Contains(credentialHeaders, h) {
			credentialHeaders = append(credentialHeaders, h)
		}
	}
	var env []string
	read := map[string]bool{}
	for _, hv := range hostruntime.Variables(v.in) {
		read[hv.Name] = true
		value, ok := v.opts.Env[hv.Name]
		if !ok || value == "" {
			v.res.Diagnostics.Add(RuleEnv.New("", "the host env file gives no value for %s (%s); the calls that need it are refused by the host runtime", hv.Name, hv.Role))
			continue
		}
		v.names = append(v.names, hv.Name)
		if hv.Role != hostruntime.RoleBaseURL {
			env = append(env, hv.Name+"="+value)
			continue
		}
		target, err := url.Parse(value)
		if err != nil || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
			// The runtime judges the value; host verification passes it on.
			env = append(env, hv.Name+"="+value)
			continue
		}
		r, err := startRelay(target, credentialHeaders)
		if err != nil {
			return nil, fmt.Errorf("starting the relay for %s: %w", hv.Name, err)
		}
		v.relays = append(v.relays, r)
		env = append(env, hv.Name+"="+r.URL())
	}
	for _, k := range sortedKeys(v.opts.Env) {
		if !read[k] {
			v.res.Diagnostics.Add(RuleEnv.New("", "the host env file sets %s, which the host runtime does not read; it is not passed", k))
		}
	}
	return env, nil
}

func (v *verifier) closeRelays() {
	for _, r := range v.relays {
		r.close()
	}
}

// host describes the host that verifies, with the clients every check
// runs through, for every check's evidence.
func (v *verifier) host() *canonjson.Object {
	v.res.Clients = nil
	for _, c := range v.clients {
		v.res.Clients = append(v.res.Clients, c.name)
	}
	elicitation := "not declared"
	if v.elicitation {
		elicitation = "form"
	}
	return canonjson.NewObject(
		member("host", canonjson.String(HostName)),
		member("clients", canonjson.Strings(v.res.Clients)),
		member("transport", canonjson.String("stdio")),
		member("protocolVersion", canonjson.String(v.in.Export.ProtocolVersion)),
		member("hostProfile", canonjson.String(v.in.Host.ProfileID)),
		member("elicitation", canonjson.String(elicitation)),
		member("facilities", canonjson.Strings(Facilities(v.elicitation))),
		member("start", canonjson.String("node <package>/"+hostruntime.RuntimeFile+", in <package>, as MCP-SETUP.md registers it")),
		member("environment", canonjson.Strings(v.names)),
		member("dispatchCounting", canonjson.String("each base URL is a counting relay of code2skill to the host env file's")),
	)
}

func member(k string, v canonjson.Value) canonjson.Member { return canonjson.Member{Key: k, Value: v} }

func arrayAt(v canonjson.Value, pointer string) canonjson.Array {
	x, _ := canonjson.Resolve(v, pointer)
	a, _ := x.(canonjson.Array)
	return a
}

func stringAt(v canonjson.Value, pointer string) string {
	x, _ := canonjson.Resolve(v, pointer)
	s, _ := x.(canonjson.String)
	return string(s)
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// sanitized is a value with credentials redacted, as evidence keeps it.
func sanitized(v canonjson.Value) canonjson.Value { return credential.Sanitize(v) }
