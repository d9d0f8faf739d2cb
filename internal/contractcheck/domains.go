package contractcheck

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family H: value domains, which values an input or output may take, and
// freshness, how long an obtained value stays valid.
var (
	RuleDomainDynamicRequired = diag.Register("CONTRACT_DOMAIN_DYNAMIC_REQUIRED", diag.Error, "an input fed by an upstream Tool, or of the dynamic class, does not declare a dynamic value domain")
	RuleDomainSource          = diag.Register("CONTRACT_DOMAIN_SOURCE", diag.Error, "a dynamic input domain names no provider, an unknown provider output, a non-read provider for dynamic information, an incompatible mapping, or no matching upstream-tool strategy")
	RuleDomainScope           = diag.Register("CONTRACT_DOMAIN_SCOPE", diag.Error, "a dynamic input domain does not copy its provider output's dynamic domain: the same identity, tenant and session scoping and the same freshness")
	RuleDomainFrozen          = diag.Register("CONTRACT_DOMAIN_FROZEN", diag.Error, "a dynamic value domain freezes values observed once (values, enum or options)")
	RuleDomainStatic          = diag.Register("CONTRACT_DOMAIN_STATIC", diag.Error, "a static value domain lists a value its schema does not allow")
	RuleFreshness             = diag.Register("CONTRACT_FRESHNESS", diag.Error, "freshness has a ttlSeconds outside 1 to 31536000, no refreshWhen events, or an event that names nothing that can change; or a dynamic domain declares no freshness")
)

// maxTTL is the longest a value may be reused: one year.
const maxTTL = 31_536_000

// refreshStems are the word stems a refreshWhen event must contain: each
// names something whose change invalidates the value.
var refreshStems = []string{
	"subject", "identity", "user", "tenant", "session", "version", "catalog", "source", "policy", "config",
	"payload", "selection", "resource", "record", "data", "expir", "ttl", "consum", "revok", "chang", "updat",
	"invalid", "edit",
}

func (k *checker) domains(cp *contract.Capability) {
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		what := "input " + in.Name + " of " + cp.ID
		d := &in.ValueDomain
		upstream := in.HasStrategy(contract.StrategyUpstreamTool)
		if (upstream || in.InformationClass == contract.ClassDynamic) && d.Kind != "" && d.Kind != contract.DomainDynamic {
			why := "is fed by an upstream Tool"
			if !upstream {
				why = "is dynamic information"
			}
			k.contractf(RuleDomainDynamicRequired, child(d.At, "kind"),
				"%s %s: its value domain must be dynamic, with the provider's scoping and freshness, not %s", what, why, d.Kind)
		}
		k.domain(d, inputSchema(in), what)
		if d.Kind == contract.DomainDynamic {
			k.dynamicSource(cp, in)
		}
		if in.Freshness != nil {
			k.freshness(in.Freshness, what)
		}
	}
}

// domain checks one value domain of a value with the given schema.
func (k *checker) domain(d *contract.ValueDomain, schema canonjson.Value, what string) {
	switch d.Kind {
	case contract.DomainStatic:
		for j, v := range d.Values {
			if why := validate(schema, v); why != "" {
				k.contractf(RuleDomainStatic, ptr(d.At, "values", j), "a static value of %s does not fit its schema: %s", what, why)
			}
		}
		k.facts(d.At, d.EvidenceRefs, "the static value domain of "+what)
	case contract.DomainDynamic:
		for _, key := range []string{"values", "enum", "options"} {
			if d.Raw != nil && d.Raw.Has(key) {
				k.contractf(RuleDomainFrozen, ptr(d.At, key),
					"the dynamic domain of %s lists %s: a dynamic value is obtained when needed, never frozen from one response; remove it", what, key)
			}
		}
		if d.Freshness == nil {
			k.contractf(RuleFreshness, d.At, "the dynamic domain of %s declares no freshness: say how long a value stays valid and what invalidates it", what)
		} else {
			k.freshness(d.Freshness, "the dynamic domain of "+what)
		}
		k.facts(d.At, d.EvidenceRefs, "the dynamic value domain of "+what)
	}
}

// freshness checks a freshness record.
func (k *checker) freshness(f *contract.Freshness, what string) {
	if f.HasTTLSeconds && (f.TTLSeconds < 1 || f.TTLSeconds > maxTTL) {
		k.contractf(RuleFreshness, child(f.At, "ttlSeconds"), "ttlSeconds of %s is %d; use 1 to %d", what, f.TTLSeconds, maxTTL)
	}
	if len(f.RefreshWhen) == 0 {
		k.contractf(RuleFreshness, child(f.At, "refreshWhen"), "freshness of %s lists no refreshWhen event", what)
	}
	for j, ev := range f.RefreshWhen {
		lower := strings.ToLower(ev)
		if !slices.ContainsFunc(refreshStems, func(s string) bool { return strings.Contains(lower, s) }) {
			k.contractf(RuleFreshness, ptr(f.At, "refreshWhen", j),
				"refreshWhen event %q of %s names nothing that changes (a subject, tenant, session, payload, version, expiry, ...)", ev, what)
		}
	}
}

