package contractcheck

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family V: goals, the information a user goal needs, where each piece
// comes from, what it feeds, and which capabilities the goal therefore
// uses. Decoding checks the records and vocabularies; Structure checks goal
// and need identities and the conditional capabilities it can infer.
var (
	RuleGoalPredicate       = diag.Register("CONTRACT_GOAL_PREDICATE", diag.Error, "a completion predicate names unknown needs, an all-satisfied predicate does not list exactly the goal's needs, or an any-satisfied predicate leaves a non-optional need out")
	RuleGoalNeedSchema      = diag.Register("CONTRACT_GOAL_NEED_SCHEMA", diag.Error, "an object or array need declares no schema, or its schema's type differs from the need's type")
	RuleGoalNeedCondition   = diag.Register("CONTRACT_GOAL_NEED_CONDITION", diag.Error, "a requiredWhen need has no condition, another need has one, or a condition depends on an optional need")
	RuleGoalSource          = diag.Register("CONTRACT_GOAL_SOURCE", diag.Error, "a need's source is repeated, names an output its capability does not declare or of another schema, or lets the user supply derived or dynamic information")
	RuleGoalSourceAlignment = diag.Register("CONTRACT_GOAL_SOURCE_ALIGNMENT", diag.Error, "a need's source does not match the strategies of an input it supplies (user with user, trusted context with the same requirement, a capability with its upstream-tool strategy)")
	RuleGoalSupply          = diag.Register("CONTRACT_GOAL_SUPPLY", diag.Error, "a need supplies an input outside the goal's capabilities, with an incompatible mapping, or an optional need supplies a required input")
	RuleGoalSupplyCoverage  = diag.Register("CONTRACT_GOAL_SUPPLY_COVERAGE", diag.Error, "a required or conditional input of a goal capability is supplied by no need, or by more than one")
	RuleGoalReuse           = diag.Register("CONTRACT_GOAL_REUSE", diag.Error, "a derived, dynamic or requiredWhen need declares no reuseWhile, a claim is not true, or a claim its provider's scoping implies is missing")
	RuleGoalConditionalIn   = diag.Register("CONTRACT_GOAL_CONDITIONAL_INPUT", diag.Error, "a conditional input is supplied by a need that is not requiredWhen under one of the input's own conditions")
	RuleGoalCycle           = diag.Register("CONTRACT_GOAL_CYCLE", diag.Error, "a goal's needs, their providers and what they supply depend on each other in a cycle")
	RuleGoalCapabilityLists = diag.Register("CONTRACT_GOAL_CAPABILITY_LISTS", diag.Error, "a goal lists a capability twice, as both required and optional, or a conditional one that is not optional or not linked to a requiredWhen need's condition")
	RuleGoalCapabilitySets  = diag.Register("CONTRACT_GOAL_CAPABILITY_SETS", diag.Error, "a goal's required, optional or conditional capabilities differ from what its needs and workflow imply")
	RuleGoalCoversGraph     = diag.Register("CONTRACT_GOAL_COVERS_GRAPH", diag.Error, "a capability of the graph serves no goal")
)

// sourceKey identifies a need source for duplicate detection.
func sourceKey(s *contract.NeedSource) string {
	return s.Kind + "\x00" + s.RequirementID + "\x00" + s.CapabilityID + "\x00" + strings.Join(s.OutputPath, "\x00")
}

func (k *checker) goals() {
	served := map[string]bool{}
	for i := range k.c.Goals {
		g := &k.c.Goals[i]
		k.goal(g)
		for _, id := range slices.Concat(g.RequiredCapabilityIDs, g.OptionalCapabilityIDs) {
			served[id] = true
		}
		for _, cc := range g.ConditionalCapabilityIDs {
			served[cc.CapabilityID] = true
		}
	}
	for _, n := range k.c.CapabilityGraph.Nodes {
		if _, ok := k.caps[n.CapabilityID]; ok && !served[n.CapabilityID] {
			k.contractf(RuleGoalCoversGraph, child(n.At, "capabilityId"), "capability %q serves no goal; add it to a goal that needs it, or remove it", n.CapabilityID)
		}
	}
}

