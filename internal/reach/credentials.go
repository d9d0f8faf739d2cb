package reach

import (
	"fmt"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/diag"
)

// scanCredentials reports credentials in what a call returned: its result
// (a dry-run result and a Tool error are results too) or its JSON-RPC
// error. The credential judge decides what is one (credential.FindInValue),
// and any of the fake values injected into the server's environment, or
// issued in an answer (a login's token a search gave), is one wherever it
// appears, however it is named.
func (r *runner) scanCredentials(t Tool, o *observed) {
	var v canonjson.Value
	switch {
	case o.result != nil:
		v = o.result.raw
	case o.rpcError != "":
		v = canonjson.NewObject(canonjson.Member{Key: "error", Value: canonjson.String(o.rpcError)})
	default:
		return
	}
	found := credential.FindInValueWith(v, append(r.setup.secretValues(), r.issued...))
	if len(found) == 0 {
		return
	}
	f, more := found[0], ""
	if len(found) > 1 {
		more = fmt.Sprintf(", and %d more place(s)", len(found)-1)
	}
	r.once(RuleCredentialInResult, t, o.kind, diag.Pointer("tools", t.Index),
		"the result of its %s call holds a credential at %s (%s)%s: a credential never leaves through a result, a dry-run request or an error; mask it ([credential, not shown]) or leave it out",
		o.kind, pointerOrRoot(f.Pointer), f.What, more)
}

func (s *Setup) secretValues() []string {
	var out []string
	for _, c := range s.Secrets {
		out = append(out, c.Value)
	}
	return out
}