// dynamicSource checks where a dynamic input domain comes from: a declared
// output of a provider one of the input's upstream strategies names, whose
// own dynamic domain the input copies.
func (k *checker) dynamicSource(cp *contract.Capability, in *contract.Input) {
	d := &in.ValueDomain
	what := "input " + in.Name + " of " + cp.ID
	if d.SourceCapabilityID == "" {
		if in.HasStrategy(contract.StrategyUpstreamTool) {
			k.contractf(RuleDomainSource, d.At, "%s is fed by an upstream Tool: its dynamic domain must name sourceCapabilityId, sourcePath and mappingKind", what)
		}
		return
	}
	provider, ok := k.capabilityRef(child(d.At, "sourceCapabilityId"), d.SourceCapabilityID)
	if !ok {
		return
	}
	if in.InformationClass == contract.ClassDynamic && provider.IsWrite() {
		k.contractf(RuleDomainSource, child(d.At, "sourceCapabilityId"),
			"dynamic information of %s must come from a read; %q is a %s", what, provider.ID, provider.SideEffect)
	}
	if !slices.ContainsFunc(in.SourceStrategies, func(s contract.Strategy) bool {
		return s.Kind == contract.StrategyUpstreamTool && s.CapabilityID == d.SourceCapabilityID &&
			slices.Equal(s.OutputPath, d.SourcePath) && s.MappingKind == d.MappingKind
	}) {
		k.contractf(RuleDomainSource, d.At, "the dynamic domain of %s matches none of its upstream-tool strategies (capabilityId, outputPath, mappingKind)", what)
	}
	source, ok := outputSchema(provider, d.SourcePath)
	if !ok {
		k.contractf(RuleDomainSource, child(d.At, "sourcePath"), "%q declares no output at %s", provider.ID, quote(d.SourcePath))
		return
	}
	if why := compatible(d.MappingKind, d.SourcePath, source, inputSchema(in)); why != "" {
		k.contractf(RuleDomainSource, child(d.At, "mappingKind"), "the dynamic domain of %s: %s", what, why)
	}
	pd := providerDomain(provider, d.SourcePath)
	switch {
	case pd == nil:
		k.contractf(RuleDomainScope, child(d.At, "sourcePath"),
			"%q declares no value domain at or above %s: a dynamic input copies its provider's dynamic domain", provider.ID, quote(d.SourcePath))
	case pd.Kind != contract.DomainDynamic:
		k.contractf(RuleDomainScope, child(d.At, "sourcePath"),
			"the output of %q at %s has a %s domain; a dynamic input needs a dynamic provider output", provider.ID, quote(d.SourcePath), pd.Kind)
	default:
		for _, f := range []struct {
			key       string
			got, want bool
		}{
			{"identityScoped", d.IdentityScoped, pd.IdentityScoped},
			{"tenantScoped", d.TenantScoped, pd.TenantScoped},
			{"sessionScoped", d.SessionScoped, pd.SessionScoped},
		} {
			if f.got != f.want {
				k.contractf(RuleDomainScope, ptr(d.At, f.key), "%s is %v for %s but %v for its provider's output; copy the provider's scoping", f.key, f.got, what, f.want)
			}
		}
		if !sameFreshness(d.Freshness, pd.Freshness) {
			k.contractf(RuleDomainScope, child(d.At, "freshness"), "the freshness of %s differs from its provider output's; copy it exactly", what)
		}
	}
}

// sameFreshness reports whether two freshness declarations say the same:
// the same time to live, the same refresh triggers in any order.
func sameFreshness(a, b *contract.Freshness) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := slices.Clone(a.RefreshWhen), slices.Clone(b.RefreshWhen)
	slices.Sort(x)
	slices.Sort(y)
	return a.HasTTLSeconds == b.HasTTLSeconds && a.TTLSeconds == b.TTLSeconds && slices.Equal(x, y)
}

// providerDomain returns the value domain of the output at path, or of its
// nearest declared ancestor that has one.
func providerDomain(cp *contract.Capability, path []string) *contract.ValueDomain {
	for n := len(path); n > 0; n-- {
		if o, ok := output(cp, path[:n]); ok && o.ValueDomain != nil {
			return o.ValueDomain
		}
	}
	return nil
}