func (k *checker) goal(g *contract.Goal) {
	members := k.goalLists(g)
	k.predicate(g)
	sc := condScope{
		what: "need",
		root: func(id string) (canonjson.Value, bool) {
			n, ok := g.Need(id)
			if !ok {
				return nil, false
			}
			return effective(n.Schema, n.Type), true
		},
		evidence: true,
	}
	deps := map[string][]string{}
	supplied := map[[2]string][]string{} // (capability, input) -> needs supplying it
	var needIDs []string
	for i := range g.InformationNeeds {
		n := &g.InformationNeeds[i]
		needIDs = append(needIDs, n.ID)
		what := "need " + n.ID + " of goal " + g.ID
		k.needSchema(n, what)
		switch {
		case n.Classification == contract.ClassRequiredWhen && n.Condition == nil:
			k.contractf(RuleGoalNeedCondition, n.At, "%s is requiredWhen: state its condition", what)
		case n.Classification != contract.ClassRequiredWhen && n.Condition != nil && n.Classification != "":
			k.contractf(RuleGoalNeedCondition, child(n.At, "condition"), "%s is %s, so it has no condition; make it requiredWhen or drop the condition", what, n.Classification)
		}
		if n.Condition != nil {
			sc.self = n.ID
			k.condition(n.Condition, sc, false)
			for _, r := range roots(n.Condition) {
				if r == n.ID {
					continue
				}
				deps[n.ID] = append(deps[n.ID], r)
				if dep, ok := g.Need(r); ok && dep.Classification == contract.ClassOptional {
					k.contractf(RuleGoalNeedCondition, child(n.Condition.At, "path"), "the condition of %s depends on the optional need %q, which may never be known", what, r)
				}
			}
		}
		k.needSources(g, n, what)
		k.reuse(n, what)
		for j := range n.Supplies {
			s := &n.Supplies[j]
			cp, ok := k.capabilityRef(child(s.At, "capabilityId"), s.CapabilityID)
			if !ok {
				continue
			}
			if !slices.Contains(members, cp.ID) {
				k.contractf(RuleGoalSupply, child(s.At, "capabilityId"), "%s supplies %q, which goal %q does not use; list it in the goal or drop the supply", what, cp.ID, g.ID)
			}
			in, ok := k.inputRef(cp, child(s.At, "inputName"), s.InputName)
			if !ok {
				continue
			}
			key := [2]string{cp.ID, in.Name}
			supplied[key] = append(supplied[key], n.ID)
			if len(supplied[key]) > 1 {
				k.contractf(RuleGoalSupplyCoverage, s.At, "input %q of %q is already supplied by need %q; each input is supplied by exactly one need", in.Name, cp.ID, supplied[key][0])
			}
			if why := supplyCompatible(s.MappingKind, effective(n.Schema, n.Type), inputSchema(in)); why != "" {
				k.contractf(RuleGoalSupply, child(s.At, "mappingKind"), "%s into %q of %q: %s", what, in.Name, cp.ID, why)
			}
			if n.Classification == contract.ClassOptional && in.Required {
				k.contractf(RuleGoalSupply, s.At, "the optional %s cannot supply %q of %q, which is always required", what, in.Name, cp.ID)
			}
			k.alignment(n, s, cp, in, what)
			k.conditionalInput(g, n, cp, in, s.At, what)
		}
	}
	if cycle := findCycle(needIDs, deps); cycle != nil {
		n, _ := g.Need(cycle[0])
		k.contractf(RuleConditionCycle, child(n.At, "condition"), "the conditions of goal %q's needs form a cycle: %v", g.ID, cycle)
	}
	k.supplyCoverage(g, members, supplied)
	k.goalCycle(g)
	k.capabilitySets(g)
}

