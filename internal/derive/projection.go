package derive

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// The views in this file copy parts of the contract as written: values keep
// the author's key order and number literals.

// bundleCapabilityKeys are the members of a capability the execution bundle
// keeps, in the order it writes them.
var bundleCapabilityKeys = []string{
	"capabilityId", "toolName", "functionExport", "description", "authentication",
	"exposure", "inputs", "outputs", "constraints", "attachments", "errorContract",
	"implementation", "successRule", "sideEffect", "operationPolicy", "annotations",
	"runtimeProtection", "readiness", "evidenceCoverage", "missingEvidence",
	"hostRequirements", "verificationChecks", "evidenceRefs",
}

// handoffKeys are the members of a handoff the execution bundle keeps.
var handoffKeys = []string{"fromCapabilityId", "toCapabilityId", "mappings", "required", "evidenceRefs"}

// documentationCapabilityKeys are the members of a capability the
// documentation view keeps, in the order it writes them.
var documentationCapabilityKeys = []string{
	"capabilityId", "toolName", "functionExport", "description", "authentication",
	"exposure", "inputs", "outputs", "constraints", "attachments", "implementation",
	"successRule", "errorContract", "sideEffect", "operationPolicy", "deployerPolicy", "annotations",
	"runtimeProtection", "hostRequirements", "readiness", "missingEvidence", "evidenceRefs",
}

// evidenceIndexKeys are the members of an evidence entry the documentation
// view keeps.
var evidenceIndexKeys = []string{"evidenceId", "sourceId", "locator", "semanticRole", "assertionLevel"}

// bundle is capability-bundle.json, the execution view of the node-stdio
// profile.
func bundle(c *contract.Contract) *canonjson.Object {
	handoffs := canonjson.Array{}
	for i := range c.Handoffs {
		handoffs = append(handoffs, subset(c.Handoffs[i].Raw, handoffKeys))
	}
	return object(
		m{"schemaVersion", str("v1")},
		m{"recordingId", str(c.RecordingID)},
		m{"featureBoundary", raw(c.FeatureBoundary.Raw)},
		m{"server", raw(c.Server.Raw)},
		m{"capabilities", capabilitySubsets(c, bundleCapabilityKeys)},
		m{"handoffs", handoffs},
	)
}

// capabilityContracts is references/capability-contracts.json, the fact view
// the documents are bound to by its hash.
func capabilityContracts(c *contract.Contract) *canonjson.Object {
	index := canonjson.Array{}
	for i := range c.EvidenceCatalog {
		index = append(index, evidenceEntry(&c.EvidenceCatalog[i]))
	}
	return object(
		m{"schemaVersion", str("vNext")},
		m{"contractId", str(c.ContractID)},
		m{"canonicalContractRef", str(canonicalContractRef)},
		m{"featureBoundary", raw(c.FeatureBoundary.Raw)},
		m{"goals", member(c.Raw, "goals", emptyArray)},
		m{"capabilityGraph", member(c.Raw, "capabilityGraph", canonjson.Null{})},
		m{"handoffs", member(c.Raw, "handoffs", emptyArray)},
		m{"consumerRequirements", member(c.Raw, "consumerRequirements", canonjson.Null{})},
		m{"workflows", member(c.Raw, "workflows", emptyArray)},
		m{"conflicts", member(c.Raw, "conflicts", emptyArray)},
		m{"capabilities", capabilitySubsets(c, documentationCapabilityKeys)},
		m{"evidenceIndex", index},
	)
}

// evidenceEntry is one row of the evidence index: the catalog entry, its
// locator without the line hint. The documentation view, and with it the
// documents' marker, names evidence by what identifies it (source, path,
// symbol), so that an edit above a symbol changes neither.
func evidenceEntry(e *contract.Evidence) canonjson.Value {
	row := subset(e.Raw, evidenceIndexKeys)
	if o, ok := row.(*canonjson.Object); ok {
		if stable := contract.StableLocator(e.Locator); stable != e.Locator {
			o.Set("locator", str(stable))
		}
	}
	return row
}

// capabilitySubsets returns every capability restricted to keys.
func capabilitySubsets(c *contract.Contract, keys []string) canonjson.Array {
	out := canonjson.Array{}
	for i := range c.Capabilities {
		out = append(out, subset(c.Capabilities[i].Raw, keys))
	}
	return out
}

// goalContract is goal-contract.json: the goals, verbatim.
func goalContract(c *contract.Contract) *canonjson.Object {
	return object(
		m{"schemaVersion", str("vNext")},
		m{"contractId", str(c.ContractID)},
		m{"canonicalContractRef", str(canonicalContractRef)},
		m{"goals", member(c.Raw, "goals", emptyArray)},
	)
}

// consumerRequirements is consumer-requirements.json: the requirement
// definitions and which capability needs which.
func consumerRequirements(c *contract.Contract) *canonjson.Object {
	perCapability := canonjson.Array{}
	for i := range c.Capabilities {
		cp := &c.Capabilities[i]
		perCapability = append(perCapability, object(
			m{"capabilityId", str(cp.ID)},
			m{"requirementIds", strs(cp.HostRequirements)},
		))
	}
	var requirements canonjson.Value = emptyArray
	if cr, ok := member(c.Raw, "consumerRequirements", nil).(*canonjson.Object); ok {
		requirements = member(cr, "requirements", emptyArray)
	}
	return object(
		m{"schemaVersion", str("vNext")},
		m{"contractId", str(c.ContractID)},
		m{"canonicalContractRef", str(canonicalContractRef)},
		m{"requirements", requirements},
		m{"capabilityRequirements", perCapability},
	)
}
