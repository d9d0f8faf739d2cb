package contractdiff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Rule is one row of the classification table: the changes it matches and
// the class it gives them.
type Rule struct {
	ID string
	// Pattern matches the change's Shape: segments separated by ".", "*"
	// matching one segment, "**" any number of them, "a|b" either; several
	// patterns are separated by spaces.
	Pattern string
	// Kinds the rule applies to; none means any.
	Kinds []Kind
	// When narrows the rule further; nil means always. Cond says it in
	// words for the table.
	When func(*Change) bool
	Cond string
	// Class is the class of the changes the rule matches, Why the reason.
	Class Class
	Why   string
}

var (
	added     = []Kind{Added}
	removed   = []Kind{Removed}
	changed   = []Kind{Changed}
	reordered = []Kind{Reordered}
	addRemove = []Kind{Added, Removed}
)

// Rules is the classification table. The first row that matches a change
// classifies it; the last row matches everything. Where a rule depends on
// the direction of a value, an input (what callers send) and an output
// (what consumers receive) go opposite ways: a domain that widens accepts
// more calls but may surprise a consumer of the result.
var Rules = []Rule{
	{ID: "prose", Pattern: "**.description|intent|independentValue|claim|resolution|reasons|reasons[]", Class: Cosmetic, Why: "prose"},

	// Evidence: what the contract's facts rest on. Before the rules of the
	// records that cite it, which would otherwise judge a citation.
	{ID: "coverage-weakened", Pattern: "**.evidenceCoverage.*.assertionLevel evidenceCatalog[].assertionLevel", When: weakened, Cond: "fact to inference or unknown", Class: Breaking, Why: "a proven fact is no longer proven"},
	{ID: "coverage-strengthened", Pattern: "**.evidenceCoverage.*.assertionLevel evidenceCatalog[].assertionLevel", Class: Compatible, Why: "a fact is better proven"},
	{ID: "evidence-moved", Pattern: "evidenceCatalog[].locator", Kinds: []Kind{Moved}, Class: Cosmetic, Why: "the same evidence is found at another path or symbol"},
	{ID: "evidence-changed", Pattern: "evidenceCatalog[] evidenceCatalog[].** **.evidenceRefs[] **.supplementalEvidenceRefs[] **.hardWorkflowEvidence.*[] **.evidenceCoverage **.evidenceCoverage.* **.evidenceCoverage.**", Class: Compatible, Why: "the evidence a fact cites changed"},
	{ID: "verification-checks", Pattern: "**.verificationChecks[] **.verificationChecks[].**", Class: Compatible, Why: "what verification must prove changed"},
	{ID: "missing-evidence", Pattern: "capabilities[].missingEvidence[] capabilities[].blockingReasons[]", Class: Compatible, Why: "what the capability lacks changed; its readiness says whether it is executable"},

	// Capabilities.
	{ID: "capability-added", Pattern: "capabilities[]", Kinds: added, Class: Compatible, Why: "a new Tool; nothing a consumer calls today changes"},
	{ID: "capability-removed", Pattern: "capabilities[]", Kinds: removed, Class: Breaking, Why: "the Tool is gone: consumers that call it fail"},
	{ID: "capability-renamed", Pattern: "capabilities[]", Kinds: []Kind{Renamed}, Class: Compatible, Why: "the capability ID changed; its Tool, Function and semantics are the same"},
	{ID: "tool-renamed", Pattern: "capabilities[].toolName|functionExport", Class: Breaking, Why: "consumers call the Tool and import the Function by this name"},
	{ID: "authentication-changed", Pattern: "capabilities[].authentication", Class: Breaking, Why: "the Host must authenticate calls differently"},
	{ID: "readiness-gained", Pattern: "capabilities[].readiness", When: afterIs("ready"), Cond: "now ready", Class: Compatible, Why: "the capability is now delivered executable"},
	{ID: "readiness-lost", Pattern: "capabilities[].readiness", Class: Breaking, Why: "a ready capability is no longer delivered executable"},
	{ID: "workflow-link-changed", Pattern: "capabilities[].workflowId", Class: Breaking, Why: "the hard workflow guarding the write changed: a guard was lost or gained"},

	// Inputs: what callers send.
	{ID: "input-added-required", Pattern: "capabilities[].inputs[]", Kinds: added, When: requiredInput, Cond: "required, or required when a condition holds", Class: Breaking, Why: "a caller that does not send the new input is rejected"},
	{ID: "input-added-optional", Pattern: "capabilities[].inputs[]", Kinds: added, Class: Compatible, Why: "a new optional input"},
	{ID: "input-removed", Pattern: "capabilities[].inputs[]", Kinds: removed, Class: Breaking, Why: "a caller that sends the input is rejected by the closed input schema"},
	{ID: "input-now-required", Pattern: "capabilities[].inputs[].required", When: becameTrue, Cond: "false to true", Class: Breaking, Why: "a caller that leaves the input out is rejected"},
	{ID: "input-now-optional", Pattern: "capabilities[].inputs[].required", Class: Compatible, Why: "callers may leave the input out"},
	{ID: "required-when-added", Pattern: "capabilities[].inputs[].requiredWhen[]", Kinds: added, Class: Breaking, Why: "the input is required in more cases"},
	{ID: "required-when-removed", Pattern: "capabilities[].inputs[].requiredWhen[]", Kinds: removed, Class: Compatible, Why: "the input is required in fewer cases"},
	{ID: "forbidden-when-added", Pattern: "capabilities[].inputs[].forbiddenWhen[]", Kinds: added, Class: Breaking, Why: "calls that send the input are refused in more cases"},
	{ID: "forbidden-when-removed", Pattern: "capabilities[].inputs[].forbiddenWhen[]", Kinds: removed, Class: Compatible, Why: "calls that send the input are refused in fewer cases"},
	{ID: "input-type-changed", Pattern: "capabilities[].inputs[].type", Class: Breaking, Why: "values callers send today have another type"},
	{ID: "information-class-relaxed", Pattern: "capabilities[].inputs[].informationClass", When: afterIs("optional"), Cond: "now optional", Class: Compatible, Why: "the goal completes without the information"},
	{ID: "information-class-changed", Pattern: "capabilities[].inputs[].informationClass", Class: Breaking, Why: "a Consumer must obtain the value differently"},
	{ID: "source-strategy-added", Pattern: "capabilities[].inputs[].sourceStrategies[]", Kinds: added, Class: Compatible, Why: "one more way to obtain the value"},
	{ID: "source-strategy-removed", Pattern: "capabilities[].inputs[].sourceStrategies[]", Kinds: removed, Class: Breaking, Why: "a way consumers obtain the value is no longer allowed"},
	{ID: "target-requiredness-unproven", Pattern: "capabilities[].inputs[].targetRequiredness", When: statusIs("unproven"), Cond: "now unproven", Class: Breaking, Why: "leaving the input out is no longer proven to be accepted"},
	{ID: "target-requiredness-changed", Pattern: "capabilities[].inputs[].targetRequiredness.** capabilities[].inputs[].targetRequiredness", Class: Compatible, Why: "whether the target accepts the input left out is better proven"},

	// Value domains and freshness: both directions.
	{ID: "domain-widened-input", Pattern: "**.valueDomain", Kinds: changed, When: and(input, widened), Cond: "input, to a wider kind", Class: Compatible, Why: "callers may send more values"},
	{ID: "domain-narrowed-output", Pattern: "**.valueDomain", Kinds: changed, When: and(output, narrowed), Cond: "output, to a narrower kind", Class: Compatible, Why: "consumers receive fewer kinds of values"},
	{ID: "domain-kind-changed", Pattern: "**.valueDomain", Kinds: changed, Class: Breaking, Why: "the values allowed changed kind: callers or consumers relying on the old kind break"},
	{ID: "domain-declared", Pattern: "**.valueDomain", Kinds: addRemove, Class: Compatible, Why: "an output's domain is declared, or inherited from its parent"},
	{ID: "static-value-added-input", Pattern: "**.valueDomain.values[]", Kinds: added, When: input, Cond: "input", Class: Compatible, Why: "the domain widened: callers may send one more value"},
	{ID: "static-value-added-output", Pattern: "**.valueDomain.values[]", Kinds: added, Class: Breaking, Why: "consumers may receive a value they do not know"},
	{ID: "static-value-removed-input", Pattern: "**.valueDomain.values[]", Kinds: removed, When: input, Cond: "input", Class: Breaking, Why: "the domain narrowed: a value callers send is refused"},
	{ID: "static-value-removed-output", Pattern: "**.valueDomain.values[]", Kinds: removed, Class: Compatible, Why: "consumers receive fewer distinct values"},
	{ID: "domain-scope-narrowed", Pattern: "**.valueDomain.identityScoped|tenantScoped|sessionScoped", When: becameTrue, Cond: "false to true", Class: Breaking, Why: "values are valid in a narrower scope: values reused across it become invalid"},
	{ID: "domain-scope-widened", Pattern: "**.valueDomain.identityScoped|tenantScoped|sessionScoped", Class: Compatible, Why: "values stay valid in a wider scope"},
	{ID: "domain-source-changed", Pattern: "**.valueDomain.sourceCapabilityId|sourcePath|mappingKind", Class: Breaking, Why: "the values come from another provider or mapping"},
	{ID: "ttl-shortened", Pattern: "**.freshness.ttlSeconds", When: shortened, Cond: "shorter, or newly bounded", Class: Breaking, Why: "values expire sooner: reused values become stale"},
	{ID: "ttl-lengthened", Pattern: "**.freshness.ttlSeconds", Class: Compatible, Why: "values stay fresh longer"},
	{ID: "refresh-trigger-added", Pattern: "**.freshness.refreshWhen[]", Kinds: added, Class: Breaking, Why: "values must be refreshed in more cases"},
	{ID: "refresh-trigger-removed", Pattern: "**.freshness.refreshWhen[]", Kinds: removed, Class: Compatible, Why: "values are refreshed in fewer cases"},
	{ID: "freshness-bounded", Pattern: "**.freshness", Kinds: added, Class: Breaking, Why: "values now expire"},
	{ID: "freshness-unbounded", Pattern: "**.freshness", Kinds: removed, Class: Compatible, Why: "values no longer expire"},

	// Outputs: what consumers receive.
	{ID: "output-added", Pattern: "capabilities[].outputs[]", Kinds: added, Class: Compatible, Why: "results carry one more field"},
	{ID: "output-removed", Pattern: "capabilities[].outputs[]", Kinds: removed, Class: Breaking, Why: "consumers reading the field find nothing"},
	{ID: "output-type-changed", Pattern: "capabilities[].outputs[].type", Class: Breaking, Why: "consumers receive another type"},

	// Schemas: inputs and information needs narrow what callers may send,
	// outputs what consumers may receive.
	{ID: "schema-prose", Pattern: "**.schema.**.description|title|examples", Class: Cosmetic, Why: "prose"},
	{ID: "schema-default", Pattern: "**.schema.**.default", Class: Compatible, Why: "a suggested value changed; nothing is refused"},
	{ID: "property-added", Pattern: "**.schema.**.properties[]", Kinds: added, Class: Compatible, Why: "a new property, optional unless required says otherwise"},
	{ID: "property-removed", Pattern: "**.schema.**.properties[]", Kinds: removed, Class: Breaking, Why: "a closed object refuses the property callers send, or consumers miss it"},
	{ID: "schema-required-added-input", Pattern: "**.schema.**.required[]", Kinds: added, When: input, Cond: "input", Class: Breaking, Why: "callers must send one more property"},
	{ID: "schema-required-added-output", Pattern: "**.schema.**.required[]", Kinds: added, Class: Compatible, Why: "consumers can rely on one more property"},
	{ID: "schema-required-removed-input", Pattern: "**.schema.**.required[]", Kinds: removed, When: input, Cond: "input", Class: Compatible, Why: "callers may leave a property out"},
	{ID: "schema-required-removed-output", Pattern: "**.schema.**.required[]", Kinds: removed, Class: Breaking, Why: "consumers can no longer rely on the property"},
	{ID: "schema-value-added-input", Pattern: "**.schema.**.enum[]|type[]", Kinds: added, When: input, Cond: "input", Class: Compatible, Why: "callers may send more values"},
	{ID: "schema-value-added-output", Pattern: "**.schema.**.enum[]|type[]", Kinds: added, Class: Breaking, Why: "consumers may receive a value they do not know"},
	{ID: "schema-value-removed-input", Pattern: "**.schema.**.enum[]|type[]", Kinds: removed, When: input, Cond: "input", Class: Breaking, Why: "a value callers send is refused"},
	{ID: "schema-value-removed-output", Pattern: "**.schema.**.enum[]|type[]", Kinds: removed, Class: Compatible, Why: "consumers receive fewer values"},
	{ID: "schema-bound-tightened-input", Pattern: "**.schema.**." + boundKeywords, When: and(input, tightened), Cond: "input, tighter", Class: Breaking, Why: "values callers send today may be refused"},
	{ID: "schema-bound-loosened-input", Pattern: "**.schema.**." + boundKeywords, When: input, Cond: "input, looser", Class: Compatible, Why: "callers may send more values"},
	{ID: "schema-bound-tightened-output", Pattern: "**.schema.**." + boundKeywords, When: tightened, Cond: "output, tighter", Class: Compatible, Why: "consumers receive fewer values"},
	{ID: "schema-bound-loosened-output", Pattern: "**.schema.**." + boundKeywords, Class: Breaking, Why: "consumers may receive values outside what they expect"},
	{ID: "schema-changed", Pattern: "**.schema **.schema.**", Class: Breaking, Why: "the value's schema changed in a way no finer rule judges"},

	// Constraints and attachments.
	{ID: "constraint-added", Pattern: "capabilities[].constraints[]", Kinds: added, Class: Breaking, Why: "calls must satisfy one more rule"},
	{ID: "constraint-removed", Pattern: "capabilities[].constraints[]", Kinds: removed, Class: Compatible, Why: "calls need not satisfy the rule"},
	{ID: "constraint-changed", Pattern: "capabilities[].constraints[].**", Class: Breaking, Why: "a rule calls must satisfy changed"},
	{ID: "forbidden-input-dropped", Pattern: "capabilities[].attachments.forbiddenInputs[]", Kinds: removed, Class: Breaking, Why: "a protection is gone: the attachment input it forbade is accepted"},
	{ID: "forbidden-input-added", Pattern: "capabilities[].attachments.forbiddenInputs[]", Kinds: added, Class: Breaking, Why: "an attachment input callers used is refused"},
	{ID: "accepted-input-added", Pattern: "capabilities[].attachments.acceptedInputs[]", Kinds: added, Class: Compatible, Why: "one more attachment input is accepted"},
	{ID: "attachment-size-raised", Pattern: "capabilities[].attachments.metadata.maxSizeBytes", When: not(shortened), Cond: "larger", Class: Compatible, Why: "larger attachments are accepted"},
	{ID: "attachment-metadata-optional", Pattern: "capabilities[].attachments.metadata.required[]", Kinds: removed, Class: Compatible, Why: "attachments need one less piece of metadata"},
	{ID: "attachment-changed", Pattern: "capabilities[].attachments capabilities[].attachments.**", Class: Breaking, Why: "the attachment chain, or its guard, changed"},

	// Requests.
	{ID: "status-code-accepted", Pattern: "capabilities[].implementation.steps[].successStatusCodes[]", Kinds: added, Class: Compatible, Why: "one more response counts as success"},
	{ID: "status-code-refused", Pattern: "capabilities[].implementation.steps[].successStatusCodes[]", Kinds: removed, Class: Breaking, Why: "a response that was a success is a failure"},
	{ID: "binding-order", Pattern: "capabilities[].implementation.steps[].bindings", Kinds: reordered, Class: Cosmetic, Why: "bindings place values at distinct places; their order does not change the request"},
	{ID: "step-order", Pattern: "capabilities[].implementation.steps", Kinds: reordered, Class: Breaking, Why: "the requests are sent in another order"},
	{ID: "request-changed", Pattern: "capabilities[].implementation capabilities[].implementation.**", Kinds: []Kind{Added, Removed, Changed}, Class: Breaking, Why: "the request the Function sends changed"},

	// Success and failure.
	{ID: "success-relaxed", Pattern: "capabilities[].successRule.outputRequired", When: becameFalse, Cond: "true to false", Class: Compatible, Why: "results without output count as success"},
	{ID: "success-condition-removed", Pattern: "capabilities[].successRule.forbiddenOutputKeys[]|requiredOutputPaths[]", Kinds: removed, Class: Compatible, Why: "fewer results count as failures"},
	{ID: "success-tightened", Pattern: "capabilities[].successRule capabilities[].successRule.**", Class: Breaking, Why: "results that succeeded may count as failures"},
	{ID: "error-contract-changed", Pattern: "capabilities[].errorContract capabilities[].errorContract.**", Class: Breaking, Why: "consumers read failures' code, message, details or retryability elsewhere"},

	// Operation policy and the Tool's hints.
	{ID: "write-became-read", Pattern: "capabilities[].sideEffect capabilities[].operationPolicy.sideEffect", When: afterIs("read"), Cond: "now read", Class: Compatible, Why: "the capability no longer changes state"},
	{ID: "side-effect-changed", Pattern: "capabilities[].sideEffect capabilities[].operationPolicy.sideEffect", Class: Breaking, Why: "the capability changes state differently: a read became a write, or a write another write"},
	{ID: "confirmation-dropped", Pattern: "capabilities[].operationPolicy.confirmation", When: afterIs("not-required"), Cond: "now not-required", Class: Breaking, Why: "a write lost its confirmation"},
	{ID: "confirmation-changed", Pattern: "capabilities[].operationPolicy.confirmation", Class: Breaking, Why: "callers must obtain another confirmation"},
	{ID: "retry-stopped", Pattern: "capabilities[].operationPolicy.automaticRetry", When: afterIs("never"), Cond: "now never", Class: Compatible, Why: "the call is never retried automatically"},
	{ID: "retry-allowed", Pattern: "capabilities[].operationPolicy.automaticRetry", Class: Breaking, Why: "the call may now be retried automatically"},
	{ID: "policy-changed", Pattern: "capabilities[].operationPolicy capabilities[].operationPolicy.**", Class: Breaking, Why: "idempotency or unknown-outcome handling changed: retries and reconciliation differ"},
	{ID: "hint-more-cautious", Pattern: "capabilities[].annotations.*", When: moreCautious, Cond: "readOnly or idempotent to false, destructive or openWorld to true", Class: Compatible, Why: "Hosts treat the Tool more cautiously"},
	{ID: "hint-less-cautious", Pattern: "capabilities[].annotations capabilities[].annotations.**", Class: Breaking, Why: "Hosts may run the Tool with less caution (no confirmation, retries)"},

	// Protection of writes.
	{ID: "protection-lost", Pattern: "capabilities[].runtimeProtection", Kinds: removed, Class: Breaking, Why: "a write lost its guard"},
	{ID: "protection-changed", Pattern: "capabilities[].runtimeProtection capabilities[].runtimeProtection.mode|owner|workflowId", Class: Breaking, Why: "who protects the write, or how, changed"},
	{ID: "workflow-added", Pattern: "workflows[]", Kinds: added, Class: Breaking, Why: "a write gained a hard guard: calls must satisfy it"},
	{ID: "workflow-removed", Pattern: "workflows[]", Kinds: removed, Class: Breaking, Why: "a write lost its hard guard"},
	{ID: "workflow-binding-order", Pattern: "workflows[].bindings", Kinds: reordered, Class: Cosmetic, Why: "the guard checks the same values"},
	{ID: "workflow-changed", Pattern: "workflows[].**", Kinds: []Kind{Added, Removed, Changed}, Class: Breaking, Why: "the guard checks other values, or guards other writes"},

	// Host requirements.
	{ID: "host-requirement-added", Pattern: "capabilities[].hostRequirements[]", Kinds: added, Class: Breaking, Why: "a Host without the facility can no longer run the Tool"},
	{ID: "host-requirement-removed", Pattern: "capabilities[].hostRequirements[]", Kinds: removed, Class: Compatible, Why: "the Tool runs on more Hosts"},
	{ID: "requirement-listed", Pattern: "consumerRequirements.requirements[]", Kinds: addRemove, Class: Compatible, Why: "a requirement is declared or dropped; the capabilities that need it are judged themselves"},
	{ID: "requirement-changed", Pattern: "consumerRequirements.requirements[].hostCapability|onMissing", Class: Breaking, Why: "what the Host must provide, or what happens without it, changed"},

	{ID: "exposure-kind", Pattern: "capabilities[].exposure.kind", Class: Compatible, Why: "how the feature exposes the capability"},

	// Composition.
	{ID: "handoff-added", Pattern: "handoffs[]", Kinds: added, Class: Compatible, Why: "one more way to compose the Tools"},
	{ID: "handoff-removed", Pattern: "handoffs[]", Kinds: removed, Class: Breaking, Why: "a composition consumers use is gone"},
	{ID: "handoff-relaxed", Pattern: "handoffs[].required", When: becameFalse, Cond: "true to false", Class: Compatible, Why: "the handoff is optional"},
	{ID: "handoff-changed", Pattern: "handoffs[].**", Class: Breaking, Why: "what one Tool hands the next changed"},
	{ID: "precondition-added", Pattern: "capabilityGraph.edges[]", Kinds: added, When: hardEdge, Cond: "a hard precondition", Class: Breaking, Why: "a Tool now needs another one first"},
	{ID: "graph-edge", Pattern: "capabilityGraph.edges[]", Kinds: addRemove, Class: Compatible, Why: "a composition is described or dropped"},
	{ID: "precondition-hardened", Pattern: "capabilityGraph.edges[].kind|required", When: func(c *Change) bool { return afterIs("hard-precondition")(c) || becameTrue(c) }, Cond: "now hard or required", Class: Breaking, Why: "a Tool now needs another one first"},
	{ID: "graph-changed", Pattern: "capabilityGraph.**", Class: Compatible, Why: "how the capabilities compose is described differently"},

	// Goals.
	{ID: "goal-added", Pattern: "goals[]", Kinds: added, Class: Compatible, Why: "a new goal"},
	{ID: "goal-removed", Pattern: "goals[]", Kinds: removed, Class: Breaking, Why: "consumers pursuing the goal lose its guidance"},
	{ID: "need-added-required", Pattern: "goals[].informationNeeds[]", Kinds: added, When: requiredNeed, Cond: "required or requiredWhen", Class: Breaking, Why: "the goal needs one more piece of information"},
	{ID: "need-added", Pattern: "goals[].informationNeeds[]", Kinds: added, Class: Compatible, Why: "the goal may use one more piece of information"},
	{ID: "need-removed", Pattern: "goals[].informationNeeds[]", Kinds: removed, Class: Compatible, Why: "the goal needs one less piece of information"},
	{ID: "need-relaxed", Pattern: "goals[].informationNeeds[].classification", When: afterIs("optional"), Cond: "now optional", Class: Compatible, Why: "the goal completes without it"},
	{ID: "provider-added", Pattern: "goals[].informationNeeds[].satisfiedBy[]", Kinds: added, Class: Compatible, Why: "one more provider of the information"},
	{ID: "reuse-relaxed", Pattern: "goals[].informationNeeds[].reuseWhile goals[].informationNeeds[].reuseWhile.*", When: func(c *Change) bool { return c.Kind == Removed || becameFalse(c) }, Cond: "a reuse condition dropped", Class: Compatible, Why: "obtained values may be reused more often"},
	{ID: "required-capability-dropped", Pattern: "goals[].requiredCapabilityIds[]", Kinds: removed, Class: Compatible, Why: "the goal needs one Tool less"},
	{ID: "optional-capabilities", Pattern: "goals[].optionalCapabilityIds[] goals[].conditionalCapabilityIds[]", Kinds: addRemove, Class: Compatible, Why: "a Tool the goal may use is listed or dropped"},
	{ID: "goal-changed", Pattern: "goals[].**", Class: Breaking, Why: "what the goal needs, how it is supplied or when it is complete changed"},

	// The rest of the contract.
	{ID: "conflict", Pattern: "conflicts[] conflicts[].**", Class: Compatible, Why: "a recorded conflict between pieces of evidence changed"},
	{ID: "server-renamed", Pattern: "server.name", Class: Breaking, Why: "Hosts register the MCP server under its name"},
	{ID: "boundary", Pattern: "featureBoundary.**", Class: Compatible, Why: "which sources define the feature changed"},
	{ID: "recording", Pattern: "recordingId|sourceTopologyRef", Class: Cosmetic, Why: "the name of the recording or of the topology file"},

	// Anywhere.
	{ID: "reordered", Pattern: "**", Kinds: reordered, Class: Cosmetic, Why: "the order the elements are presented in"},
	{ID: "changed", Pattern: "**", Class: Breaking, Why: "no finer rule judges this change: a consumer may notice it"},
}