// goalLists checks a goal's capability lists and returns every capability
// the goal uses.
func (k *checker) goalLists(g *contract.Goal) []string {
	var members []string
	for _, list := range []struct {
		key string
		ids []string
	}{{"requiredCapabilityIds", g.RequiredCapabilityIDs}, {"optionalCapabilityIds", g.OptionalCapabilityIDs}} {
		for j, id := range list.ids {
			at := ptr(g.At, list.key, j)
			if slices.Contains(list.ids[:j], id) {
				k.contractf(RuleGoalCapabilityLists, at, "%q is listed twice", id)
				continue
			}
			k.capabilityRef(at, id)
			if list.key == "optionalCapabilityIds" && slices.Contains(g.RequiredCapabilityIDs, id) {
				k.contractf(RuleGoalCapabilityLists, at, "%q is both required and optional in goal %q", id, g.ID)
			}
			members = append(members, id)
		}
	}
	var conditional []string
	for j := range g.ConditionalCapabilityIDs {
		cc := &g.ConditionalCapabilityIDs[j]
		if slices.Contains(conditional, cc.CapabilityID) {
			k.contractf(RuleGoalCapabilityLists, cc.At, "%q is listed twice", cc.CapabilityID)
			continue
		}
		conditional = append(conditional, cc.CapabilityID)
		at := cc.At
		if cc.Condition != nil {
			at = child(cc.At, "capabilityId")
		}
		if _, ok := k.capabilityRef(at, cc.CapabilityID); !ok {
			continue
		}
		members = append(members, cc.CapabilityID)
		if !slices.Contains(g.OptionalCapabilityIDs, cc.CapabilityID) || slices.Contains(g.RequiredCapabilityIDs, cc.CapabilityID) {
			k.contractf(RuleGoalCapabilityLists, at, "conditional capability %q must be optional, and not required, in goal %q", cc.CapabilityID, g.ID)
		}
		linked := k.linkedNeeds(g, cc.CapabilityID)
		switch {
		case len(linked) == 0:
			k.contractf(RuleGoalCapabilityLists, at, "no requiredWhen need of goal %q is provided by or supplies %q, so nothing says when it is needed", g.ID, cc.CapabilityID)
		case cc.Condition != nil:
			if !slices.ContainsFunc(linked, func(n *contract.Need) bool {
				return n.Condition != nil && canonjson.Equal(withoutEvidence(n.Condition.Raw), withoutEvidence(cc.Condition.Raw))
			}) {
				k.contractf(RuleGoalCapabilityLists, child(cc.At, "condition"), "the condition of %q differs from that of every requiredWhen need it is linked to (%s)", cc.CapabilityID, needNames(linked))
			}
			sc := condScope{what: "need", root: func(id string) (canonjson.Value, bool) {
				n, ok := g.Need(id)
				if !ok {
					return nil, false
				}
				return effective(n.Schema, n.Type), true
			}, evidence: true}
			k.condition(cc.Condition, sc, false)
		}
	}
	return members
}

// linkedNeeds returns the requiredWhen needs a capability provides or is
// supplied by.
func (k *checker) linkedNeeds(g *contract.Goal, id string) []*contract.Need {
	var out []*contract.Need
	for i := range g.InformationNeeds {
		n := &g.InformationNeeds[i]
		if n.Classification != contract.ClassRequiredWhen {
			continue
		}
		if slices.ContainsFunc(n.SatisfiedBy, func(s contract.NeedSource) bool {
			return s.Kind == contract.SatisfiedByCapability && s.CapabilityID == id
		}) ||
			slices.ContainsFunc(n.Supplies, func(s contract.Supply) bool { return s.CapabilityID == id }) {
			out = append(out, n)
		}
	}
	return out
}

func needNames(needs []*contract.Need) string {
	var ids []string
	for _, n := range needs {
		ids = append(ids, n.ID)
	}
	return strings.Join(ids, ", ")
}

// predicate checks the needs and workflow a completion predicate names.
func (k *checker) predicate(g *contract.Goal) {
	p := &g.CompletionPredicate
	for j, id := range p.InformationIDs {
		if _, ok := g.Need(id); !ok && id != "" {
			k.contractf(RuleUnknownReference, ptr(p.At, "informationIds", j), "goal %q has no information need %q", g.ID, id)
		}
	}
	switch p.Operator {
	case contract.PredicateAllSatisfied:
		for _, n := range g.InformationNeeds {
			if n.ID != "" && !slices.Contains(p.InformationIDs, n.ID) {
				k.contractf(RuleGoalPredicate, child(p.At, "informationIds"), "an all-satisfied predicate lists every need of goal %q; %q is missing", g.ID, n.ID)
			}
		}
	case contract.PredicateAnySatisfied:
		for _, n := range g.InformationNeeds {
			if n.ID != "" && !slices.Contains(p.InformationIDs, n.ID) && n.Classification != contract.ClassOptional {
				k.contractf(RuleGoalPredicate, child(p.At, "informationIds"),
					"need %q of goal %q is not among the any-satisfied alternatives, so it must be optional", n.ID, g.ID)
			}
		}
	case contract.PredicateWorkflowCompleted:
		if _, ok := k.wfs[p.WorkflowID]; !ok && p.WorkflowID != "" {
			k.contractf(RuleUnknownReference, child(p.At, "workflowId"), "workflow %q is not declared", p.WorkflowID)
		}
	}
}

