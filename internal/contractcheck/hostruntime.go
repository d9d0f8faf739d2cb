package contractcheck

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// The export profile's hostRuntime: the environment variables through which
// a standard MCP stdio host, running the package's reviewed host runtime,
// gives it its deployment address, credentials and subject. Every fact the
// runtime needs must be there, and nothing it would never read.
var (
	RuleHostRuntimeOrigins     = diag.Register("PROFILE_HOST_RUNTIME_ORIGINS", diag.Error, "hostRuntime.baseUrlVariables does not name a base URL variable for exactly the allowed runtime origins")
	RuleHostRuntimeCredentials = diag.Register("PROFILE_HOST_RUNTIME_CREDENTIALS", diag.Error, "hostRuntime.credentials does not describe, for exactly the authentication kinds the contract uses, one header (with an optional scheme) or one cookie that carries the credential")
	RuleHostRuntimeVariable    = diag.Register("PROFILE_HOST_RUNTIME_VARIABLE", diag.Error, "a hostRuntime variable is not an upper-case environment variable name, is named twice, or is the dry-run variable")
	RuleHostRuntimeSubject     = diag.Register("PROFILE_HOST_RUNTIME_SUBJECT", diag.Error, "hostRuntime.subjectVariable is missing while a workflow binds the subject claim, or present while none does")
)

// headerToken is an HTTP field name or authentication scheme (RFC 9110
// token).
var headerToken = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// reservedHeaders are request headers a credential must not be carried in:
// the dispatcher or the request itself sets them.
var reservedHeaders = []string{
	"accept", "connection", "content-length", "content-type", "host", "transfer-encoding", "te", "upgrade",
}

// hostRuntime checks the export profile's hostRuntime against the contract.
func (k *checker) hostRuntime() {
	const file = contract.ExportProfileFile
	p := k.in.Export
	h := p.HostRuntime
	if h == nil {
		return
	}
	var seen []string
	variable := func(at, name string) {
		switch {
		case !contract.ValidVariableName(name):
			k.report(RuleHostRuntimeVariable, file, at, "%q must be 3 to 81 upper-case letters, digits and underscores, starting with a letter", name)
		case name == p.DryRunVariable():
			k.report(RuleHostRuntimeVariable, file, at, "%q is the dry-run variable; the host runtime's variables are others", name)
		case slices.Contains(seen, name):
			k.report(RuleHostRuntimeVariable, file, at, "%q is named twice; each variable carries one fact", name)
		}
		seen = append(seen, name)
	}

	base := child(h.At, "baseUrlVariables")
	for _, o := range h.BaseURLVariables {
		if !slices.Contains(p.AllowedRuntimeOrigins, o.Origin) {
			k.report(RuleHostRuntimeOrigins, file, o.At, "%q is not an allowed runtime origin; remove it", o.Origin)
		}
		variable(o.At, o.Variable)
	}
	for _, o := range p.AllowedRuntimeOrigins {
		if h.BaseURLVariable(o) == "" {
			k.report(RuleHostRuntimeOrigins, file, base, "the allowed runtime origin %q has no base URL variable", o)
		}
	}

	used := k.authenticationKinds()
	creds := child(h.At, "credentials")
	for _, c := range h.Credentials {
		switch {
		case !slices.Contains(used, c.Authentication):
			k.report(RuleHostRuntimeCredentials, file, c.At, "no request of the contract needs %q authentication; remove it", c.Authentication)
		case (c.Header == "") == (c.Cookie == ""):
			k.report(RuleHostRuntimeCredentials, file, c.At, "a credential is carried in one header or one cookie: give exactly one of header and cookie")
		case c.Header != "" && (!headerToken.MatchString(c.Header) || slices.Contains(reservedHeaders, strings.ToLower(c.Header))):
			k.report(RuleHostRuntimeCredentials, file, child(c.At, "header"), "%q is not a header a credential can be carried in", c.Header)
		case c.Scheme != "" && (c.Header == "" || !headerToken.MatchString(c.Scheme)):
			k.report(RuleHostRuntimeCredentials, file, child(c.At, "scheme"), "a scheme is one token before the credential in its header")
		case c.Cookie != "" && !headerToken.MatchString(c.Cookie):
			k.report(RuleHostRuntimeCredentials, file, child(c.At, "cookie"), "%q is not a cookie name", c.Cookie)
		}
		variable(child(c.At, "variable"), c.Variable)
	}
	for _, kind := range used {
		if _, ok := h.Credential(kind); !ok {
			k.report(RuleHostRuntimeCredentials, file, creds, "requests of the contract need %q authentication, and no credential says how the host runtime sends it", kind)
		}
	}

	bindsSubject := slices.ContainsFunc(k.c.Workflows, func(w contract.Workflow) bool {
		return slices.ContainsFunc(w.Bindings, func(b contract.WorkflowBinding) bool {
			return b.ActualSource.Kind == "runtime-context" && b.ActualSource.Claim == "subject"
		})
	})
	switch {
	case h.SubjectVariable != "":
		if !bindsSubject {
			k.report(RuleHostRuntimeSubject, file, h.SubjectVariableAt, "no workflow binds the subject claim, so the host runtime never reads a subject; remove it")
		}
		variable(h.SubjectVariableAt, h.SubjectVariable)
	case bindsSubject:
		k.report(RuleHostRuntimeSubject, file, h.At, "a workflow binds the subject claim: name the variable that holds the subject in subjectVariable")
	}
}

// authenticationKinds are the credential kinds the contract's requests
// need, in contract order: cookie_session and runtime_context
// (cookie_and_runtime_context needs both).
func (k *checker) authenticationKinds() []string {
	var kinds []string
	add := func(kind string) {
		for _, part := range contract.CredentialKinds(kind) {
			if !slices.Contains(kinds, part) {
				kinds = append(kinds, part)
			}
		}
	}
	for _, cp := range k.c.Capabilities {
		for _, s := range cp.Implementation.Steps {
			add(cmp.Or(s.Authentication, cp.Authentication))
		}
	}
	return kinds
}
