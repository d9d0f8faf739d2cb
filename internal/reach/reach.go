// Package reach checks, by calling each Tool of a running MCP server, that
// what a Tool is given reaches the request its Function sends, and that
// the Function behaves as spec 003 requires around that request. Nothing
// leaves the server's process: a small recorder preloaded into it (the
// driver, driver.cjs for node) replaces fetch, records every request
// whole and answers it as the call's plan says (answers.go). The checks
// are made here, in Go, on what the recorder observed and on the Tool
// results; another runtime needs only a recorder of its own that answers
// the same plan.
//
// Every Tool is called, through the real server over stdio, as a host
// would call it, with a distinct marker value for every input its schema
// declares (markers.go), the service base URLs set to distinct .invalid
// addresses and the credential variables to fake values:
//
//   - with the same arguments, its own request answered as a backend
//     answers, one call each: 200 with a body, 204 without one, 401, 404,
//     409 and 503 with a body, and no response at all (a reset
//     connection). Each answer must pass through unchanged as httpStatus
//     and the complete bodyText; the failure must end in a Tool error.
//     Every request must go under a configured base URL;
//   - a Tool that refuses after reading first (a pre-checked write, a
//     login issuing a token) is followed: answers those reads accept are
//     searched for (search.go) and given in every later call; one no
//     answer leads on is named, with the line that refused, never
//     reported as dropping its inputs;
//   - each input must be found in a request (matching.go says how) or,
//     when its value is transformed beyond recognition, change the request
//     when it changes (a differential call), unless the Tool documents it
//     as local ("x-code2skill-local" in its input schema). An input no
//     call can change (one allowed value), or whose change cannot be told
//     because the Tool's requests change from call to call, is named;
//   - a Tool that refuses every value before any request is tried once
//     more with each text input an address: one whose request then goes
//     to that address takes the service's address from its input;
//   - a write (readOnlyHint not true, or a Tool whose own request creates
//     or changes) again with the dry-run variable set: it must send
//     nothing, not even the reads that pre-check it, and return
//     {dryRun: true, …};
//   - again with every base URL variable unset: no request may leave, and
//     the result must be a Tool error;
//   - every result, dry-run result and error must hold no credential: none
//     the credential judge finds, and none of the fake values injected or
//     issued.
//
// A call that hangs, sends more requests than a bound (a loop), makes the
// process exit, or writes to stdout is a finding naming the Tool; the
// plan goes on with the next call while the server answers.
package reach

import (
	"time"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/endpoint"
	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// MetaKey is the _meta key of a reachability call's plan in the request
// and of the recorder's observation in the response.
const MetaKey = "code2skill/reach"

// DefaultCallTimeout bounds each call when Config leaves it zero.
const DefaultCallTimeout = 2 * time.Second

// Tool is a listed Tool as the reachability calls see it.
type Tool struct {
	Name string
	// InputSchema is the entry's inputSchema; nil when it has none.
	InputSchema *canonjson.Object
	// Hints are the boolean annotation hints the entry states.
	Hints map[string]bool
	// Index is the entry's position in tools/list, for JSON Pointers.
	Index int
}

// ReadOnly reports whether the Tool states readOnlyHint: true.
func (t Tool) ReadOnly() bool { return t.Hints["readOnlyHint"] }

// ToolsOf reads the Tools of a tools/list answer; entries without a name
// are left out (the shape rules report them).
func ToolsOf(listed []mcpcheck.Tool) []Tool {
	var out []Tool
	for i := range listed {
		v, err := canonjson.Decode(listed[i].Raw)
		if err != nil {
			continue
		}
		o, _ := v.(*canonjson.Object)
		name, _ := o.At("name").(canonjson.String)
		if o == nil || name == "" {
			continue
		}
		t := Tool{Name: string(name), Index: listed[i].Index, Hints: map[string]bool{}}
		t.InputSchema, _ = o.At("inputSchema").(*canonjson.Object)
		if ann, ok := o.At("annotations").(*canonjson.Object); ok {
			for k, v := range ann.All() {
				if b, ok := v.(canonjson.Bool); ok {
					t.Hints[k] = bool(b)
				}
			}
		}
		out = append(out, t)
	}
	return out
}

// Config says what the reachability calls may rely on.
type Config struct {
	// Variables are the environment variables the package's code reads,
	// as the static analysis found them: the service addresses among them
	// get .invalid base URLs, the credentials fake values.
	Variables []string
	// DryRunVariable is the variable that turns writes into dry runs.
	DryRunVariable string
	// Public are the fixed endpoints of public protocols the package
	// declares: a request to one of them is not outside the configured
	// bases.
	Public endpoint.List
	// CallTimeout bounds each call in the server; 0 means
	// DefaultCallTimeout. It must stay under the session's request time
	// limit, which stops the server.
	CallTimeout time.Duration
	// Constants are texts the package's code compares values with
	// ("pending"): values a search tries for the members of answers a
	// pre-check reads.
	Constants []string
	// Locate returns where the package raises an error whose message is
	// text ("function-core/index.mjs:88"), or "": findings about a refusal
	// name it.
	Locate func(text string) string
}

func (c Config) callTimeout() time.Duration {
	if c.CallTimeout > 0 {
		return c.CallTimeout
	}
	return DefaultCallTimeout
}