// boundKeywords are the schema keywords that bound a value.
const boundKeywords = "minimum|exclusiveMinimum|minLength|minItems|minProperties|maximum|exclusiveMaximum|maxLength|maxItems|maxProperties|additionalProperties|pattern|format|const|multipleOf|uniqueItems"

// classify returns the first rule that matches c.
func classify(c *Change) *Rule {
	for i := range Rules {
		r := &Rules[i]
		if (len(r.Kinds) == 0 || slices.Contains(r.Kinds, c.Kind)) && match(r.Pattern, c.Shape) && (r.When == nil || r.When(c)) {
			return r
		}
	}
	panic("contractdiff: no rule matched " + c.Shape) // the last rule matches everything
}

// match reports whether shape matches one of pattern's space-separated
// alternatives.
func match(pattern, shape string) bool {
	seg := strings.Split(shape, ".")
	for _, alt := range strings.Fields(pattern) {
		if matchSegments(strings.Split(alt, "."), seg) {
			return true
		}
	}
	return false
}

func matchSegments(pat, seg []string) bool {
	if len(pat) == 0 {
		return len(seg) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(seg); i++ {
			if matchSegments(pat[1:], seg[i:]) {
				return true
			}
		}
		return false
	}
	if len(seg) == 0 || !segmentMatches(pat[0], seg[0]) {
		return false
	}
	return matchSegments(pat[1:], seg[1:])
}