// needSchema checks a need's type and schema.
func (k *checker) needSchema(n *contract.Need, what string) {
	switch s := n.Schema.(type) {
	case nil:
		if n.Type == "object" || n.Type == "array" {
			k.contractf(RuleGoalNeedSchema, n.At, "%s is an %s: declare its schema", what, n.Type)
		}
	case *canonjson.Object:
		if t, ok := s.Get("type"); ok && n.Type != "" && !canonjson.Equal(t, canonjson.String(n.Type)) {
			k.contractf(RuleGoalNeedSchema, ptr(n.At, "schema", "type"), "the schema of %s has the type %s; the need is a %s", what, show(t), n.Type)
		}
	default:
		k.contractf(RuleGoalNeedSchema, child(n.At, "schema"), "the schema of %s must be an object", what)
	}
}

// needSources checks where a need's value may come from.
func (k *checker) needSources(g *contract.Goal, n *contract.Need, what string) {
	var seen []string
	system := n.Classification == contract.ClassDerived || n.Classification == contract.ClassDynamic
	for j := range n.SatisfiedBy {
		s := &n.SatisfiedBy[j]
		key := sourceKey(s)
		if slices.Contains(seen, key) {
			k.contractf(RuleGoalSource, s.At, "this source of %s is listed twice", what)
			continue
		}
		seen = append(seen, key)
		switch s.Kind {
		case contract.SatisfiedByUser:
			if system {
				k.contractf(RuleGoalSource, s.At, "%s is %s: it comes from a capability output or trusted Host context, never from the user", what, n.Classification)
			}
		case contract.SatisfiedByTrusted:
			switch {
			case s.RequirementID != "":
				k.requirementRef(child(s.At, "requirementId"), s.RequirementID)
			case system || len(n.SatisfiedBy) == 1:
				k.contractf(RuleGoalSource, s.At, "trusted Host context for %s names its requirementId", what)
			}
		case contract.SatisfiedByCapability:
			cp, ok := k.capabilityRef(child(s.At, "capabilityId"), s.CapabilityID)
			if !ok || len(s.OutputPath) == 0 {
				continue
			}
			source, declared := outputSchema(cp, s.OutputPath)
			switch {
			case !declared:
				k.contractf(RuleGoalSource, child(s.At, "outputPath"), "%q declares no output at %s; name a declared output path exactly", cp.ID, quote(s.OutputPath))
			case !sameSchema(source, effective(n.Schema, n.Type)):
				k.contractf(RuleGoalSource, child(s.At, "outputPath"), "the output %s of %q has another schema than %s", quote(s.OutputPath), cp.ID, what)
			}
		}
	}
}

// supplyCompatible says whether a need's value can feed an input by the
// mapping kind, and why not: direct needs equal schemas, append-to-array
// appends the need to an array input of such values, select-one picks the
// input from a need that is a list of them.
func supplyCompatible(kind string, need, input canonjson.Value) string {
	switch kind {
	case "direct":
		if !sameSchema(need, input) {
			return "a direct supply needs equal schemas; the need's and the input's differ"
		}
	case "append-to-array":
		items, ok := schemaAt(input, []string{"*"})
		if !slices.Contains(schemaTypes(input), "array") || !ok || !sameSchema(need, items) {
			return "append-to-array needs an array input whose items have the need's schema"
		}
	case "select-one":
		items, ok := schemaAt(need, []string{"*"})
		if !slices.Contains(schemaTypes(need), "array") || !ok || !sameSchema(items, input) {
			return "select-one needs an array need whose items have the input's schema"
		}
	}
	return ""
}

