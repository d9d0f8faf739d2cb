package contract

import "github.com/code2skill/code2skill/internal/canonjson"

// Input is one public argument of a capability.
type Input struct {
	Raw *canonjson.Object
	At  string

	Name               string
	Type               string
	Schema             canonjson.Value // nil when absent
	Description        string
	Required           bool
	InformationClass   string
	SourceStrategies   []Strategy
	ValueDomain        ValueDomain
	RequiredWhen       []Condition
	ForbiddenWhen      []Condition
	Freshness          *Freshness          // nil when absent
	TargetRequiredness *TargetRequiredness // nil when absent
	EvidenceRefs       []string
}

// HasStrategy reports whether any source strategy is of the given kind.
func (in *Input) HasStrategy(kind string) bool {
	for _, s := range in.SourceStrategies {
		if s.Kind == kind {
			return true
		}
	}
	return false
}

// Strategy is one way an input's value may be obtained: a bare kind ("user")
// or an object naming its provider.
type Strategy struct {
	Raw canonjson.Value // a String or an *Object, as written
	At  string

	Kind          string
	RequirementID string   // trusted-host-context
	CapabilityID  string   // upstream-tool
	OutputPath    []string // upstream-tool
	MappingKind   string   // upstream-tool
}

// ValueDomain says which values an input or output may take.
type ValueDomain struct {
	Raw *canonjson.Object
	At  string

	Kind string // static, dynamic or unconstrained; "" when absent

	Values canonjson.Array // static

	// Dynamic domains.
	SourceCapabilityID string
	SourcePath         []string
	MappingKind        string
	IdentityScoped     bool
	TenantScoped       bool
	SessionScoped      bool
	Freshness          *Freshness

	EvidenceRefs []string
}

// Freshness says how long a value stays valid and what invalidates it.
type Freshness struct {
	At string

	TTLSeconds    int64
	HasTTLSeconds bool
	RefreshWhen   []string
}

// TargetRequiredness decides whether a structurally optional input fed by an
// upstream Tool is optional at the target API, or not proven either way.
type TargetRequiredness struct {
	At string

	Status         string
	NormalProvider *Provider // required when Status is unproven
	EvidenceRefs   []string
}

// Provider names the upstream output that normally supplies an input.
type Provider struct {
	CapabilityID string
	OutputPath   []string
	MappingKind  string
}

// Output is one business field of a capability's result, addressed by a path
// inside the Function result's data ("*" addresses every array element).
type Output struct {
	Raw *canonjson.Object
	At  string

	Path         []string
	Type         string
	Schema       canonjson.Value // nil when absent
	Description  string
	ValueDomain  *ValueDomain // nil when absent (inherited from a parent output)
	EvidenceRefs []string
}

// Condition is a requiredWhen/forbiddenWhen condition: a leaf comparing the
// value at Path, or a composite (and, or, not) over Children.
type Condition struct {
	Raw *canonjson.Object
	At  string

	Operator     string
	Path         []string        // leaf
	Value        canonjson.Value // leaf; nil when absent
	Children     []Condition     // and/or: conditions or operands; not: condition
	EvidenceRefs []string
}

func decodeInput(r *record) Input {
	in := Input{Raw: r.obj, At: r.at}
	in.Name = r.str("name", req)
	in.Type = r.enum("type", req, vocabInputType)
	in.Schema = r.value("schema", opt)
	in.Description = r.str("description", req)
	in.Required, _ = r.boolean("required", req)
	in.InformationClass = r.enum("informationClass", req, vocabClass)
	for _, e := range r.list("sourceStrategies", some) {
		in.SourceStrategies = append(in.SourceStrategies, decodeStrategy(r.rd, e))
	}
	in.ValueDomain = decodeValueDomain(r.object("valueDomain", req))
	in.RequiredWhen = decodeConditions(r, "requiredWhen")
	in.ForbiddenWhen = decodeConditions(r, "forbiddenWhen")
	in.Freshness = decodeFreshness(r, "freshness")
	if r.has("targetRequiredness") {
		in.TargetRequiredness = decodeTargetRequiredness(r.object("targetRequiredness", opt))
	} else {
		r.known = append(r.known, "targetRequiredness")
	}
	in.EvidenceRefs = r.strs("evidenceRefs", req)
	r.open()
	return in
}

