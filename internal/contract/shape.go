package contract

import (
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// The shape of canonical-contract.json: for every record of the format the
// canonical order of its members, and for every list what its order means
// and what identifies its elements. Two packages build on it: the canonical
// form (Canonical), so that derived files do not depend on the order an
// author happened to write, and the semantic diff, which matches elements
// by identity rather than by position.
//
// What the order of a list means is decided here, once:
//
//   - Object members never carry meaning: JSON objects are unordered.
//     Records take the format's member order; free-form values (constants,
//     static values, examples) and HTTP headers take their keys in code
//     point order. JSON Schema "properties" are the exception: their order
//     is the order a Tool's parameters and an output's fields are shown in.
//   - Lists of records (capabilities, inputs, outputs, goals, information
//     needs, evidence, workflows, bindings, conditions, ...) are presented
//     in the author's order: Tools are registered and listed, questions
//     asked, evidence indexed and checks evaluated in it. It is kept.
//   - Sequences are lists whose order is their meaning: HTTP steps run in
//     order, and a path addresses a value. They are kept too.
//   - Sets are lists of names or words whose order means nothing: evidence
//     references, Host requirements, capability and information IDs,
//     refresh triggers, status codes, source IDs, a schema's required
//     properties. Their canonical order is the order in which the contract
//     declares what they name (the evidence catalog, the consumer
//     requirements, the capabilities, the schema's properties), names it
//     does not declare following in code point order; sets of plain words
//     and numbers are in value order.

// Kind is what a shape describes.
type Kind uint8

const (
	// KindScalar is a string, number, boolean or null.
	KindScalar Kind = iota
	// KindRecord is an object with the members of Shape.Members.
	KindRecord
	// KindList is an array of Shape.Elem.
	KindList
	// KindMap is an object whose member names are data, each value of
	// Shape.Elem (HTTP headers, a schema's properties). Its Order says
	// whether the names' order is kept (Presentation) or means nothing
	// (Set: code point order).
	KindMap
	// KindValue is a free-form JSON value (a constant, a path, an example).
	KindValue
	// KindSchema is a JSON Schema.
	KindSchema
)

// Order is what the order of a list means.
type Order uint8

const (
	// Presentation: the author's order is how the elements are presented.
	Presentation Order = iota
	// Sequence: the order is part of the list's meaning.
	Sequence
	// Set: the order means nothing.
	Set
)

// Ref says what the elements of a set name, and so which declaration
// order is their canonical order.
type Ref uint8

const (
	// RefNone: a set of plain values, in value order.
	RefNone Ref = iota
	// RefEvidence: evidence IDs, in evidence catalog order.
	RefEvidence
	// RefRequirement: requirement IDs, in consumer requirements order.
	RefRequirement
	// RefCapability: capability IDs, in capabilities order.
	RefCapability
)

// Shape describes one JSON value of the contract format.
type Shape struct {
	Kind Kind
	// Noun names one value in messages ("capability", "input"); for a
	// list, it names one element.
	Noun string
	// Members are a record's members, in canonical order.
	Members []Member
	// Elem is the shape of a list's elements or a map's values.
	Elem *Shape
	// Order says what a list's order means.
	Order Order
	// Key names the members whose values identify an element of a list;
	// none means the whole value is its identity. An element that is a
	// bare string (a check ID, a capability ID) is identified by itself.
	Key []string
	// Ref says what a set's elements name.
	Ref Ref
}

// Member is one member of a record.
type Member struct {
	Name  string
	Shape *Shape
}

// Member returns the shape of a record's member; ok is false for a member
// the format does not define.
func (s *Shape) Member(name string) (*Shape, bool) {
	if s == nil {
		return nil, false
	}
	for i := range s.Members {
		if s.Members[i].Name == name {
			return s.Members[i].Shape, true
		}
	}
	return nil, false
}

// Identity returns what identifies an element of a list of this shape: the
// values of its Key members, or the whole value.
func (s *Shape) Identity(v canonjson.Value) string {
	if str, ok := v.(canonjson.String); ok && len(s.Key) == 1 {
		return string(str)
	}
	o, ok := v.(*canonjson.Object)
	if !ok || len(s.Key) == 0 {
		return string(canonjson.DigestForm(v))
	}
	if len(s.Key) == 1 {
		if str, ok := o.At(s.Key[0]).(canonjson.String); ok {
			return string(str)
		}
	}
	var b strings.Builder
	for i, k := range s.Key {
		if i > 0 {
			b.WriteByte(' ')
		}
		if kv := o.At(k); kv != nil {
			b.Write(canonjson.DigestForm(kv))
		}
	}
	return b.String()
}

// ContractShape is the shape of canonical-contract.json.
var ContractShape = contractShape()

func contractShape() *Shape {
	scalar := &Shape{Kind: KindScalar}
	value := &Shape{Kind: KindValue}
	schema := &Shape{Kind: KindSchema}
	words := &Shape{Kind: KindList, Order: Set, Elem: scalar}
	path := value
	record := func(noun string, members ...Member) *Shape {
		return &Shape{Kind: KindRecord, Noun: noun, Members: members}
	}
	list := func(order Order, elem *Shape, key ...string) *Shape {
		return &Shape{Kind: KindList, Order: order, Elem: elem, Key: key}
	}
	refs := func(ref Ref) *Shape { return &Shape{Kind: KindList, Order: Set, Elem: scalar, Ref: ref} }
	m := func(name string, s *Shape) Member { return Member{name, s} }
	evidenceRefs := m("evidenceRefs", refs(RefEvidence))
	capabilityIDs := refs(RefCapability)

	freshness := record("freshness", m("ttlSeconds", scalar), m("refreshWhen", words))
	condition := record("condition")
	condition.Members = []Member{
		m("operator", scalar), m("path", path), m("value", value),
		m("conditions", list(Presentation, condition)), m("operands", list(Presentation, condition)),
		m("condition", condition), evidenceRefs,
	}
	conditions := list(Presentation, condition)
	domain := record("value domain",
		m("kind", scalar), m("values", list(Presentation, value)),
		m("sourceCapabilityId", scalar), m("sourcePath", path), m("mappingKind", scalar),
		m("identityScoped", scalar), m("tenantScoped", scalar), m("sessionScoped", scalar),
		m("freshness", freshness), evidenceRefs)
	strategy := record("source strategy",
		m("kind", scalar), m("requirementId", scalar), m("capabilityId", scalar),
		m("outputPath", path), m("mappingKind", scalar))
	input := record("input",
		m("name", scalar), m("description", scalar), m("type", scalar), m("schema", schema),
		m("required", scalar), m("informationClass", scalar),
		m("sourceStrategies", list(Presentation, strategy)),
		m("targetRequiredness", record("target requiredness",
			m("status", scalar),
			m("normalProvider", record("normal provider", m("capabilityId", scalar), m("outputPath", path), m("mappingKind", scalar))),
			evidenceRefs)),
		m("valueDomain", domain),
		m("requiredWhen", conditions), m("forbiddenWhen", conditions),
		m("freshness", freshness), evidenceRefs)
	output := record("output",
		m("path", path), m("type", scalar), m("schema", schema), m("description", scalar),
		m("valueDomain", domain), evidenceRefs)
	operand := record("operand", m("source", scalar), m("path", path))
	constraint := record("constraint",
		m("constraintId", scalar), m("kind", scalar), m("path", path), m("predicate", value),
		m("if", condition), m("then", condition),
		m("left", operand), m("operator", scalar), m("right", operand),
		m("fields", words), m("enforcement", scalar), evidenceRefs)
	attachments := record("attachments",
		m("mode", scalar), m("hostInputRole", scalar), m("uploadOwner", scalar),
		m("acceptedInputs", words), m("forbiddenInputs", words),
		m("metadata", record("attachment metadata", m("required", words), m("maxSizeBytes", scalar), evidenceRefs)),
		m("contentBindings", list(Presentation, record("content binding",
			m("inputName", scalar), m("stepId", scalar), m("location", scalar), m("path", path),
			m("requirementId", scalar), evidenceRefs), "inputName", "stepId", "location", "path")),
		m("consumerBindings", list(Presentation, record("consumer binding",
			m("inputName", scalar), m("providerCapabilityId", scalar), m("providerOutputPath", path),
			m("mappingKind", scalar), evidenceRefs), "inputName")),
		m("resultBinding", record("result binding",
			m("kind", scalar), m("valueKind", scalar), m("outputPath", path),
			m("scoping", record("scoping", m("subject", scalar), m("session", scalar))),
			m("reuse", scalar), evidenceRefs)),
		m("enforcedByWorkflow", scalar))
	binding := record("binding",
		m("source", record("binding source",
			m("kind", scalar), m("inputName", scalar), m("stepId", scalar), m("path", path), m("requirementId", scalar))),
		m("location", scalar), m("path", path), evidenceRefs)
	step := record("step",
		m("stepId", scalar), m("method", scalar), m("authentication", scalar), m("url", scalar),
		m("headers", &Shape{Kind: KindMap, Noun: "header", Order: Set, Elem: scalar}),
		m("bindings", list(Presentation, binding, "location", "path")),
		m("successStatusCodes", words), evidenceRefs)
	coverage := func(noun string) *Shape {
		return record(noun, m("declaredSideEffect", scalar), m("assertionLevel", scalar), evidenceRefs)
	}
	check := record("verification check", m("checkId", scalar), m("phase", scalar))
	checks := list(Presentation, check, "checkId")
	capability := record("capability",
		m("capabilityId", scalar), m("toolName", scalar), m("functionExport", scalar),
		m("description", scalar), m("authentication", scalar), m("readiness", scalar),
		// Gaps are presented in the author's order: review items point at
		// each by its index in the file.
		m("missingEvidence", list(Presentation, scalar)),
		m("exposure", record("exposure", m("kind", scalar), evidenceRefs, m("supplementalEvidenceRefs", refs(RefEvidence)))),
		m("inputs", list(Presentation, input, "name")),
		m("outputs", list(Presentation, output, "path")),
		m("constraints", list(Presentation, constraint, "constraintId")),
		m("attachments", attachments),
		m("workflowId", scalar),
		m("implementation", record("implementation",
			m("kind", scalar), m("steps", list(Sequence, step, "stepId")), m("outputStepId", scalar))),
		m("successRule", record("success rule",
			m("kind", scalar), m("outputRequired", scalar), m("emptyBodyStatusCodes", words), m("forbiddenOutputKeys", words),
			m("requiredOutputPaths", list(Presentation, path)), evidenceRefs)),
		m("errorContract", record("error contract",
			m("format", scalar), m("preservesRecoveryContext", scalar),
			m("codePath", path), m("messagePath", path), m("detailsPath", path), m("retryabilityPath", path),
			m("defaultRetryable", scalar), evidenceRefs,
			m("sourceError", record("source error",
				m("codePath", path), m("messagePath", path), m("fieldErrorsPath", path),
				m("categoryByStatus", &Shape{Kind: KindMap, Noun: "status category", Order: Set, Elem: scalar}),
				evidenceRefs)))),
		m("operationPolicy", record("operation policy",
			m("sideEffect", scalar), m("idempotency", scalar), m("automaticRetry", scalar),
			m("confirmation", scalar), m("unknownOutcome", scalar))),
		m("deployerPolicy", record("deployer policy", m("confirmation", scalar), m("statement", scalar))),
		m("annotations", record("annotations",
			m("readOnlyHint", scalar), m("destructiveHint", scalar), m("idempotentHint", scalar), m("openWorldHint", scalar))),
		m("sideEffect", scalar),
		m("runtimeProtection", record("runtime protection",
			m("mode", scalar), m("owner", scalar), m("workflowId", scalar), evidenceRefs,
			m("hardWorkflowEvidence", record("hard workflow evidence",
				m("protectedValueIssuance", refs(RefEvidence)), m("protectedValueBinding", refs(RefEvidence)),
				m("preDispatchEnforcement", refs(RefEvidence)))))),
		m("hostRequirements", refs(RefRequirement)),
		m("evidenceCoverage", record("evidence coverage",
			m("sideEffect", coverage("side-effect coverage")), m("backendContract", coverage("backend-contract coverage")),
			m("authorization", coverage("authorization coverage")), m("validation", coverage("validation coverage")),
			m("idempotency", coverage("idempotency coverage")), m("unknownOutcome", coverage("unknown-outcome coverage")))),
		m("verificationChecks", checks),
		evidenceRefs,
		m("reasons", list(Presentation, scalar)), m("blockingReasons", list(Presentation, scalar)))
	need := record("information need",
		m("informationId", scalar), m("description", scalar), m("classification", scalar),
		m("type", scalar), m("schema", schema), m("condition", condition),
		m("satisfiedBy", list(Presentation, record("provider",
			m("kind", scalar), m("requirementId", scalar), m("capabilityId", scalar), m("outputPath", path)))),
		m("supplies", list(Presentation, record("supply",
			m("capabilityId", scalar), m("inputName", scalar), m("mappingKind", scalar)), "capabilityId", "inputName")),
		m("reuseWhile", record("reuse condition",
			m("sameSubject", scalar), m("sameTenant", scalar), m("sameSession", scalar),
			m("samePayloadDigest", scalar), m("sameVersion", scalar), m("notEdited", scalar),
			m("notExpired", scalar), m("notConsumed", scalar), evidenceRefs)))
	goal := record("goal",
		m("goalId", scalar), m("intent", scalar),
		m("informationNeeds", list(Presentation, need, "informationId")),
		m("completionPredicate", record("completion predicate",
			m("operator", scalar), m("informationIds", words), m("workflowId", scalar),
			m("conditionalNeedsOnlyWhenActive", scalar))),
		m("requiredCapabilityIds", capabilityIDs),
		m("conditionalCapabilityIds", &Shape{Kind: KindList, Order: Set, Ref: RefCapability, Key: []string{"capabilityId"},
			Elem: record("conditional capability", m("capabilityId", scalar), m("condition", condition))}),
		m("optionalCapabilityIds", capabilityIDs),
		m("agentPolicy", record("agent policy",
			m("acceptInformationInAnyOrder", scalar), m("reuseFreshInformation", scalar),
			m("askOnlyCurrentlyMissing", scalar), m("skipUnnecessaryCapabilities", scalar),
			m("stopWhenPredicateSatisfied", scalar))))
	workflow := record("workflow",
		m("workflowId", scalar), m("kind", scalar), m("guardAsset", scalar), m("entryCapabilityId", scalar),
		m("capabilityIds", capabilityIDs),
		m("bindings", list(Presentation, record("guard binding",
			m("name", scalar),
			m("actualSource", record("actual source",
				m("kind", scalar), m("claim", scalar), m("requirementId", scalar), m("algorithm", scalar),
				m("inputName", scalar), m("path", path), m("value", value))),
			m("expectedSource", record("expected source", m("kind", scalar), m("path", path), m("value", value))),
			m("comparator", scalar), evidenceRefs), "name")),
		m("enforcement", record("enforcement",
			m("owner", scalar), m("mustCompleteBeforeDispatch", scalar), m("rejectWithoutDispatch", scalar))),
		m("unknownOutcomePolicy", scalar),
		m("verificationChecks", checks))
	return record("contract",
		m("schemaVersion", scalar), m("contractId", scalar), m("recordingId", scalar), m("sourceTopologyRef", scalar),
		m("portableCore", record("portable core",
			m("languageBinding", scalar), m("frameworkBinding", scalar), m("architectureBinding", scalar),
			m("hostBinding", scalar), m("discoveryBasis", scalar))),
		m("featureBoundary", record("feature boundary",
			m("scopeKind", scalar), m("primaryEvidenceRole", scalar), m("backendEvidenceRole", scalar),
			m("inclusionRule", scalar), m("clientSourceIds", words), m("serviceSourceIds", words),
			m("supplementarySourceIds", words))),
		m("conflicts", list(Presentation, record("conflict",
			m("conflictId", scalar), m("claim", scalar), m("status", scalar),
			m("affectedCapabilityIds", capabilityIDs), m("resolution", value), evidenceRefs), "conflictId")),
		m("evidenceCatalog", list(Presentation, record("evidence",
			m("evidenceId", scalar), m("sourceId", scalar), m("locator", scalar),
			m("semanticRole", scalar), m("assertionLevel", scalar), m("claim", scalar)), "evidenceId")),
		m("server", record("server", m("name", scalar), m("description", scalar), evidenceRefs)),
		m("capabilities", list(Presentation, capability, "capabilityId")),
		m("handoffs", list(Presentation, record("handoff",
			m("fromCapabilityId", scalar), m("toCapabilityId", scalar),
			m("mappings", list(Presentation, record("mapping",
				m("sourcePath", path), m("targetInput", scalar), m("mappingKind", scalar)), "targetInput")),
			m("required", scalar), evidenceRefs), "fromCapabilityId", "toCapabilityId")),
		m("capabilityGraph", record("capability graph",
			m("nodes", list(Presentation, record("graph node",
				m("capabilityId", scalar), m("independentValue", scalar)), "capabilityId")),
			m("edges", list(Presentation, record("graph edge",
				m("fromCapabilityId", scalar), m("toCapabilityId", scalar), m("kind", scalar),
				m("composition", scalar), m("required", scalar)), "fromCapabilityId", "toCapabilityId")))),
		m("goals", list(Presentation, goal, "goalId")),
		m("consumerRequirements", record("consumer requirements",
			m("requirements", list(Presentation, record("requirement",
				m("requirementId", scalar), m("hostCapability", scalar), m("description", scalar),
				m("onMissing", scalar)), "requirementId")))),
		m("workflows", list(Presentation, workflow, "workflowId")),
	)
}

// SchemaKeywords is the canonical order of JSON Schema keywords; others
// follow in code point order.
var SchemaKeywords = []string{
	"type", "const", "enum", "format", "pattern", "minLength", "maxLength",
	"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
	"additionalProperties", "properties", "items", "minItems", "maxItems", "uniqueItems",
	"required", "title", "description", "default", "examples",
}