// segmentMatches matches one segment: "*" any, "*[]" any element, "a|b"
// either.
func segmentMatches(pat, seg string) bool {
	for _, alt := range strings.Split(pat, "|") {
		if alt == "*" || alt == seg || alt == "*[]" && strings.HasSuffix(seg, "[]") {
			return true
		}
	}
	return false
}

// Conditions of rules.

func input(c *Change) bool  { return !c.output }
func output(c *Change) bool { return c.output }

func and(fs ...func(*Change) bool) func(*Change) bool {
	return func(c *Change) bool {
		for _, f := range fs {
			if !f(c) {
				return false
			}
		}
		return true
	}
}

func not(f func(*Change) bool) func(*Change) bool { return func(c *Change) bool { return !f(c) } }

func isTrue(v canonjson.Value) bool { return v == canonjson.Bool(true) }

// moreCautious: a Tool hint that makes Hosts more careful.
func moreCautious(c *Change) bool {
	switch c.Shape[strings.LastIndexByte(c.Shape, '.')+1:] {
	case "readOnlyHint", "idempotentHint":
		return becameFalse(c)
	case "destructiveHint", "openWorldHint":
		return becameTrue(c)
	}
	return false
}

func becameTrue(c *Change) bool  { return !isTrue(c.Before) && isTrue(c.After) }
func becameFalse(c *Change) bool { return isTrue(c.Before) && !isTrue(c.After) }

