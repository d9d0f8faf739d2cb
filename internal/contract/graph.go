package contract

import "github.com/code2skill/code2skill/internal/canonjson"

// Handoff feeds outputs of one capability into inputs of another.
type Handoff struct {
	Raw *canonjson.Object
	At  string

	FromCapabilityID string
	ToCapabilityID   string
	Mappings         []Mapping
	Required         bool
	EvidenceRefs     []string
}

// Mapping is one output-to-input mapping of a handoff.
type Mapping struct {
	At string

	SourcePath  []string
	TargetInput string
	MappingKind string
}

// Graph is the capability graph: every capability's independent value and
// the observed and derived compositions among them.
type Graph struct {
	Raw *canonjson.Object
	At  string

	Nodes []Node
	Edges []Edge
}

// Node is one capability of the graph.
type Node struct {
	At string

	CapabilityID     string
	IndependentValue string
}

// Edge is one composition between two capabilities.
type Edge struct {
	At string

	FromCapabilityID string
	ToCapabilityID   string
	Kind             string // handoff, conditional-handoff, hard-precondition, optional-planning
	Composition      string // observed or derived
	Required         bool
}

func decodeHandoff(r *record) Handoff {
	h := Handoff{Raw: r.obj, At: r.at}
	h.FromCapabilityID = r.str("fromCapabilityId", req)
	h.ToCapabilityID = r.str("toCapabilityId", req)
	h.Mappings = records(r, "mappings", some, func(m *record) Mapping {
		mp := Mapping{
			At:          m.at,
			SourcePath:  m.strs("sourcePath", some),
			TargetInput: m.str("targetInput", req),
			MappingKind: m.laterEnum("mappingKind", req, vocabMapping),
		}
		m.open()
		return mp
	})
	h.Required, _ = r.boolean("required", req)
	h.EvidenceRefs = r.strs("evidenceRefs", req)
	r.open()
	return h
}

func decodeGraph(r *record) Graph {
	g := Graph{Raw: r.obj, At: r.at}
	g.Nodes = records(r, "nodes", req, func(n *record) Node {
		node := Node{
			At:               n.at,
			CapabilityID:     n.str("capabilityId", req),
			IndependentValue: n.str("independentValue", req),
		}
		n.open()
		return node
	})
	g.Edges = records(r, "edges", req, func(e *record) Edge {
		edge := Edge{
			At:               e.at,
			FromCapabilityID: e.str("fromCapabilityId", req),
			ToCapabilityID:   e.str("toCapabilityId", req),
			Kind:             e.enum("kind", req, vocabEdgeKind),
			Composition:      e.enum("composition", req, vocabComposition),
		}
		edge.Required, _ = e.boolean("required", req)
		e.open()
		return edge
	})
	r.open()
	return g
}
