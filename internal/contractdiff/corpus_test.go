package contractdiff_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractdiff"
)

func decodeContract(t testing.TB, data []byte) *contract.Contract {
	t.Helper()
	c, l := contract.DecodeContract(contract.ContractFile, data)
	if l.HasErrors() {
		t.Fatalf("contract does not decode: %s", contracttest.Findings(l))
	}
	return c
}

func reference(t testing.TB) []byte { return contracttest.Reference(t, contract.ContractFile) }

// compare diffs the reference patched by oldOps with the reference patched
// by newOps.
func compare(t testing.TB, oldOps, newOps []contracttest.Op) *contractdiff.Diff {
	t.Helper()
	d, err := contractdiff.Compare(decodeContract(t, contracttest.Patch(t, reference(t), oldOps...)),
		decodeContract(t, contracttest.Patch(t, reference(t), newOps...)))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// summary lists a diff's changes as "class rule kind", sorted.
func summary(d *contractdiff.Diff) []string {
	var out []string
	for _, c := range d.Changes {
		out = append(out, fmt.Sprintf("%s %s %s", c.Class, c.Rule, c.Kind))
	}
	slices.Sort(out)
	return out
}

var set, remove, add = contracttest.Set, contracttest.Remove, contracttest.Append

// An edit of the corpus: the old and new contracts are the reference with
// these edits; want is every change the diff must report.
type edit struct {
	name     string
	old, new []contracttest.Op
	want     []string
}

// corpus has one edit for every kind of change the diff classifies.
var corpus = []edit{
	// Nothing that carries meaning.
	{name: "identical", want: nil},
	{name: "line drift", old: []contracttest.Op{set("/evidenceCatalog/0/locator", `"features/sample-request/entry:12#submitIntent"`)},
		new: []contracttest.Op{set("/evidenceCatalog/0/locator", `"features/sample-request/entry:19-30#submitIntent"`)}, want: nil},
	{name: "line hint added", new: []contracttest.Op{set("/evidenceCatalog/1/locator", `"features/sample-request/api:7#listKinds"`)}, want: nil},

	// Capabilities.
	{name: "capability added", new: []contracttest.Op{add("/capabilities", capabilityCopy)}, want: []string{"compatible capability-added added"}},
	{name: "capability removed", new: []contracttest.Op{remove("/capabilities/3")}, want: []string{"breaking capability-removed removed"}},
	{name: "capability renamed", new: renameSave("save-draft"), want: []string{"compatible capability-renamed renamed"}},
	// Not renamings: the old capability is gone and its references with it.
	{name: "capability renamed with another Tool", new: append(renameSave("save-draft"), set("/capabilities/3/toolName", `"save_draft"`)),
		want: []string{"breaking capability-removed removed", "compatible capability-added added",
			"breaking goal-changed removed", "breaking goal-changed added", "breaking goal-changed removed", "breaking goal-changed added",
			"compatible provider-added added", "compatible required-capability-dropped removed",
			"compatible graph-changed removed", "compatible graph-changed added"}},
	{name: "capability renamed and changed", new: append(renameSave("save-draft"), set("/capabilities/3/inputs/0/required", `false`)),
		want: []string{"breaking capability-removed removed", "compatible capability-added added",
			"breaking goal-changed removed", "breaking goal-changed added", "breaking goal-changed removed", "breaking goal-changed added",
			"compatible provider-added added", "compatible required-capability-dropped removed",
			"compatible graph-changed removed", "compatible graph-changed added"}},
	{name: "tool renamed", new: []contracttest.Op{set("/capabilities/0/toolName", `"list_kinds"`)}, want: []string{"breaking tool-renamed changed"}},
	{name: "readiness lost", new: []contracttest.Op{set("/capabilities/3/readiness", `"requires-review"`)}, want: []string{"breaking readiness-lost changed"}},
	{name: "description", new: []contracttest.Op{set("/capabilities/0/description", `"List kinds."`), set("/goals/0/intent", `"Prepare."`)},
		want: []string{"cosmetic prose changed", "cosmetic prose changed"}},

	// Inputs.
	{name: "required input added", new: []contracttest.Op{add("/capabilities/3/inputs", inputNote(true))}, want: []string{"breaking input-added-required added"}},
	{name: "optional input added", new: []contracttest.Op{add("/capabilities/3/inputs", inputNote(false))}, want: []string{"compatible input-added-optional added"}},
	{name: "input removed", new: []contracttest.Op{remove("/capabilities/0/inputs/0")}, want: []string{"breaking input-removed removed"}},
	{name: "input now required", new: []contracttest.Op{set("/capabilities/0/inputs/0/required", `true`)}, want: []string{"breaking input-now-required changed"}},
	{name: "input now optional", new: []contracttest.Op{set("/capabilities/3/inputs/0/required", `false`)}, want: []string{"compatible input-now-optional changed"}},
	{name: "requiredWhen added", new: []contracttest.Op{set("/capabilities/0/inputs/0/requiredWhen", `[{"path": ["x"], "operator": "present"}]`)},
		want: []string{"breaking required-when-added added"}},
	{name: "requiredWhen removed", new: []contracttest.Op{set("/capabilities/2/inputs/2/requiredWhen", `[]`)}, want: []string{"compatible required-when-removed removed"}},
	{name: "requiredWhen evidence", new: []contracttest.Op{set("/capabilities/2/inputs/2/requiredWhen/0/evidenceRefs", `["ev-service-selection", "ev-contract-validation"]`)},
		want: []string{"compatible evidence-changed added"}},
	{name: "input type", new: []contracttest.Op{set("/capabilities/0/inputs/0/type", `"integer"`)}, want: []string{"breaking input-type-changed changed"}},
	{name: "source strategy added", new: []contracttest.Op{add("/capabilities/3/inputs/0/sourceStrategies", `{"kind": "trusted-host-context", "requirementId": "session-state"}`)},
		want: []string{"compatible source-strategy-added added"}},
	{name: "source strategy removed", old: []contracttest.Op{add("/capabilities/3/inputs/0/sourceStrategies", `{"kind": "trusted-host-context", "requirementId": "session-state"}`)},
		want: []string{"breaking source-strategy-removed removed"}},

	// Value domains and their scope.
	{name: "input domain narrowed", new: []contracttest.Op{set("/capabilities/0/inputs/0/valueDomain/values", `["compact"]`)}, want: []string{"breaking static-value-removed-input removed"}},
	{name: "input domain widened", new: []contracttest.Op{set("/capabilities/0/inputs/0/valueDomain/values", `["compact", "full", "raw"]`)}, want: []string{"compatible static-value-added-input added"}},
	{name: "input domain unconstrained", new: []contracttest.Op{set("/capabilities/0/inputs/0/valueDomain", `{"kind": "unconstrained"}`)}, want: []string{"compatible domain-widened-input changed"}},
	{name: "input domain constrained", new: []contracttest.Op{set("/capabilities/3/inputs/0/valueDomain", `{"kind": "static", "values": [{"subject": "a"}], "evidenceRefs": ["ev-contract-save"]}`)},
		want: []string{"breaking domain-kind-changed changed"}},
	{name: "output domain widened", old: []contracttest.Op{set("/capabilities/3/outputs/0/valueDomain", `{"kind": "static", "values": ["d-1"], "evidenceRefs": ["ev-contract-save"]}`)},
		new:  []contracttest.Op{set("/capabilities/3/outputs/0/valueDomain", `{"kind": "static", "values": ["d-1", "d-2"], "evidenceRefs": ["ev-contract-save"]}`)},
		want: []string{"breaking static-value-added-output added"}},
	{name: "output domain narrowed to static", new: []contracttest.Op{set("/capabilities/3/outputs/0/valueDomain", `{"kind": "static", "values": ["d-1"], "evidenceRefs": ["ev-contract-save"]}`)},
		want: []string{"compatible domain-narrowed-output changed"}},
	{name: "domain scope narrowed", new: []contracttest.Op{set("/capabilities/1/outputs/0/valueDomain/tenantScoped", `true`)}, want: []string{"breaking domain-scope-narrowed changed"}},
	{name: "domain scope widened", new: []contracttest.Op{set("/capabilities/0/outputs/0/valueDomain/sessionScoped", `false`)}, want: []string{"compatible domain-scope-widened changed"}},
	{name: "ttl shortened", new: []contracttest.Op{set("/capabilities/0/outputs/0/valueDomain/freshness/ttlSeconds", `60`)}, want: []string{"breaking ttl-shortened changed"}},
	{name: "refresh trigger added", new: []contracttest.Op{add("/capabilities/0/outputs/0/valueDomain/freshness/refreshWhen", `"consumed"`)}, want: []string{"breaking refresh-trigger-added added"}},

	// Schemas.
	{name: "schema property required", new: []contracttest.Op{set("/capabilities/3/inputs/0/schema/required", `["subject", "note"]`)}, want: []string{"breaking schema-required-added-input added"}},
	{name: "schema property dropped", new: []contracttest.Op{remove("/capabilities/3/inputs/0/schema/properties/note")}, want: []string{"breaking property-removed removed"}},
	{name: "schema bound tightened", new: []contracttest.Op{set("/capabilities/3/inputs/0/schema/properties/subject/maxLength", `80`)}, want: []string{"breaking schema-bound-tightened-input added"}},
	{name: "output schema property required", new: []contracttest.Op{set("/capabilities/2/outputs/0/schema/required", `["grantId"]`)}, want: []string{"breaking schema-required-removed-output removed"}},
	{name: "schema description", new: []contracttest.Op{set("/capabilities/3/inputs/0/schema/properties/note/description", `"A note."`)}, want: []string{"cosmetic prose added"}},

	// Outputs.
	{name: "output added", new: []contracttest.Op{add("/capabilities/3/outputs", `{"path": ["savedAt"], "type": "string", "valueDomain": {"kind": "unconstrained"}, "evidenceRefs": ["ev-contract-save"]}`)},
		want: []string{"compatible output-added added"}},
	{name: "output removed", new: []contracttest.Op{remove("/capabilities/2/outputs/1")}, want: []string{"breaking output-removed removed"}},

	// Requests and success.
	{name: "request binding moved", new: []contracttest.Op{set("/capabilities/0/implementation/steps/0/bindings/0/location", `"header"`)},
		want: []string{"breaking request-changed added", "breaking request-changed removed"}},
	{name: "request URL", new: []contracttest.Op{set("/capabilities/0/implementation/steps/0/url", `"https://application.example/api/kinds"`)}, want: []string{"breaking request-changed changed"}},
	{name: "status code accepted", new: []contracttest.Op{set("/capabilities/3/implementation/steps/0/successStatusCodes", `[200, 204]`)}, want: []string{"compatible status-code-accepted added"}},
	{name: "steps reordered", old: twoSteps(`"a"`, `"b"`), new: twoSteps(`"b"`, `"a"`), want: []string{"breaking step-order reordered"}},

	// Operation policy, hints and protection.
	{name: "read became write", old: []contracttest.Op{set("/capabilities/3/sideEffect", `"read"`), set("/capabilities/3/operationPolicy/sideEffect", `"read"`), set("/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect", `"read"`)},
		want: []string{"breaking side-effect-changed changed", "breaking side-effect-changed changed", "compatible evidence-changed changed"}},
	{name: "write became read", new: []contracttest.Op{set("/capabilities/3/sideEffect", `"read"`), set("/capabilities/3/operationPolicy/sideEffect", `"read"`), set("/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect", `"read"`)},
		want: []string{"compatible write-became-read changed", "compatible write-became-read changed", "compatible evidence-changed changed"}},
	{name: "confirmation dropped", new: []contracttest.Op{set("/capabilities/4/operationPolicy/confirmation", `"not-required"`)}, want: []string{"breaking confirmation-dropped changed"}},
	{name: "retry allowed", new: []contracttest.Op{set("/capabilities/4/operationPolicy/automaticRetry", `"read-only-bounded"`)}, want: []string{"breaking retry-allowed changed"}},
	{name: "idempotency", new: []contracttest.Op{set("/capabilities/4/operationPolicy/idempotency", `"none"`)}, want: []string{"breaking policy-changed changed"}},
	{name: "unknown outcome", new: []contracttest.Op{set("/capabilities/4/operationPolicy/unknownOutcome", `"reconcile-before-any-retry"`)}, want: []string{"breaking policy-changed changed"}},
	{name: "hint less cautious", new: []contracttest.Op{set("/capabilities/4/annotations/destructiveHint", `false`)}, want: []string{"breaking hint-less-cautious changed"}},
	{name: "hint more cautious", new: []contracttest.Op{set("/capabilities/0/annotations/idempotentHint", `false`)}, want: []string{"compatible hint-more-cautious changed"}},
	{name: "write lost its guard", new: []contracttest.Op{remove("/capabilities/4/runtimeProtection")}, want: []string{"breaking protection-lost removed"}},
	{name: "protection mode", new: []contracttest.Op{set("/capabilities/3/runtimeProtection/mode", `"unresolved"`)}, want: []string{"breaking protection-changed changed"}},

	// Workflows.
	{name: "guard binding dropped", new: []contracttest.Op{remove("/workflows/1/bindings/3")}, want: []string{"breaking workflow-changed removed"}},
	{name: "guard binding reordered", new: swapGuardBindings(), want: []string{"cosmetic workflow-binding-order reordered"}},
	{name: "workflow removed", new: []contracttest.Op{remove("/workflows/0")}, want: []string{"breaking workflow-removed removed"}},

	// Goals and needs.
	{name: "goal need required", new: []contracttest.Op{add("/goals/1/informationNeeds", `{"informationId": "approver", "classification": "required", "type": "string", "satisfiedBy": [{"kind": "user"}]}`)},
		want: []string{"breaking need-added-required added"}},
	{name: "goal need optional", new: []contracttest.Op{set("/goals/1/informationNeeds/0/classification", `"optional"`)}, want: []string{"compatible need-relaxed changed"}},
	{name: "goal removed", new: []contracttest.Op{remove("/goals/1")}, want: []string{"breaking goal-removed removed"}},
	{name: "goal reuse condition", new: []contracttest.Op{set("/goals/1/informationNeeds/0/reuseWhile/sameSubject", `true`)}, want: []string{"breaking goal-changed added"}},

	// Host requirements.
	{name: "host requirement added", new: []contracttest.Op{add("/capabilities/0/hostRequirements", `"trusted-confirmation"`)}, want: []string{"breaking host-requirement-added added"}},
	{name: "host requirement removed", new: []contracttest.Op{set("/capabilities/0/hostRequirements", `["agent-skills-discovery", "mcp-tool-invocation", "authentication-injection"]`)},
		want: []string{"compatible host-requirement-removed removed"}},
	{name: "requirement degrades differently", new: []contracttest.Op{set("/consumerRequirements/requirements/1/onMissing", `"requires-host-integration"`)}, want: []string{"breaking requirement-changed changed"}},

	// Evidence.
	{name: "evidence added", new: []contracttest.Op{add("/evidenceCatalog", `{"evidenceId": "ev-new", "sourceId": "sample-tests", "locator": "x#y", "semanticRole": "workflow-test", "assertionLevel": "fact"}`)},
		want: []string{"compatible evidence-changed added"}},
	{name: "evidence removed", new: []contracttest.Op{remove("/evidenceCatalog/25")}, want: []string{"compatible evidence-changed removed"}},
	{name: "evidence moved", new: []contracttest.Op{set("/evidenceCatalog/1/locator", `"features/sample-request/client#listKinds"`)}, want: []string{"cosmetic evidence-moved moved"}},
	{name: "evidence weakened", new: []contracttest.Op{set("/capabilities/3/evidenceCoverage/idempotency/assertionLevel", `"inference"`)}, want: []string{"breaking coverage-weakened changed"}},
	{name: "evidence cited", new: []contracttest.Op{add("/capabilities/0/evidenceRefs", `"ev-contract-errors"`)}, want: []string{"compatible evidence-changed added"}},

	// Composition and the rest.
	{name: "handoff removed", new: []contracttest.Op{remove("/handoffs/0")}, want: []string{"breaking handoff-removed removed"}},
	{name: "server renamed", new: []contracttest.Op{set("/server/name", `"requests"`)}, want: []string{"breaking server-renamed changed"}},
	{name: "capabilities reordered", new: swapCapabilities(), want: []string{"cosmetic reordered reordered"}},
}

// capabilityCopy is a new capability: the first one under new names.
const capabilityCopy = `{"capabilityId": "list-other-kinds", "toolName": "list_other_kinds", "functionExport": "listOtherKinds", "description": "x", "authentication": "runtime_context", "readiness": "ready", "exposure": {"kind": "client-request", "evidenceRefs": ["ev-client-list-call"]}, "inputs": [], "outputs": [{"path": ["options"], "type": "array", "valueDomain": {"kind": "unconstrained"}, "evidenceRefs": ["ev-contract-catalog"]}], "implementation": {"kind": "local"}, "successRule": {"kind": "output", "outputRequired": true, "forbiddenOutputKeys": [], "requiredOutputPaths": [], "evidenceRefs": ["ev-contract-catalog"]}, "errorContract": {"format": "structured", "preservesRecoveryContext": true, "codePath": ["code"], "messagePath": ["message"], "detailsPath": ["details"], "defaultRetryable": false, "evidenceRefs": ["ev-contract-errors"]}, "operationPolicy": {"sideEffect": "read", "idempotency": "safe", "automaticRetry": "read-only-bounded", "confirmation": "not-required", "unknownOutcome": "not-applicable"}, "annotations": {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}, "sideEffect": "read", "hostRequirements": ["mcp-tool-invocation"], "evidenceCoverage": {"sideEffect": {"declaredSideEffect": "read", "assertionLevel": "fact", "evidenceRefs": ["ev-contract-catalog"]}}, "evidenceRefs": ["ev-contract-catalog"]}`

func inputNote(required bool) string {
	return fmt.Sprintf(`{"name": "note", "description": "A note.", "type": "string", "required": %t, "informationClass": "optional", "sourceStrategies": ["user"], "valueDomain": {"kind": "unconstrained"}, "evidenceRefs": ["ev-contract-save"]}`, required)
}

// renameSave renames save-sample-draft to id, everywhere the reference
// refers to it.
func renameSave(id string) []contracttest.Op {
	q := `"` + id + `"`
	return []contracttest.Op{
		set("/capabilities/3/capabilityId", q),
		set("/capabilityGraph/nodes/3/capabilityId", q),
		set("/goals/1/informationNeeds/0/supplies/0/capabilityId", q),
		set("/goals/1/informationNeeds/1/satisfiedBy/0/capabilityId", q),
		set("/goals/1/requiredCapabilityIds", `[`+q+`]`),
	}
}

func twoSteps(first, second string) []contracttest.Op {
	step := func(id string) string {
		return `{"stepId": ` + id + `, "method": "GET", "url": "https://application.example/api/` + strings.Trim(id, `"`) + `", "successStatusCodes": [200], "evidenceRefs": ["ev-contract-catalog"]}`
	}
	return []contracttest.Op{set("/capabilities/0/implementation/steps", "["+step(first)+", "+step(second)+"]")}
}

func swapCapabilities() []contracttest.Op {
	caps := jsonAt("/capabilities")
	return []contracttest.Op{set("/capabilities", "["+caps[1]+", "+caps[0]+", "+strings.Join(caps[2:], ", ")+"]")}
}

func swapGuardBindings() []contracttest.Op {
	b := jsonAt("/workflows/1/bindings")
	return []contracttest.Op{set("/workflows/1/bindings", "["+b[1]+", "+b[0]+", "+strings.Join(b[2:], ", ")+"]")}
}

func TestCorpus(t *testing.T) {
	for _, e := range corpus {
		t.Run(e.name, func(t *testing.T) {
			d := compare(t, e.old, e.new)
			want := slices.Clone(e.want)
			slices.Sort(want)
			if got := summary(d); !slices.Equal(got, want) {
				t.Errorf("changes:\n  %s\nwant:\n  %s\n%s", strings.Join(got, "\n  "), strings.Join(want, "\n  "), describe(d))
			}
			semantic := slices.ContainsFunc(e.want, func(s string) bool { return !strings.HasPrefix(s, "cosmetic") })
			if d.Semantic() != semantic || (d.Digest() != "") != semantic {
				t.Errorf("Semantic = %v, digest %q, want semantic %v", d.Semantic(), d.Digest(), semantic)
			}
		})
	}
}

func describe(d *contractdiff.Diff) string {
	var b strings.Builder
	for _, c := range d.Changes {
		fmt.Fprintf(&b, "  %s %s %s at %s (%s)\n", c.Class, c.Rule, c.Summary(), c.Where, c.Shape)
	}
	return b.String()
}