func afterIs(s string) func(*Change) bool {
	return func(c *Change) bool { return c.After == canonjson.String(s) }
}

func statusIs(s string) func(*Change) bool {
	return func(c *Change) bool {
		o, _ := c.After.(*canonjson.Object)
		return o.At("status") == canonjson.String(s) || c.After == canonjson.String(s)
	}
}

// requiredInput: an input that is required, or required when a condition
// holds.
func requiredInput(c *Change) bool {
	o, _ := c.After.(*canonjson.Object)
	when, _ := o.At("requiredWhen").(canonjson.Array)
	return isTrue(o.At("required")) || len(when) > 0
}

func requiredNeed(c *Change) bool {
	o, _ := c.After.(*canonjson.Object)
	cl := o.At("classification")
	return cl == canonjson.String("required") || cl == canonjson.String("requiredWhen")
}

func hardEdge(c *Change) bool {
	o, _ := c.After.(*canonjson.Object)
	return o.At("kind") == canonjson.String("hard-precondition") || isTrue(o.At("required"))
}

// breadth orders value-domain kinds: unconstrained holds every value a
// static or dynamic domain holds.
func breadth(v canonjson.Value) int {
	o, _ := v.(*canonjson.Object)
	if o.At("kind") == canonjson.String("unconstrained") {
		return 1
	}
	return 0
}