func decodeStrategy(rd *reader, e elem) Strategy {
	s := Strategy{Raw: e.v, At: e.at.String()}
	if _, ok := e.v.(canonjson.String); ok {
		rd.later(func() { s.Kind = rd.enum(e.v, e.at, vocabStrategy) })
		return s
	}
	r := rd.record(e.v, s.At)
	s.Kind = r.laterEnum("kind", req, vocabStrategy)
	switch s.Kind {
	case StrategyTrustedHostContext:
		s.RequirementID = r.str("requirementId", req)
	case StrategyUpstreamTool:
		s.CapabilityID = r.str("capabilityId", req)
		s.OutputPath = r.strs("outputPath", some)
		s.MappingKind = r.laterEnum("mappingKind", req, vocabMapping)
	}
	r.open()
	return s
}

// decodeValueDomain reads a value domain, whose fields depend on its kind.
func decodeValueDomain(r *record) ValueDomain {
	d := ValueDomain{Raw: r.obj, At: r.at}
	d.Kind = r.enum("kind", req, vocabDomain)
	switch d.Kind {
	case DomainStatic:
		for _, e := range r.list("values", some) {
			d.Values = append(d.Values, e.v)
		}
		d.EvidenceRefs = r.strs("evidenceRefs", req)
	case DomainDynamic:
		d.SourceCapabilityID = r.str("sourceCapabilityId", opt)
		d.SourcePath = r.strs("sourcePath", opt)
		d.MappingKind = r.laterEnum("mappingKind", opt, vocabMapping)
		d.IdentityScoped, _ = r.boolean("identityScoped", req)
		d.TenantScoped, _ = r.boolean("tenantScoped", req)
		d.SessionScoped, _ = r.boolean("sessionScoped", req)
		d.Freshness = decodeFreshness(r, "freshness")
		d.EvidenceRefs = r.strs("evidenceRefs", req)
		// A frozen sample of values has its own semantic rule.
		r.known = append(r.known, "values", "enum", "options")
	}
	r.closedFor(d.Kind, vocabDomain)
	return d
}

func decodeFreshness(r *record, key string) *Freshness {
	if !r.has(key) {
		r.known = append(r.known, key)
		return nil
	}
	fr := r.object(key, opt)
	f := &Freshness{At: fr.at}
	f.TTLSeconds, f.HasTTLSeconds = fr.integer("ttlSeconds", opt)
	f.RefreshWhen = fr.strs("refreshWhen", opt)
	fr.closed()
	return f
}

func decodeTargetRequiredness(r *record) *TargetRequiredness {
	t := &TargetRequiredness{At: r.at}
	t.Status = r.enum("status", req, vocabTargetReq)
	if t.Status == TargetRequirednessUnproven {
		pr := r.object("normalProvider", req)
		t.NormalProvider = &Provider{
			CapabilityID: pr.str("capabilityId", req),
			OutputPath:   pr.strs("outputPath", some),
			MappingKind:  pr.laterEnum("mappingKind", req, vocabMapping),
		}
		pr.closed()
	}
	t.EvidenceRefs = r.strs("evidenceRefs", req)
	r.closed()
	return t
}

func decodeOutput(r *record) Output {
	o := Output{Raw: r.obj, At: r.at}
	o.Path = r.strs("path", some)
	o.Type = r.enum("type", req, vocabOutputType)
	o.Schema = r.value("schema", opt)
	o.Description = r.str("description", opt)
	if r.has("valueDomain") {
		d := decodeValueDomain(r.object("valueDomain", opt))
		o.ValueDomain = &d
	} else {
		r.known = append(r.known, "valueDomain")
	}
	o.EvidenceRefs = r.strs("evidenceRefs", req)
	r.open()
	return o
}

func decodeConditions(r *record, key string) []Condition {
	var out []Condition
	for _, e := range r.list(key, opt) {
		out = append(out, decodeCondition(r.rd.record(e.v, e.at.String())))
	}
	return out
}

// decodeCondition reads one condition. Composites nest conditions under
// "conditions" or "operands" (and, or) or "condition" (not).
func decodeCondition(r *record) Condition {
	c := Condition{Raw: r.obj, At: r.at}
	c.Operator = r.laterEnum("operator", req, vocabOperator)
	switch c.Operator {
	case "and", "or":
		key := "conditions"
		if !r.has(key) && r.has("operands") {
			key = "operands"
		}
		for _, e := range r.list(key, some) {
			c.Children = append(c.Children, decodeCondition(r.rd.record(e.v, e.at.String())))
		}
		r.known = append(r.known, "conditions", "operands")
	case "not":
		c.Children = []Condition{decodeCondition(r.object("condition", req))}
	default:
		c.Path = r.strs("path", some)
		c.Value = r.value("value", opt)
	}
	c.EvidenceRefs = r.strs("evidenceRefs", opt)
	r.open()
	return c
}
