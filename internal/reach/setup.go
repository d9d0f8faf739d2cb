package reach

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/credential"
)

// Setup is the environment the server starts with for the reachability
// calls: every service address the code reads points at an address of its
// own under the reserved .invalid domain, every credential holds a fake
// value shaped like a JSON Web Token (so the credential judge knows it
// wherever it turns up), and a user name a fixed fake one.
type Setup struct {
	Bases   []Base
	Secrets []Secret
	// Users are fake user names (a login's, next to its password).
	Users []Secret
}

// Base is a service address variable and the value it is given.
type Base struct {
	Var   string
	Value string
	// Prefix is what every request to this service starts with: the base
	// URL followed by "/", or, for a host name, "https://host/".
	Prefix string
	// host is the host alone, for a variable that holds a host name.
	host string
}

// Secret is a credential variable and its fake value.
type Secret struct {
	Var, Value string
}

// NewSetup gives each variable the code reads its value.
func NewSetup(cfg Config) *Setup {
	s := &Setup{}
	for _, name := range cfg.Variables {
		if name == cfg.DryRunVariable {
			continue
		}
		words := credential.Words(name)
		last := ""
		if len(words) > 0 {
			last = words[len(words)-1]
		}
		switch {
		case credential.Name(name):
			n := len(s.Secrets) + 1
			s.Secrets = append(s.Secrets, Secret{name, fakeToken(n)})
		case credential.Address(name):
			n := len(s.Bases) + 1
			host := fmt.Sprintf("svc%d.reach.invalid", n)
			b := Base{Var: name}
			switch last {
			case "host", "hostname":
				b.Value, b.host, b.Prefix = host, host, "https://"+host+"/"
			case "origin":
				b.Value = "https://" + host
				b.Prefix = b.Value + "/"
			default:
				// A path of its own: a Function that drops it (new URL
				// with an absolute path) leaves the configured base.
				b.Value = fmt.Sprintf("https://%s/base%d", host, n)
				b.Prefix = b.Value + "/"
			}
			s.Bases = append(s.Bases, b)
		case slices.Contains([]string{"user", "username", "login", "email", "account"}, last):
			s.Users = append(s.Users, Secret{name, fmt.Sprintf("reach-user-%d", len(s.Users)+1)})
		}
	}
	return s
}

// fakeToken returns the n-th fake credential: three base64url parts, as a
// JSON Web Token, that decode to nothing anyone issued.
func fakeToken(n int) string {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`))
	payload := enc.EncodeToString(fmt.Appendf(nil, `{"sub":"code2skill-reach-%d","fake":true}`, n))
	return fmt.Sprintf("%s.%s.notasignature%04d", header, payload, n)
}

// Env returns the variables as KEY=VALUE pairs for the server.
func (s *Setup) Env() []string {
	var env []string
	for _, b := range s.Bases {
		env = append(env, b.Var+"="+b.Value)
	}
	for _, c := range s.Secrets {
		env = append(env, c.Var+"="+c.Value)
	}
	for _, u := range s.Users {
		env = append(env, u.Var+"="+u.Value)
	}
	return env
}

// baseOf returns the configured base a URL is under, or nil.
func (s *Setup) baseOf(raw string) *Base {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	u.Fragment, u.RawFragment = "", ""
	text := u.String()
	for i := range s.Bases {
		b := &s.Bases[i]
		if b.host != "" {
			if strings.EqualFold(u.Hostname(), b.host) {
				return b
			}
			continue
		}
		base := strings.TrimSuffix(b.Prefix, "/")
		if text == base || strings.HasPrefix(text, b.Prefix) || strings.HasPrefix(text, base+"?") {
			return b
		}
	}
	return nil
}

// baseList names the configured bases for messages.
func (s *Setup) baseList() string {
	if len(s.Bases) == 0 {
		return "none (the code reads no base URL variable code2skill could see)"
	}
	var parts []string
	for _, b := range s.Bases {
		parts = append(parts, fmt.Sprintf("%s=%s", b.Var, b.Value))
	}
	return strings.Join(parts, ", ")
}

// documentedVariable is a variable name written in backticks.
var documentedVariable = regexp.MustCompile("`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`")

// Variables returns the variables a package's code reads (reads, as the
// static analysis found them) followed by those its MCP-SETUP.md names in
// backticks and the code does not visibly read: the reachability calls,
// and the probe's dry-run session, configure them all.
func Variables(reads []string, setupDoc []byte) []string {
	out := slices.Clone(reads)
	for _, m := range documentedVariable.FindAllSubmatch(setupDoc, -1) {
		if v := string(m[1]); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}