func widened(c *Change) bool  { return breadth(c.After) > breadth(c.Before) }
func narrowed(c *Change) bool { return breadth(c.After) < breadth(c.Before) }

// shortened: a number that became smaller, or a bound that appeared.
func shortened(c *Change) bool {
	if c.Before == nil {
		return c.After != nil
	}
	b, okb := c.Before.(canonjson.Number)
	a, oka := c.After.(canonjson.Number)
	if !okb || !oka {
		return false
	}
	cmp, ok := canonjson.CompareNumbers(a, b)
	return ok && cmp < 0
}

// tightened: a schema bound that refuses more values than before.
func tightened(c *Change) bool {
	keyword := c.Shape[strings.LastIndexByte(c.Shape, '.')+1:]
	switch keyword {
	case "additionalProperties":
		return c.After == canonjson.Bool(false)
	case "pattern", "format", "const", "multipleOf":
		return c.After != nil
	case "uniqueItems":
		return isTrue(c.After)
	}
	if c.After == nil {
		return false
	}
	if c.Before == nil {
		return true
	}
	a, oka := c.After.(canonjson.Number)
	b, okb := c.Before.(canonjson.Number)
	cmp, ok := canonjson.CompareNumbers(a, b)
	if !oka || !okb || !ok {
		return true
	}
	if strings.HasPrefix(keyword, "min") || keyword == "exclusiveMinimum" {
		return cmp > 0
	}
	return cmp < 0
}

// weakened: an assertion level that proves less than before.
func weakened(c *Change) bool {
	rank := func(v canonjson.Value) int {
		switch v {
		case canonjson.String("fact"):
			return 2
		case canonjson.String("inference"):
			return 1
		}
		return 0
	}
	return rank(c.After) < rank(c.Before)
}

// RulesTable renders Rules as a Markdown table, the form
// docs/contract-diff.md documents it in.
func RulesTable() string {
	var b strings.Builder
	b.WriteString("| rule | where (shape) | change | when | class | why |\n|---|---|---|---|---|---|\n")
	for _, r := range Rules {
		kinds := "any"
		if len(r.Kinds) > 0 {
			var ks []string
			for _, k := range r.Kinds {
				ks = append(ks, string(k))
			}
			kinds = strings.Join(ks, ", ")
		}
		cond := r.Cond
		if cond == "" {
			cond = "-"
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s | %s | %s |\n", r.ID, strings.ReplaceAll(strings.Join(strings.Fields(r.Pattern), "` `"), "|", "\\|"), kinds, cond, r.Class, r.Why)
	}
	return b.String()
}
