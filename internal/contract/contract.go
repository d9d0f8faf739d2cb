// Package contract is the vNext Portable Core model: Go types for
// canonical-contract.json, source-topology.json, host-profile.json and
// export-profile.json, and their strict decoding.
//
// Decoding is case-sensitive and keeps what derived views depend on: every
// record holds its JSON object (Raw) with the members in the author's order,
// free-form subtrees (JSON Schemas, example and constant values) stay
// canonjson values, and numbers keep their literal text, so 1.0 is not an
// integer. Each record also holds its JSON Pointer (At), so that checks built
// on the model can say exactly where a problem is.
//
// Decoding reports what breaks a file's format as diag findings: malformed
// JSON (JSON_* rules, with line and column), and wrong types, missing or
// empty required fields, values outside a closed vocabulary and fields a
// closed record does not define (FORMAT_* rules, with a JSON Pointer). It
// accumulates findings instead of stopping at the first, and always returns
// as much of the model as it could read. Cross-references, identities and the
// other semantic rules are checked by the packages that use the model.
package contract

import (
	"sync/atomic"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Contract is canonical-contract.json: the single business authority of a
// vNext package.
type Contract struct {
	Raw *canonjson.Object

	// Deferred holds the format findings of decoding that views do not
	// depend on (unknown fields, values outside vocabularies only the
	// semantic checks interpret). derive leaves them to check-contract.
	Deferred diag.List

	SchemaVersion        string
	ContractID           string
	RecordingID          string
	SourceTopologyRef    string
	PortableCore         PortableCore
	FeatureBoundary      FeatureBoundary
	EvidenceCatalog      []Evidence
	Conflicts            []Conflict
	Server               Server
	Capabilities         []Capability
	Handoffs             []Handoff
	CapabilityGraph      Graph
	Goals                []Goal
	ConsumerRequirements []Requirement // consumerRequirements.requirements
	Workflows            []Workflow

	// canonical caches Canonical's result.
	canonical atomic.Pointer[Contract]
}

// PortableCore declares that the contract binds to no language, framework,
// architecture or host.
type PortableCore struct {
	At                  string
	LanguageBinding     string
	FrameworkBinding    string
	ArchitectureBinding string
	HostBinding         string
	DiscoveryBasis      string
}

// FeatureBoundary says which sources define the feature's surface and which
// only supplement it.
type FeatureBoundary struct {
	Raw *canonjson.Object
	At  string

	ScopeKind           string
	PrimaryEvidenceRole string // BoundaryClientFeature or BoundaryServiceFeature
	BackendEvidenceRole string
	InclusionRule       string

	ClientSourceIDs        []string
	HasClientSourceIDs     bool
	ServiceSourceIDs       []string
	HasServiceSourceIDs    bool
	SupplementarySourceIDs []string
}

// PrimarySourceIDs returns the source list the boundary's primary evidence
// role names.
func (b *FeatureBoundary) PrimarySourceIDs() []string {
	if b.PrimaryEvidenceRole == BoundaryServiceFeature {
		return b.ServiceSourceIDs
	}
	return b.ClientSourceIDs
}

// Evidence is one entry of the evidence catalog.
type Evidence struct {
	Raw *canonjson.Object
	At  string

	ID             string
	SourceID       string
	Locator        string
	SemanticRole   string
	AssertionLevel string
	// Claim says what the cited source does, in the author's words: what
	// the evidence is cited for. "" when absent.
	Claim string
}

// Conflict records two or more pieces of evidence that disagree.
type Conflict struct {
	Raw *canonjson.Object
	At  string

	ID                    string
	Claim                 string
	HasClaim              bool
	Status                string
	AffectedCapabilityIDs []string
	Resolution            canonjson.Value // a string or an object; nil when absent
	EvidenceRefs          []string
}

// Server names the MCP server the package exposes.
type Server struct {
	Raw *canonjson.Object
	At  string

	Name         string
	Description  string
	EvidenceRefs []string
}

// Requirement is a Host facility some capability needs.
type Requirement struct {
	Raw *canonjson.Object
	At  string

	ID             string
	HostCapability string
	Description    string
	OnMissing      string
}

// DecodeContract decodes canonical-contract.json. file names the document in
// findings. The contract is nil only when the JSON itself is unreadable.
func DecodeContract(file string, data []byte) (*Contract, *diag.List) {
	rd := &reader{file: file}
	r, ok := rd.decodeRoot(data)
	if !ok {
		return nil, &rd.diags
	}
	return decodeContract(rd, r), &rd.diags
}

// decodeContract reads the contract from its top-level record.
func decodeContract(rd *reader, r *record) *Contract {
	c := &Contract{Raw: r.obj}
	c.SchemaVersion = r.enum("schemaVersion", req, vocabVNext)
	c.ContractID = r.str("contractId", req)
	c.RecordingID = r.str("recordingId", req)
	c.SourceTopologyRef = r.str("sourceTopologyRef", req)
	c.PortableCore = decodePortableCore(r.object("portableCore", req))
	c.FeatureBoundary = decodeFeatureBoundary(r.object("featureBoundary", req))
	c.Conflicts = records(r, "conflicts", req, decodeConflict)
	c.EvidenceCatalog = records(r, "evidenceCatalog", req, decodeEvidence)
	c.Server = decodeServer(r.object("server", req))
	c.Capabilities = records(r, "capabilities", some, decodeCapability)
	c.Handoffs = records(r, "handoffs", req, decodeHandoff)
	c.CapabilityGraph = decodeGraph(r.object("capabilityGraph", req))
	c.Goals = records(r, "goals", req, decodeGoal)
	cr := r.object("consumerRequirements", req)
	c.ConsumerRequirements = records(cr, "requirements", req, decodeRequirement)
	cr.open()
	c.Workflows = records(r, "workflows", req, decodeWorkflow)
	r.open()
	c.Deferred = rd.deferred
	return c
}

func decodePortableCore(r *record) PortableCore {
	p := PortableCore{
		At:                  r.at,
		LanguageBinding:     r.enum("languageBinding", req, vocabNone),
		FrameworkBinding:    r.enum("frameworkBinding", req, vocabNone),
		ArchitectureBinding: r.enum("architectureBinding", req, vocabNone),
		HostBinding:         r.enum("hostBinding", req, vocabNone),
		DiscoveryBasis:      r.enum("discoveryBasis", req, vocabDiscovery),
	}
	r.closed()
	return p
}

func decodeFeatureBoundary(r *record) FeatureBoundary {
	b := FeatureBoundary{
		Raw:                 r.obj,
		At:                  r.at,
		ScopeKind:           r.enum("scopeKind", req, vocabScopeKind),
		PrimaryEvidenceRole: r.enum("primaryEvidenceRole", req, vocabPrimaryRole),
		BackendEvidenceRole: r.enum("backendEvidenceRole", req, vocabBackendRole),
		InclusionRule:       r.enum("inclusionRule", req, vocabInclusionRule),
	}
	b.HasClientSourceIDs = r.has("clientSourceIds")
	b.ClientSourceIDs = r.strs("clientSourceIds", opt)
	b.HasServiceSourceIDs = r.has("serviceSourceIds")
	b.ServiceSourceIDs = r.strs("serviceSourceIds", opt)
	b.SupplementarySourceIDs = r.strs("supplementarySourceIds", opt)
	r.open()
	return b
}

func decodeEvidence(r *record) Evidence {
	e := Evidence{
		Raw:            r.obj,
		At:             r.at,
		ID:             r.str("evidenceId", req),
		SourceID:       r.str("sourceId", req),
		Locator:        r.str("locator", req),
		SemanticRole:   r.str("semanticRole", req),
		AssertionLevel: r.enum("assertionLevel", req, vocabAssertion),
		Claim:          r.str("claim", opt),
	}
	r.open()
	return e
}

func decodeConflict(r *record) Conflict {
	c := Conflict{Raw: r.obj, At: r.at}
	c.ID = r.str("conflictId", req)
	c.HasClaim = r.has("claim")
	c.Claim = r.str("claim", opt)
	c.Status = r.enum("status", req, vocabConflict)
	c.AffectedCapabilityIDs = r.strs("affectedCapabilityIds", some)
	c.Resolution = r.value("resolution", opt)
	c.EvidenceRefs = r.strs("evidenceRefs", req)
	r.open()
	return c
}

func decodeServer(r *record) Server {
	s := Server{
		Raw:          r.obj,
		At:           r.at,
		Name:         r.str("name", req),
		Description:  r.str("description", req),
		EvidenceRefs: r.strs("evidenceRefs", req),
	}
	r.open()
	return s
}

func decodeRequirement(r *record) Requirement {
	q := Requirement{
		Raw:            r.obj,
		At:             r.at,
		ID:             r.str("requirementId", req),
		HostCapability: r.str("hostCapability", req),
		Description:    r.str("description", req),
		OnMissing:      r.enum("onMissing", req, vocabOnMissing),
	}
	r.open()
	return q
}

// Capability returns the capability with the given ID.
func (c *Contract) Capability(id string) (*Capability, bool) {
	return find(c.Capabilities, func(x *Capability) bool { return x.ID == id })
}

// Requirement returns the consumer requirement with the given ID.
func (c *Contract) Requirement(id string) (*Requirement, bool) {
	return find(c.ConsumerRequirements, func(x *Requirement) bool { return x.ID == id })
}

// Evidence returns the catalog entry with the given ID.
func (c *Contract) Evidence(id string) (*Evidence, bool) {
	return find(c.EvidenceCatalog, func(x *Evidence) bool { return x.ID == id })
}

// Workflow returns the workflow with the given ID.
func (c *Contract) Workflow(id string) (*Workflow, bool) {
	return find(c.Workflows, func(x *Workflow) bool { return x.ID == id })
}

// find returns the first item that matches. Lists are short (at most a few
// dozen entries), so a scan beats building an index.
func find[T any](items []T, match func(*T) bool) (*T, bool) {
	for i := range items {
		if match(&items[i]) {
			return &items[i], true
		}
	}
	return nil, false
}
