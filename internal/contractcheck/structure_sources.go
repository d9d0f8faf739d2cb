package contractcheck

import (
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// topology checks source-topology.json: the producer searched explicitly
// authorised, portable roots only.
func (k *structure) topology(t *contract.Topology) {
	const file = contract.TopologyFile
	if t.MachineWideDiscovery {
		k.report(RuleTopologyMachineWide, file, child(t.BoundaryAt, "machineWideDiscovery"),
			"machineWideDiscovery must be false: only explicitly authorised roots may be searched")
	}
	ids := make([]string, len(t.Sources))
	for i, s := range t.Sources {
		ids[i] = s.ID
		if s.Root != "" && !contract.PortablePath(s.Root) {
			k.report(RuleTopologyRoot, file, child(s.At, "root"),
				"root %q must be a relative path inside the authorised tree (no leading /, .., backslash or scheme)", s.Root)
		}
	}
	k.uniqueAs(RuleTopologyDuplicate, file, "sourceId", ids, func(i int) string { return ptr(t.Sources[i].At, "sourceId") })
	for _, m := range t.MissingSources {
		if m.Availability == "available" {
			k.report(RuleTopologyMissingPresent, file, child(m.At, "availability"),
				"a missing source cannot be available; use not-found, not-provided, unavailable or partially-available")
		}
	}
}

// sourceRef reports a source ID the topology does not declare. Without a
// decoded topology there is nothing to resolve against.
func (k *structure) sourceRef(at, id string) {
	if k.in.Topology == nil || id == "" {
		return
	}
	if _, ok := k.in.Topology.Source(id); !ok {
		k.contractf(RuleUnknownReference, at, "source %q is not declared in %s", id, contract.TopologyFile)
	}
}

// topologyRef checks that the contract points at the topology.
func (k *structure) topologyRef(c *contract.Contract) {
	ref := c.SourceTopologyRef
	if ref == "" || ref == contract.TopologyFile || (k.in.Topology != nil && ref == k.in.Topology.TopologyID) {
		return
	}
	k.contractf(RuleTopologyRef, "/sourceTopologyRef",
		"sourceTopologyRef %q must be %q or the topology's topologyId", ref, contract.TopologyFile)
}

// featureBoundary checks that the boundary's source lists and inclusion rule
// follow its primary evidence role.
func (k *structure) featureBoundary(c *contract.Contract) {
	b := &c.FeatureBoundary
	primaryKey, rule := "clientSourceIds", "client-observed-only"
	present := b.HasClientSourceIDs
	if b.PrimaryEvidenceRole == contract.BoundaryServiceFeature {
		primaryKey, rule = "serviceSourceIds", "explicitly-scoped-surface"
		present = b.HasServiceSourceIDs
	}
	if b.PrimaryEvidenceRole == "" {
		return // reported by decoding
	}
	if b.InclusionRule != "" && b.InclusionRule != rule {
		k.contractf(RuleFeatureBoundary, child(b.At, "inclusionRule"),
			"a %s boundary uses the inclusion rule %q", b.PrimaryEvidenceRole, rule)
	}
	primary := b.PrimarySourceIDs()
	if !present || len(primary) == 0 {
		k.contractf(RuleFeatureBoundary, b.At, "a %s boundary must list its primary sources in %s", b.PrimaryEvidenceRole, primaryKey)
	}
	for _, list := range []struct {
		key string
		ids []string
	}{{primaryKey, primary}, {"supplementarySourceIds", b.SupplementarySourceIDs}} {
		k.unique("source", list.ids, elementAt(b.At, list.key))
		for i, id := range list.ids {
			k.sourceRef(ptr(b.At, list.key, i), id)
		}
	}
	for i, id := range b.SupplementarySourceIDs {
		if slices.Contains(primary, id) {
			k.contractf(RuleFeatureBoundary, ptr(b.At, "supplementarySourceIds", i),
				"source %q is primary evidence and cannot also be supplementary", id)
		}
	}
}

// evidenceCatalog checks that evidence IDs are unique and name declared
// sources.
func (k *structure) evidenceCatalog(c *contract.Contract) {
	ids := make([]string, len(c.EvidenceCatalog))
	for i, e := range c.EvidenceCatalog {
		ids[i] = e.ID
		k.sourceRef(child(e.At, "sourceId"), e.SourceID)
	}
	k.unique("evidenceId", ids, func(i int) string { return ptr(c.EvidenceCatalog[i].At, "evidenceId") })
}

// freeFormKeys hold JSON Schemas and example or constant values: their
// contents are the business data's, not the contract's, so an
// "evidenceRefs" key inside them is not a reference.
var freeFormKeys = []string{"schema", "value", "values", "enum", "const", "default", "examples"}

// evidenceRefs checks that every evidence reference anywhere in the contract
// names an entry of the catalog: every "evidenceRefs" and "...EvidenceRefs"
// list, and the lists of hardWorkflowEvidence.
func (k *structure) evidenceRefs(c *contract.Contract) {
	// path holds the tokens of the value being walked; its pointer is
	// built only for a finding.
	type token struct {
		key     string
		index   int
		isIndex bool
	}
	var path []token
	pointer := func(i int) string {
		var b strings.Builder
		for _, t := range path {
			b.WriteByte('/')
			if t.isIndex {
				b.WriteString(strconv.Itoa(t.index))
			} else {
				b.WriteString(diag.EscapeToken(t.key))
			}
		}
		return b.String() + "/" + strconv.Itoa(i)
	}
	checkList := func(v canonjson.Value) {
		a, _ := v.(canonjson.Array)
		for i, e := range a {
			if id, ok := e.(canonjson.String); ok && !k.evidenceIDs[string(id)] {
				k.contractf(RuleEvidenceUnknown, pointer(i), "evidence %q is not in the evidence catalog", string(id))
			}
		}
	}
	var walk func(v canonjson.Value)
	walk = func(v canonjson.Value) {
		switch v := v.(type) {
		case *canonjson.Object:
			for key, mv := range v.All() {
				path = append(path, token{key: key})
				switch {
				case key == "evidenceRefs" || strings.HasSuffix(key, "EvidenceRefs"):
					checkList(mv)
				case key == "hardWorkflowEvidence":
					if o, ok := mv.(*canonjson.Object); ok {
						for cat, refs := range o.All() {
							path = append(path, token{key: cat})
							checkList(refs)
							path = path[:len(path)-1]
						}
					}
				case slices.Contains(freeFormKeys, key):
				default:
					walk(mv)
				}
				path = path[:len(path)-1]
			}
		case canonjson.Array:
			for i, e := range v {
				path = append(path, token{index: i, isIndex: true})
				walk(e)
				path = path[:len(path)-1]
			}
		}
	}
	walk(c.Raw)
}

// conflicts checks conflict identities and the capabilities they affect,
// which the verification matrix names.
func (k *structure) conflicts(c *contract.Contract) {
	ids := make([]string, len(c.Conflicts))
	for i, cf := range c.Conflicts {
		ids[i] = cf.ID
		for j, id := range cf.AffectedCapabilityIDs {
			k.capabilityRef(ptr(cf.At, "affectedCapabilityIds", j), id)
		}
	}
	k.unique("conflictId", ids, func(i int) string { return ptr(c.Conflicts[i].At, "conflictId") })
}
