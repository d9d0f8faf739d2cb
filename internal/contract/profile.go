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
	// HostRuntime is nil when the profile declares none.
	HostRuntime *HostRuntime
}

// HostRuntime is the export profile's hostRuntime: how a standard MCP stdio
// host that runs the package through its reviewed host runtime
// (portable-host-runtime.mjs) serves it, in the environment variables the
// host's MCP configuration sets.
//
//	"hostRuntime": {
//	  "baseUrlVariables": {"https://desk.example": "DESK_BASE_URL"},
//	  "credentials": {
//	    "runtime_context": {"variable": "DESK_TOKEN", "header": "Authorization", "scheme": "Bearer"},
//	    "cookie_session": {"variable": "DESK_SESSION", "cookie": "session"}
//	  },
//	  "subjectVariable": "DESK_MEMBER_ID"
//	}
type HostRuntime struct {
	At string

	// BaseURLVariables map each allowed runtime origin to the variable
	// holding the base URL it is deployed at, in document order.
	BaseURLVariables []OriginVariable
	// Credentials say, per authentication kind, which variable holds the
	// credential and how a request carries it, in document order.
	Credentials []HostCredential
	// SubjectVariable holds the subject the deployment acts for (the
	// deployer's claim); "" when absent.
	SubjectVariable   string
	SubjectVariableAt string
}

// OriginVariable is one member of hostRuntime.baseUrlVariables.
type OriginVariable struct {
	At       string
	Origin   string
	Variable string
}

// HostCredential is one member of hostRuntime.credentials: a header
// (Header, with an optional Scheme before the credential) or a cookie.
type HostCredential struct {
	At             string
	Authentication string
	Variable       string
	Header         string
	Scheme         string
	Cookie         string
}

// Credential returns the credential of an authentication kind.
func (h *HostRuntime) Credential(kind string) (*HostCredential, bool) {
	return find(h.Credentials, func(c *HostCredential) bool { return c.Authentication == kind })
}

// BaseURLVariable returns the base URL variable of an origin, or "".
func (h *HostRuntime) BaseURLVariable(origin string) string {
	if o, ok := find(h.BaseURLVariables, func(o *OriginVariable) bool { return o.Origin == origin }); ok {
		return o.Variable
	}
	return ""
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
	if r.has("hostRuntime") {
		p.HostRuntime = decodeHostRuntime(r.object("hostRuntime", opt))
	}
	r.forbid("pageRoute", "vNext packages describe their surface in featureSurface and references/feature-context.md")
	r.open()
	p.Deferred = rd.deferred
	return p, &rd.diags
}

// decodeHostRuntime reads the export profile's hostRuntime: a closed record
// whose two maps are keyed by origin and by authentication kind.
func decodeHostRuntime(r *record) *HostRuntime {
	h := &HostRuntime{At: r.at}
	if m := r.object("baseUrlVariables", req); m.obj != nil {
		for origin, v := range m.obj.All() {
			at := child(m.at, origin)
			h.BaseURLVariables = append(h.BaseURLVariables, OriginVariable{
				At: at, Origin: origin, Variable: r.rd.str(v, loc{parent: m.at, key: origin}, req),
			})
		}
	}
	if m := r.object("credentials", req); m.obj != nil {
		for kind, v := range m.obj.All() {
			cr := r.rd.record(v, child(m.at, kind))
			c := HostCredential{At: cr.at, Authentication: kind}
			c.Variable = cr.str("variable", req)
			c.Header = cr.str("header", opt)
			c.Scheme = cr.str("scheme", opt)
			c.Cookie = cr.str("cookie", opt)
			cr.closed()
			h.Credentials = append(h.Credentials, c)
		}
	}
	h.SubjectVariable = r.str("subjectVariable", opt)
	h.SubjectVariableAt = child(r.at, "subjectVariable")
	r.closed()
	return h
}
