package probe

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/mcpcheck"
)

// Credentials in what a server answers.
//
// Every result, dry-run result and Tool error of a case is scanned with the
// credential judge, and for the values of the credential variables the
// server was given (--env, --env-file): a hit is a finding naming the Tool
// and the JSON Pointer, the credential shown by its first characters
// only. The transcript is written through the same judge: a credential
// in a message is recorded as [redacted], the line noted.

// secrets returns the values of the credential variables given to the
// server: the user's, and the fake ones of the dry-run session.
func (p *prober) secrets() []string {
	var out []string
	if p.exp.config != nil {
		for _, s := range p.exp.config.Secrets {
			out = append(out, s.Value)
		}
	}
	for _, kv := range p.opts.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && credential.Name(k) && len(v) >= 4 {
			out = append(out, v)
		}
	}
	return out
}

// scanCredentials reports the credentials a case's answer carries and
// reports whether there were none.
func (p *prober) scanCredentials(c *Case, res *mcpcheck.CallResult) bool {
	if res == nil {
		return true
	}
	var v canonjson.Value
	if res.Error != nil {
		v = canonjson.NewObject(canonjson.Member{Key: "message", Value: canonjson.String(res.Error.Message)})
	} else if decoded, err := canonjson.Decode(res.Raw); err == nil {
		v = decoded
	} else {
		return true
	}
	found := credential.FindInValueWith(v, p.secrets())
	if len(found) > 0 {
		f := found[0]
		p.report(RuleResultCredential, c, "the answer holds a credential at %s (%s)%s: a credential never leaves through a result, a dry-run request or an error; mask it or leave it out",
			pointerOrRoot(f.Pointer), f.What, morePlaces(len(found)-1))
	}
	return len(found) == 0
}

// morePlaces says how many more places hold a credential.
func morePlaces(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return ", and 1 more place"
	}
	return fmt.Sprintf(", and %d more places", n)
}

// transcriptRedactor returns the redactor of the probe's transcript and a
// counter of the lines it changed.
func (p *prober) transcriptRedactor() (mcpcheck.Redactor, *int) {
	n := new(int)
	secrets := p.secrets()
	return func(data []byte, isJSON bool) ([]byte, bool) {
		var v canonjson.Value = canonjson.String(string(data))
		if isJSON {
			decoded, err := canonjson.Decode(data)
			if err != nil {
				return data, false
			}
			v = decoded
		}
		clean, changed := credential.SanitizeWith(v, secrets)
		if !changed {
			return data, false
		}
		*n++
		if s, ok := clean.(canonjson.String); ok && !isJSON {
			return []byte(s), true
		}
		return canonjson.Compact(clean), true
	}, n
}
