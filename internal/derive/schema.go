package derive

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// schemaContract is the schema contract both runtimes are checked against
// (function-core/ and mcp-tool/ hold byte-equal copies): per capability the
// closed input schema, the output envelope schema, annotations, conditional
// rules, constraints, error contract, policy and an operation summary; per
// workflow its guard projection.
func schemaContract(c *contract.Contract) *canonjson.Object {
	caps := canonjson.Array{}
	for i := range c.Capabilities {
		cp := &c.Capabilities[i]
		caps = append(caps, object(
			m{"capabilityId", str(cp.ID)},
			m{"toolName", str(cp.ToolName)},
			m{"functionExport", str(cp.FunctionExport)},
			m{"inputSchema", inputSchema(cp)},
			m{"outputSchema", outputSchema(cp)},
			m{"annotations", raw(cp.Annotations.Raw)},
			m{"conditionalRules", conditionalRules(cp)},
			m{"constraints", member(cp.Raw, "constraints", emptyArray)},
			m{"errorContract", raw(cp.ErrorContract.Raw)},
			m{"operationPolicy", raw(cp.OperationPolicy.Raw)},
			m{"operationSummary", operationSummary(cp)},
		))
	}
	workflows := canonjson.Array{}
	for i := range c.Workflows {
		w := &c.Workflows[i]
		var policy canonjson.Value = canonjson.Null{}
		if entry, ok := c.Capability(w.EntryCapabilityID); ok {
			policy = raw(entry.OperationPolicy.Raw)
		}
		workflows = append(workflows, object(
			m{"workflowId", str(w.ID)},
			m{"entryCapabilityId", str(w.EntryCapabilityID)},
			m{"capabilityIds", member(w.Raw, "capabilityIds", emptyArray)},
			m{"guardAsset", str(w.GuardAsset)},
			m{"bindings", member(w.Raw, "bindings", emptyArray)},
			m{"operationPolicy", policy},
		))
	}
	return object(
		m{"schemaVersion", str("vNext")},
		m{"contractId", str(c.ContractID)},
		m{"canonicalContractRef", str(canonicalContractRef)},
		m{"capabilities", caps},
		m{"workflows", workflows},
	)
}

// closedObjectSchema returns {"type": "object", "additionalProperties":
// false, "properties": {}, "required": []}.
func closedObjectSchema() *canonjson.Object {
	return object(
		m{"type", str("object")},
		m{"additionalProperties", boolean(false)},
		m{"properties", &canonjson.Object{}},
		m{"required", canonjson.Array{}},
	)
}

// inputSchema is the closed object schema of a capability's inputs. Each
// property is the input's declared schema (or {}), with the input's type when
// the schema has none, the input's description, and the values of a static
// domain as its enum. Only unconditionally required inputs are required.
func inputSchema(cp *contract.Capability) *canonjson.Object {
	s := closedObjectSchema()
	props := member(s, "properties", nil).(*canonjson.Object)
	var required canonjson.Array
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		p := &canonjson.Object{}
		if declared, ok := in.Schema.(*canonjson.Object); ok {
			p = canonjson.Clone(declared).(*canonjson.Object)
		}
		if !p.Has("type") {
			p.Set("type", str(in.Type))
		}
		p.Set("description", str(in.Description))
		if in.ValueDomain.Kind == contract.DomainStatic {
			p.Set("enum", canonjson.Clone(in.ValueDomain.Values))
		}
		props.Set(in.Name, p)
		if in.Required {
			required = append(required, str(in.Name))
		}
	}
	if required != nil {
		s.Set("required", required)
	}
	return s
}

// outputSchema is the schema of the {status, data} envelope a Function
// returns. status is the HTTP status (an integer, limited to the output
// step's success codes) or a local status string. data is built from the
// outputs, parents first; a success rule that accepts an empty body lets it
// be null (the Function gives null only at those statuses).
func outputSchema(cp *contract.Capability) *canonjson.Object {
	status := object(m{"type", str("string")})
	if cp.Implementation.Kind == contract.ImplementationHTTP {
		status = object(m{"type", str("integer")})
		if step, ok := cp.Implementation.Step(cp.Implementation.OutputStepID); ok {
			if codes, ok := member(step.Raw, "successStatusCodes", nil).(canonjson.Array); ok {
				status.Set("enum", canonjson.Clone(codes))
			}
		}
	}
	data := closedObjectSchema()
	outputs := make([]*contract.Output, len(cp.Outputs))
	for i := range cp.Outputs {
		outputs[i] = &cp.Outputs[i]
	}
	// A parent's path is shorter than its children's: placing shorter paths
	// first lets children refine the schema their parent declared. The sort
	// is stable, so equal lengths keep the author's order.
	slices.SortStableFunc(outputs, func(a, b *contract.Output) int { return len(a.Path) - len(b.Path) })
	for _, out := range outputs {
		placeOutput(data, out)
	}
	if cp.Implementation.Kind == contract.ImplementationHTTP && len(cp.SuccessRule.EmptyBodyStatusCodes) > 0 {
		// A success without a body has null data: only null when no
		// output is declared, else the object or null.
		if len(cp.Outputs) == 0 {
			data = object(m{"type", str("null")})
		} else {
			data.Set("type", strs([]string{"object", "null"}))
		}
	}
	s := closedObjectSchema()
	props := member(s, "properties", nil).(*canonjson.Object)
	props.Set("status", status)
	props.Set("data", data)
	s.Set("required", strs([]string{"status", "data"}))
	return s
}

