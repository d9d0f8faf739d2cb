package reach

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/diag"
)

// scanCredentials reports credentials in what a call returned: its result
// (a dry-run result and a Tool error are results too) or its JSON-RPC
// error. The credential judge decides what is one (credential.FindInValue),
// and any of the fake values injected into the server's environment is
// one wherever it appears, however it is named.
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
	for _, f := range FindCredentials(v, r.setup.secretValues()) {
		r.once(RuleCredentialInResult, t, f.Pointer, diag.Pointer("tools", t.Index),
			"the result of its %s call holds a credential at %s (%s): a credential never leaves through a result, a dry-run request or an error; mask it ([credential, not shown]) or leave it out",
			o.kind, pointerOrRoot(f.Pointer), f.What)
	}
}

func (s *Setup) secretValues() []string {
	var out []string
	for _, c := range s.Secrets {
		out = append(out, c.Value)
	}
	return out
}

// FindCredentials returns the credentials in a JSON value: what the
// credential judge finds, and every occurrence of one of the given secret
// values (the credentials a caller injected), each described without
// repeating it.
func FindCredentials(v canonjson.Value, secrets []string) []credential.Finding {
	out := credential.FindInValue(v)
	at := map[string]bool{}
	for _, f := range out {
		at[f.Pointer] = true
	}
	walkStrings(v, "", func(ptr, s string) {
		for _, secret := range secrets {
			if secret != "" && strings.Contains(s, secret) && !at[ptr] {
				at[ptr] = true
				out = append(out, credential.Finding{Pointer: ptr, What: fmt.Sprintf("the value of a credential variable, %s", credential.Redact(secret))})
			}
		}
	})
	return out
}

// walkStrings calls f with every string of v (member names aside) and its
// JSON Pointer.
func walkStrings(v canonjson.Value, at string, f func(ptr, s string)) {
	switch v := v.(type) {
	case *canonjson.Object:
		for k, e := range v.All() {
			walkStrings(e, at+"/"+diag.EscapeToken(k), f)
		}
	case canonjson.Array:
		for i, e := range v {
			walkStrings(e, fmt.Sprintf("%s/%d", at, i), f)
		}
	case canonjson.String:
		f(at, string(v))
	}
}