// alignment checks that each source of a need is one of the ways the input
// it supplies may be obtained.
func (k *checker) alignment(n *contract.Need, s *contract.Supply, cp *contract.Capability, in *contract.Input, what string) {
	for j := range n.SatisfiedBy {
		src := &n.SatisfiedBy[j]
		ok := false
		switch src.Kind {
		case contract.SatisfiedByUser:
			ok = in.HasStrategy(contract.StrategyUser)
		case contract.SatisfiedByTrusted:
			ok = slices.ContainsFunc(in.SourceStrategies, func(st contract.Strategy) bool {
				return st.Kind == contract.StrategyTrustedHostContext && (st.RequirementID == src.RequirementID || src.RequirementID == "")
			}) || src.RequirementID == contract.RequirementAttachmentResolution && in.HasStrategy(contract.StrategyHostApprovedAttachment)
		case contract.SatisfiedByCapability:
			ok = slices.ContainsFunc(in.SourceStrategies, func(st contract.Strategy) bool {
				return st.Kind == contract.StrategyUpstreamTool && st.CapabilityID == src.CapabilityID && slices.Equal(st.OutputPath, src.OutputPath)
			})
		default:
			ok = true // an unknown kind is reported by decoding
		}
		if !ok {
			k.contractf(RuleGoalSourceAlignment, src.At,
				"%s may come from %s, but input %q of %q, which it supplies, has no matching source strategy", what, describeSource(src), in.Name, cp.ID)
		}
	}
}

func describeSource(s *contract.NeedSource) string {
	switch s.Kind {
	case contract.SatisfiedByTrusted:
		return "trusted Host context " + s.RequirementID
	case contract.SatisfiedByCapability:
		return "output " + quote(s.OutputPath) + " of " + s.CapabilityID
	}
	return "the " + s.Kind
}

// conditionalInput checks that an input of the requiredWhen class is
// supplied by a requiredWhen need under one of the input's own conditions.
func (k *checker) conditionalInput(g *contract.Goal, n *contract.Need, cp *contract.Capability, in *contract.Input, at, what string) {
	if in.InformationClass != contract.ClassRequiredWhen || len(in.RequiredWhen) == 0 {
		return
	}
	if n.Classification != contract.ClassRequiredWhen || n.Condition == nil {
		k.contractf(RuleGoalConditionalIn, at, "input %q of %q is required only when a condition holds: supply it from a requiredWhen need with that condition, not the %s %s", in.Name, cp.ID, n.Classification, what)
		return
	}
	renamed := renameRoots(n.Condition.Raw, func(needID string) string {
		if dep, ok := g.Need(needID); ok {
			for _, s := range dep.Supplies {
				if s.CapabilityID == cp.ID {
					return s.InputName
				}
			}
		}
		return needID
	})
	if !slices.ContainsFunc(in.RequiredWhen, func(c contract.Condition) bool {
		return canonjson.Equal(withoutEvidence(c.Raw), withoutEvidence(renamed))
	}) {
		k.contractf(RuleGoalConditionalIn, child(n.At, "condition"),
			"the condition of %s, read as inputs of %q, is none of the requiredWhen conditions of %q", what, cp.ID, in.Name)
	}
}

// renameRoots returns a condition with the first segment of every leaf
// path renamed.
func renameRoots(v canonjson.Value, rename func(string) string) canonjson.Value {
	switch v := v.(type) {
	case *canonjson.Object:
		out := &canonjson.Object{}
		for key, mv := range v.All() {
			if key == "path" {
				if a, ok := mv.(canonjson.Array); ok && len(a) > 0 {
					if s, ok := a[0].(canonjson.String); ok {
						p := slices.Clone(a)
						p[0] = canonjson.String(rename(string(s)))
						out.Set(key, p)
						continue
					}
				}
			}
			out.Set(key, renameRoots(mv, rename))
		}
		return out
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = renameRoots(e, rename)
		}
		return out
	}
	return v
}

