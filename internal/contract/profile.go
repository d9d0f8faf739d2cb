package contract

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Topology is source-topology.json: the source roots the producer was
// authorised to search, and the evidence roles it could not find.
type Topology struct {
	Raw *canonjson.Object

	// Deferred holds the format findings of decoding that views do not
	// depend on (unknown fields, values outside vocabularies only the
	// semantic checks interpret). derive leaves them to check-contract.
	Deferred diag.List

	SchemaVersion        string
	TopologyID           string
	DiscoveryPolicy      string
	MachineWideDiscovery bool
	BoundaryAt           string // pointer of authorizationBoundary
	Sources              []SourceRoot
	MissingSources       []MissingSource
}

// SourceRoot is one authorised source root (an entry of "sources").
type SourceRoot struct {
	At string

	ID            string
	SemanticRoles []string
	Root          string
	Availability  string
	Searched      bool
	SearchSummary string
}

// MissingSource is an evidence role that was searched for and not found.
type MissingSource struct {
	At string

	Availability  string
	SemanticRoles []string
	Reason        string
}

// DecodeTopology decodes source-topology.json. The topology is nil only when
// the JSON itself is unreadable.
func DecodeTopology(file string, data []byte) (*Topology, *diag.List) {
	rd := &reader{file: file}
	r, ok := rd.decodeRoot(data)
	if !ok {
		return nil, &rd.diags
	}
	t := &Topology{Raw: r.obj}
	t.SchemaVersion = r.enum("schemaVersion", req, vocabVNext)
	t.TopologyID = r.str("topologyId", req)
	b := r.object("authorizationBoundary", req)
	t.BoundaryAt = b.at
	t.DiscoveryPolicy = b.enum("discoveryPolicy", req, vocabDiscoveryPolicy)
	t.MachineWideDiscovery, _ = b.boolean("machineWideDiscovery", req)
	b.boolean("portableLocatorsOnly", opt)
	b.open()
	t.Sources = records(r, "sources", req, func(s *record) SourceRoot {
		src := SourceRoot{
			At:            s.at,
			ID:            s.str("sourceId", req),
			SemanticRoles: s.strs("semanticRoles", req),
			Root:          s.str("root", req),
			Availability:  s.enum("availability", req, vocabAvailability),
		}
		src.Searched, _ = s.boolean("searched", req)
		src.SearchSummary = s.str("searchSummary", opt)
		s.open()
		return src
	})
	t.MissingSources = records(r, "missingSources", opt, func(s *record) MissingSource {
		m := MissingSource{
			At:            s.at,
			Availability:  s.enum("availability", req, vocabAvailability),
			SemanticRoles: s.strs("semanticRoles", req),
			Reason:        s.str("reason", req),
		}
		s.open()
		return m
	})
	r.open()
	t.Deferred = rd.deferred
	return t, &rd.diags
}

// Source returns the source root with the given ID.
func (t *Topology) Source(id string) (*SourceRoot, bool) {
	return find(t.Sources, func(x *SourceRoot) bool { return x.ID == id })
}

// HostProfile is host-profile.json: which generic facilities the deployment
// Host provides.
type HostProfile struct {
	Raw *canonjson.Object

	// Deferred holds the format findings of decoding that views do not
	// depend on (unknown fields, values outside vocabularies only the
	// semantic checks interpret). derive leaves them to check-contract.
	Deferred diag.List

	SchemaVersion string
	ProfileID     string
	Description   string
	// Capabilities maps a host capability key (mcpToolInvocation, ...) to its
	// declared facility, in document order.
	Capabilities []HostCapability
}

// HostCapability is one facility of a Host profile. Entries may carry free
// fields besides status.
type HostCapability struct {
	At string

	Key    string
	Status string // supported, external-integration or unsupported
}

// Status returns the declared status of a host capability key.
func (h *HostProfile) Status(key string) (string, bool) {
	for _, c := range h.Capabilities {
		if c.Key == key {
			return c.Status, true
		}
	}
	return "", false
}

// DecodeHostProfile decodes host-profile.json. The profile is nil only when
// the JSON itself is unreadable.
func DecodeHostProfile(file string, data []byte) (*HostProfile, *diag.List) {
	rd := &reader{file: file}
	r, ok := rd.decodeRoot(data)
	if !ok {
		return nil, &rd.diags
	}
	h := &HostProfile{Raw: r.obj}
	h.SchemaVersion = r.enum("schemaVersion", req, vocabVNext)
	h.ProfileID = r.str("profileId", req)
	h.Description = r.str("description", opt)
	if caps := r.object("capabilities", req); caps.obj != nil {
		for key, v := range caps.obj.All() {
			cr := rd.record(v, child(caps.at, key))
			// Entries are open by design: a Host may describe a facility
			// with any further fields.
			h.Capabilities = append(h.Capabilities, HostCapability{
				At:     cr.at,
				Key:    key,
				Status: cr.enum("status", req, vocabHostStatus),
			})
		}
	}
	r.open()
	h.Deferred = rd.deferred
	return h, &rd.diags
}

// ExportProfile is export-profile.json: the node-stdio runtime policy of a
// strict-export-v1 package.
type ExportProfile struct {
	Raw *canonjson.Object

	// Deferred holds the format findings of decoding that views do not
	// depend on (unknown fields, values outside vocabularies only the
	// semantic checks interpret). derive leaves them to check-contract.
	Deferred diag.List

	SchemaVersion             string
	Profile                   string
	ProtocolVersion           string
	Transport                 string
	DocumentationLanguage     string
	FeatureSurfaceKind        string
	FeatureSurfaceIdentifier  string
	FeatureSurfaceAt          string
	AllowedRuntimeOrigins     []string
	AllowedRuntimeOriginsAt   string
	DryRunEnvironmentVariable string // "" when absent
}

// DecodeExportProfile decodes export-profile.json. The profile is nil only
// when the JSON itself is unreadable.
func DecodeExportProfile(file string, data []byte) (*ExportProfile, *diag.List) {
	rd := &reader{file: file}
	r, ok := rd.decodeRoot(data)
	if !ok {
		return nil, &rd.diags
	}
	p := &ExportProfile{Raw: r.obj}
	p.SchemaVersion = r.enum("schemaVersion", req, vocabV1)
	p.Profile = r.enum("profile", req, vocabProfile)
	r.str("runtimeProfileId", opt)
	r.str("portableCoreRef", opt)
	r.object("runtimeBinding", opt) // described by the template, not checked
	p.ProtocolVersion = r.enum("protocolVersion", req, vocabProtocolVersion)
	p.Transport = r.enum("transport", req, vocabTransport)
	p.DocumentationLanguage = r.enum("documentationLanguage", req, vocabDocLanguage)
	fs := r.object("featureSurface", req)
	p.FeatureSurfaceAt = fs.at
	p.FeatureSurfaceKind = fs.enum("kind", req, vocabSurfaceKind)
	p.FeatureSurfaceIdentifier = fs.str("identifier", req)
	fs.open()
	p.AllowedRuntimeOrigins = r.strs("allowedRuntimeOrigins", req)
	p.AllowedRuntimeOriginsAt = "/allowedRuntimeOrigins"
	p.DryRunEnvironmentVariable = r.str("dryRunEnvironmentVariable", opt)
	r.forbid("pageRoute", "vNext packages describe their surface in featureSurface and references/feature-context.md")
	r.open()
	p.Deferred = rd.deferred
	return p, &rd.diags
}
