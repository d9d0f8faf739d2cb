package livecall

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// FormField is the one field of an elicitation form the host runtime asks
// (hostruntime.ConfirmField or hostruntime.ReconciledField), or "" for a
// request that is not such a form.
func FormField(req *mcp.ElicitRequest) string {
	if req == nil || req.Params == nil {
		return ""
	}
	b, err := json.Marshal(req.Params.RequestedSchema)
	if err != nil {
		return ""
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if canonjson.Unmarshal(b, &schema) != nil || len(schema.Properties) != 1 {
		return ""
	}
	for k := range schema.Properties {
		return k
	}
	return ""
}

// Begin starts the outcome of a call: its arguments resolved against the
// results of the calls made before it and judged (Prepare). send says
// whether the call may be sent; when it may not, the outcome says why, and
// Upstream names the capability whose result its arguments pass on and
// which has no successful call before it in the run: the call is not made
// because of that call, and is no failure of its own.
func (c *Call) Begin(results Results) (out *Outcome, send bool) {
	out = &Outcome{CapabilityID: c.CapabilityID, Tool: c.Tool}
	if refs, err := References(c.Arguments); err == nil {
		for _, r := range refs {
			if _, ok := results[r.CapabilityID]; !ok {
				out.Upstream = r.CapabilityID
				out.ProtocolError = "not called: its arguments pass on the result of " + r.CapabilityID + ", which has no successful call before it"
				return out, false
			}
		}
	}
	args, problem := c.Prepare(results)
	if out.Arguments = args; problem != "" {
		out.ProtocolError = problem
		return out, false
	}
	return out, true
}

// Prepare resolves a call's arguments against the results of the calls
// made before it and judges them with the call's Check; problem says why
// the call cannot be sent (args is nil when they could not be resolved).
func (c *Call) Prepare(results Results) (args *canonjson.Object, problem string) {
	args, err := results.Resolve(c.Arguments)
	if err != nil {
		return nil, "the arguments cannot be resolved: " + err.Error()
	}
	if c.Check != nil {
		if why := c.Check(args); why != "" {
			return args, "the resolved arguments cannot be sent: " + why
		}
	}
	return args, ""
}