// supplyCoverage checks that every required or conditional input of the
// goal's capabilities is supplied.
func (k *checker) supplyCoverage(g *contract.Goal, members []string, supplied map[[2]string][]string) {
	done := map[string]bool{}
	for _, id := range members {
		cp, ok := k.caps[id]
		if !ok || done[id] {
			continue
		}
		done[id] = true
		for _, in := range cp.Inputs {
			if !in.Required && in.InformationClass != contract.ClassRequiredWhen {
				continue
			}
			if len(supplied[[2]string{cp.ID, in.Name}]) == 0 {
				k.contractf(RuleGoalSupplyCoverage, child(g.At, "informationNeeds"),
					"goal %q uses %q, whose input %q no need supplies; add the need that provides it", g.ID, cp.ID, in.Name)
			}
		}
	}
}

// reuse checks a need's reuse claims.
func (k *checker) reuse(n *contract.Need, what string) {
	needed := n.Classification == contract.ClassDerived || n.Classification == contract.ClassDynamic || n.Classification == contract.ClassRequiredWhen
	rw := n.ReuseWhile
	if rw == nil {
		if needed {
			k.contractf(RuleGoalReuse, n.At, "%s is %s: declare reuseWhile, the claims under which an obtained value may be reused", what, n.Classification)
		}
		return
	}
	raw, _ := member[*canonjson.Object](n.Raw, "reuseWhile")
	trueClaims := 0
	for key, v := range raw.All() {
		if key == "evidenceRefs" {
			continue
		}
		if b, ok := v.(canonjson.Bool); ok && !bool(b) {
			k.contractf(RuleGoalReuse, ptr(rw.At, key), "a reuse claim is asserted true or left out; %s: false means nothing", key)
		} else if ok {
			trueClaims++
		}
	}
	if trueClaims == 0 {
		k.contractf(RuleGoalReuse, rw.At, "reuseWhile of %s asserts no claim", what)
	}
	k.facts(rw.At, rw.EvidenceRefs, "reuseWhile of "+what)
	claims := map[string]bool{
		"sameSubject": rw.SameSubject, "sameTenant": rw.SameTenant, "sameSession": rw.SameSession,
		"notExpired": rw.NotExpired, "notConsumed": rw.NotConsumed,
	}
	for _, s := range n.SatisfiedBy {
		if s.Kind != contract.SatisfiedByCapability {
			continue
		}
		cp, ok := k.caps[s.CapabilityID]
		if !ok {
			continue
		}
		for _, want := range impliedClaims(cp, s.OutputPath) {
			if !claims[want.claim] {
				k.contractf(RuleGoalReuse, rw.At, "reuseWhile of %s must claim %s: %s", what, want.claim, want.why)
			}
		}
	}
}

type claim struct{ claim, why string }

// impliedClaims returns the reuse claims a provider output's scoping
// implies.
func impliedClaims(cp *contract.Capability, path []string) []claim {
	var out []claim
	if d := providerDomain(cp, path); d != nil && d.Kind == contract.DomainDynamic {
		if d.IdentityScoped {
			out = append(out, claim{"sameSubject", "the value is scoped to the identity"})
		}
		if d.TenantScoped {
			out = append(out, claim{"sameTenant", "the value is scoped to the tenant"})
		}
		if d.SessionScoped {
			out = append(out, claim{"sameSession", "the value is scoped to the session"})
		}
		if f := d.Freshness; f != nil && (f.HasTTLSeconds || slices.ContainsFunc(f.RefreshWhen, func(ev string) bool { return strings.Contains(strings.ToLower(ev), "expir") })) {
			out = append(out, claim{"notExpired", "the value expires"})
		}
	}
	if a := cp.Attachments; a != nil && a.ResultBinding != nil && slices.Equal(a.ResultBinding.OutputPath, path) {
		rb := a.ResultBinding
		if rb.SubjectScoped {
			out = append(out, claim{"sameSubject", "the upload result is bound to its subject"})
		}
		if rb.SessionScoped {
			out = append(out, claim{"sameSession", "the upload result is bound to its session"})
		}
		if rb.Reuse == "single-use" {
			out = append(out, claim{"notConsumed", "the upload result is single-use"})
		}
	}
	return out
}

