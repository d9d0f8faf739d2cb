package derive

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/contract"
)

// hostProfile warns about every host capability a consumer requirement names
// that the Host profile leaves unclassified: derivation treats it as
// unsupported, which the deployer may not intend.
func (k *checker) hostProfile(c *contract.Contract, h *contract.HostProfile) {
	var warned []string
	for _, r := range c.ConsumerRequirements {
		if r.HostCapability == "" || slices.Contains(warned, r.HostCapability) {
			continue
		}
		if _, ok := h.Status(r.HostCapability); !ok {
			warned = append(warned, r.HostCapability)
			k.report(RuleHostCapabilityMissing, contract.HostProfileFile, "/capabilities",
				"no entry for %q, which requirement %q needs; it counts as unsupported", r.HostCapability, r.ID)
		}
	}
}

// dryRunVariableForm is an upper-case environment variable name.
var dryRunVariableForm = regexp.MustCompile(`^[A-Z][A-Z0-9_]{2,80}$`)

// exportProfile checks the export profile's feature surface, dry-run
// variable, and that its runtime origins are exactly those the contract's
// HTTP steps call.
func (k *checker) exportProfile(c *contract.Contract, p *contract.ExportProfile) {
	const file = contract.ExportProfileFile
	if id := p.FeatureSurfaceIdentifier; id != "" {
		switch {
		case strings.ContainsAny(id, "\r\n"):
			k.report(RuleFeatureSurface, file, ptr(p.FeatureSurfaceAt, "identifier"), "the identifier must be a single line")
		case utf8.RuneCountInString(id) > 256:
			k.report(RuleFeatureSurface, file, ptr(p.FeatureSurfaceAt, "identifier"), "the identifier must be at most 256 characters")
		case p.FeatureSurfaceKind == "route" && !strings.HasPrefix(id, "/"):
			k.report(RuleFeatureSurface, file, ptr(p.FeatureSurfaceAt, "identifier"), "a route identifier must start with /")
		}
	}
	if v := p.DryRunEnvironmentVariable; v != "" && !dryRunVariableForm.MatchString(v) {
		k.report(RuleDryRunVariable, file, "/dryRunEnvironmentVariable",
			"%q must be 3 to 81 upper-case letters, digits and underscores, starting with a letter", v)
	}

	var used []string // origins the HTTP steps call, in contract order
	for _, cp := range c.Capabilities {
		for _, s := range cp.Implementation.Steps {
			if o, ok := origin(s.URL); ok && !slices.Contains(used, o) {
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
			k.report(RuleOrigins, file, at, "no HTTP step of the contract calls %q", o)
		}
		listed = append(listed, o)
	}
	for _, o := range used {
		if !slices.Contains(listed, o) {
			k.report(RuleOrigins, file, p.AllowedRuntimeOriginsAt, "the contract's HTTP steps call %q, which is not allowed", o)
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
	o, ok := origin(s)
	return ok && o == s
}