// placeOutput walks data along the output's path, creating closed object
// nodes as needed and requiring every segment it passes. A "*" segment makes
// the current node an array (keeping a null its parent's schema allows) and
// continues in its items. The last node takes the output's declared schema
// (keeping children already placed under it) or just its type, and its
// description.
func placeOutput(data *canonjson.Object, out *contract.Output) {
	node := data
	for i, seg := range out.Path {
		last := i == len(out.Path)-1
		if seg == "*" {
			if !nullableOf(member(node, "type", nil), "array") {
				node.Set("type", str("array"))
			}
			node.Delete("additionalProperties")
			node.Delete("properties")
			node.Delete("required")
			items, ok := member(node, "items", nil).(*canonjson.Object)
			if !ok {
				items = newNode(last)
				node.Set("items", items)
			}
			node = items
		} else {
			props := closeObject(node)
			requireSegment(node, seg)
			child, ok := member(props, seg, nil).(*canonjson.Object)
			if !ok {
				child = newNode(last)
				props.Set(seg, child)
			}
			node = child
		}
		if last {
			placeLeaf(node, out)
		}
	}
}

// newNode returns the schema of a path segment placed for the first time: an
// empty schema for the output itself, a closed object on the way to it.
func newNode(last bool) *canonjson.Object {
	if last {
		return &canonjson.Object{}
	}
	return closedObjectSchema()
}

// closeObject makes node a closed object schema that requires the segments
// placed under it, and returns its properties.
func closeObject(node *canonjson.Object) *canonjson.Object {
	if !node.Has("type") {
		node.Set("type", str("object"))
	}
	node.Set("additionalProperties", boolean(false))
	props, ok := member(node, "properties", nil).(*canonjson.Object)
	if !ok {
		props = &canonjson.Object{}
		node.Set("properties", props)
	}
	if _, ok := member(node, "required", nil).(canonjson.Array); !ok {
		node.Set("required", canonjson.Array{})
	}
	return props
}

// requireSegment adds seg to node's required list unless it is there.
func requireSegment(node *canonjson.Object, seg string) {
	required, _ := member(node, "required", nil).(canonjson.Array)
	if !slices.Contains(required, canonjson.Value(str(seg))) {
		node.Set("required", append(required, str(seg)))
	}
}

// placeLeaf gives the node at an output's path the output's schema.
func placeLeaf(node *canonjson.Object, out *contract.Output) {
	declared, ok := out.Schema.(*canonjson.Object)
	if !ok {
		// A parent's schema may already allow null at this path: the
		// output's own type is one of the two it proves, so it stays.
		if !nullableOf(member(node, "type", nil), out.Type) {
			node.Set("type", str(out.Type))
		}
	} else {
		s := canonjson.Clone(declared).(*canonjson.Object)
		// Children placed under this node before it was reached stay.
		if built, ok := member(node, "properties", nil).(*canonjson.Object); ok {
			props, ok := member(s, "properties", nil).(*canonjson.Object)
			if !ok {
				props = &canonjson.Object{}
				s.Set("properties", props)
			}
			for k, v := range built.All() {
				if !props.Has(k) {
					props.Set(k, v)
				}
			}
		}
		if items, ok := member(node, "items", nil).(*canonjson.Object); ok && !s.Has("items") {
			s.Set("items", items)
		}
		for _, k := range node.Keys() {
			node.Delete(k)
		}
		for k, v := range s.All() {
			node.Set(k, v)
		}
	}
	if out.ValueDomain != nil && out.ValueDomain.Kind == contract.DomainStatic {
		// A static domain is the whole set of values the output takes: the
		// Function's output check refuses another (a null the type allows
		// stays allowed).
		values := canonjson.Clone(out.ValueDomain.Values).(canonjson.Array)
		if allowsNull(member(node, "type", nil)) && !slices.Contains(values, canonjson.Value(canonjson.Null{})) {
			values = append(values, canonjson.Null{})
		}
		node.Set("enum", values)
	}
	if out.Description != "" {
		node.Set("description", str(out.Description))
	}
}

// allowsNull reports whether a schema type is null or a list holding it.
func allowsNull(t canonjson.Value) bool {
	if a, ok := t.(canonjson.Array); ok {
		return slices.Contains(a, canonjson.Value(canonjson.String("null")))
	}
	return t == canonjson.String("null")
}

// nullableOf reports whether t is the type pair [T, "null"] (in either
// order) of which typ is one member.
func nullableOf(t canonjson.Value, typ string) bool {
	a, ok := t.(canonjson.Array)
	if !ok || len(a) != 2 {
		return false
	}
	var null, match bool
	for _, e := range a {
		switch e {
		case canonjson.String("null"):
			null = true
		case canonjson.String(typ):
			match = true
		}
	}
	return null && match
}

// conditionalRules maps each input with a requiredWhen or forbiddenWhen
// condition to both lists.
func conditionalRules(cp *contract.Capability) *canonjson.Object {
	rules := &canonjson.Object{}
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		if len(in.RequiredWhen) == 0 && len(in.ForbiddenWhen) == 0 {
			continue
		}
		rules.Set(in.Name, object(
			m{"requiredWhen", member(in.Raw, "requiredWhen", emptyArray)},
			m{"forbiddenWhen", member(in.Raw, "forbiddenWhen", emptyArray)},
		))
	}
	return rules
}

// operationSummary summarises how a capability executes.
func operationSummary(cp *contract.Capability) *canonjson.Object {
	im := &cp.Implementation
	methods := make([]string, 0, len(im.Steps))
	var origins []string
	for _, s := range im.Steps {
		methods = append(methods, s.Method)
		if o, ok := contract.Origin(s.URL); ok && !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	slices.Sort(origins)
	return object(
		m{"implementationKind", str(im.Kind)},
		m{"stepCount", canonjson.Int(len(im.Steps))},
		m{"methods", strs(methods)},
		m{"origins", strs(origins)},
		m{"attachmentMode", str(cp.AttachmentMode())},
	)
}