// goalCycle checks that acquiring, supplying and activating the goal's
// needs cannot depend on itself.
func (k *checker) goalCycle(g *contract.Goal) {
	deps := map[string][]string{}
	var nodes []string
	known := map[string]bool{}
	add := func(from, to string) {
		for _, n := range []string{from, to} {
			if !known[n] {
				known[n] = true
				nodes = append(nodes, n)
			}
		}
		deps[from] = append(deps[from], to)
	}
	for _, n := range g.InformationNeeds {
		need := "need " + n.ID
		for _, s := range n.SatisfiedBy {
			if s.Kind == contract.SatisfiedByCapability {
				add("capability "+s.CapabilityID, need)
			}
		}
		for _, s := range n.Supplies {
			add(need, "capability "+s.CapabilityID)
		}
		if n.Condition != nil {
			for _, r := range roots(n.Condition) {
				if r != n.ID {
					add("need "+r, need)
				}
			}
		}
	}
	if cycle := findCycle(nodes, deps); cycle != nil {
		k.contractf(RuleGoalCycle, child(g.At, "informationNeeds"), "the needs of goal %q depend on themselves: %s", g.ID, strings.Join(cycle, " -> "))
	}
}

// capabilitySets checks a goal's capability lists against those its needs
// and workflow imply.
func (k *checker) capabilitySets(g *contract.Goal) {
	var required, optional, conditional []string
	add := func(set *[]string, id string) {
		if id != "" && !slices.Contains(*set, id) {
			*set = append(*set, id)
		}
	}
	anySatisfied := g.CompletionPredicate.Operator == contract.PredicateAnySatisfied
	for _, n := range g.InformationNeeds {
		place := func(id string, alternatives int) {
			switch {
			case n.Classification == contract.ClassRequiredWhen:
				add(&optional, id)
			case anySatisfied, n.Classification == contract.ClassOptional, alternatives > 1:
				add(&optional, id)
			default:
				add(&required, id)
			}
		}
		for _, s := range n.SatisfiedBy {
			if s.Kind == contract.SatisfiedByCapability {
				place(s.CapabilityID, len(n.SatisfiedBy))
			}
		}
		// A capability whose success carries no output provides no need:
		// the goal uses it as its action, through the needs that supply
		// its inputs.
		for _, s := range n.Supplies {
			if cp, ok := k.caps[s.CapabilityID]; ok && len(cp.Outputs) == 0 {
				place(s.CapabilityID, 1)
			}
		}
	}
	for _, id := range InferredConditional(k.c, g) {
		add(&optional, id)
		add(&conditional, id)
	}
	if g.CompletionPredicate.Operator == contract.PredicateWorkflowCompleted {
		if w, ok := k.wfs[g.CompletionPredicate.WorkflowID]; ok {
			add(&required, w.EntryCapabilityID)
		}
	}
	optional = slices.DeleteFunc(optional, func(id string) bool { return slices.Contains(required, id) })
	conditional = slices.DeleteFunc(conditional, func(id string) bool { return slices.Contains(required, id) })
	var declaredConditional []string
	for _, cc := range g.ConditionalCapabilityIDs {
		declaredConditional = append(declaredConditional, cc.CapabilityID)
	}
	for _, set := range []struct {
		key            string
		want, declared []string
	}{
		{"requiredCapabilityIds", required, g.RequiredCapabilityIDs},
		{"optionalCapabilityIds", optional, g.OptionalCapabilityIDs},
		{"conditionalCapabilityIds", conditional, declaredConditional},
	} {
		for _, id := range set.want {
			if !slices.Contains(set.declared, id) {
				k.contractf(RuleGoalCapabilitySets, ptr(g.At, set.key), "goal %q must list %q in %s, as its needs and workflow imply", g.ID, id, set.key)
			}
		}
		for j, id := range set.declared {
			if _, known := k.caps[id]; known && !slices.Contains(set.want, id) {
				k.contractf(RuleGoalCapabilitySets, ptr(g.At, set.key, j),
					"nothing in goal %q puts %q in %s: it provides none of the goal's needs (add the need its result satisfies), is not the workflow's entry, and is not an action without output whose inputs the goal's needs supply", g.ID, id, set.key)
			}
		}
	}
}
