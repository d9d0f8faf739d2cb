package contractcheck

import (
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// The export profile: the node-stdio runtime policy. Its runtime origins
// are a fact of the contract (the origins its HTTP steps call).
var (
	RuleFeatureSurface = diag.Register("PROFILE_FEATURE_SURFACE", diag.Error, "featureSurface.identifier is not one line of at most 256 characters, or a route does not start with /")
	RuleDryRunVariable = diag.Register("PROFILE_DRY_RUN_VARIABLE", diag.Error, "dryRunEnvironmentVariable is not an upper-case environment variable name of 3 to 81 characters")
	RuleOrigins        = diag.Register("PROFILE_ORIGINS", diag.Error, "allowedRuntimeOrigins is not exactly the set of bare http(s) origins the contract's HTTP steps use")
)

// exportProfile checks the export profile's feature surface, dry-run
// variable, and that its runtime origins are exactly those the contract's
// HTTP steps call.
func (k *checker) exportProfile() {
	const file = contract.ExportProfileFile
	p := k.in.Export
	if id := p.FeatureSurfaceIdentifier; id != "" {
		switch {
		case strings.ContainsAny(id, "\r\n"):
			k.report(RuleFeatureSurface, file, child(p.FeatureSurfaceAt, "identifier"), "the identifier must be a single line")
		case utf8.RuneCountInString(id) > 256:
			k.report(RuleFeatureSurface, file, child(p.FeatureSurfaceAt, "identifier"), "the identifier must be at most 256 characters")
		case p.FeatureSurfaceKind == "route" && !strings.HasPrefix(id, "/"):
			k.report(RuleFeatureSurface, file, child(p.FeatureSurfaceAt, "identifier"), "a route identifier must start with /")
		}
	}
	if v := p.DryRunEnvironmentVariable; v != "" && !contract.ValidVariableName(v) {
		k.report(RuleDryRunVariable, file, "/dryRunEnvironmentVariable",
			"%q must be 3 to 81 upper-case letters, digits and underscores, starting with a letter", v)
	}

	var used []string // origins the HTTP steps call, in contract order
	for _, cp := range k.c.Capabilities {
		for _, s := range cp.Implementation.Steps {
			if o, ok := contract.Origin(s.URL); ok && !slices.Contains(used, o) {
				used = append(used, o)
			}
		}
	}
	var listed []string
	for i, o := range p.AllowedRuntimeOrigins {
		at := ptr(p.AllowedRuntimeOriginsAt, i)
		switch {
		case !bareOrigin(o):
			k.report(RuleOrigins, file, at, "%q must be a bare http(s) origin: scheme, host and optional port only", o)
		case slices.Contains(listed, o):
			k.report(RuleOrigins, file, at, "%q is listed twice", o)
		case !slices.Contains(used, o):
			k.report(RuleOrigins, file, at, "no HTTP step of the contract calls %q; remove it", o)
		}
		listed = append(listed, o)
	}
	for _, o := range used {
		if !slices.Contains(listed, o) {
			k.report(RuleOrigins, file, p.AllowedRuntimeOriginsAt, "the contract's HTTP steps call %q, which is not allowed; add it", o)
		}
	}
}

// bareOrigin reports whether s is scheme://host[:port] with an http(s)
// scheme and nothing else.
func bareOrigin(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.User != nil || u.Path != "" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.Opaque != "" {
		return false
	}
	o, ok := contract.Origin(s)
	return ok && o == s
}
