package derive_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/diag"
)

// ruleCase is one minimal edit of a reference input that must make a rule
// fire at a given place. The unedited reference inputs, and every synthetic
// package, produce no finding at all (see derive_test.go): together they are
// each rule's failing and passing fixtures.
type ruleCase struct {
	rule string
	file string
	ops  []contracttest.Op
	at   string // JSON Pointer of the finding
}

var (
	set    = contracttest.Set
	remove = contracttest.Remove
	add    = contracttest.Append
)

var ruleCases = []ruleCase{
	{"TOPOLOGY_MACHINE_WIDE", contract.TopologyFile, ops(set("/authorizationBoundary/machineWideDiscovery", `true`)), "/authorizationBoundary/machineWideDiscovery"},
	{"TOPOLOGY_DUPLICATE_SOURCE", contract.TopologyFile, ops(set("/sources/2/sourceId", `"sample-client"`)), "/sources/2/sourceId"},
	{"TOPOLOGY_ROOT_NOT_PORTABLE", contract.TopologyFile, ops(set("/sources/0/root", `"../client"`)), "/sources/0/root"},
	{"TOPOLOGY_ROOT_NOT_PORTABLE", contract.TopologyFile, ops(set("/sources/1/root", `"C:\\sources\\service"`)), "/sources/1/root"},
	{"TOPOLOGY_MISSING_SOURCE_AVAILABLE", contract.TopologyFile,
		ops(set("/missingSources", `[{"availability": "available", "semanticRoles": ["persistence"], "reason": "not searched"}]`)), "/missingSources/0/availability"},

	{"CONTRACT_TOPOLOGY_REF", contract.ContractFile, ops(set("/sourceTopologyRef", `"sources.json"`)), "/sourceTopologyRef"},
	{"CONTRACT_FEATURE_BOUNDARY", contract.ContractFile, ops(set("/featureBoundary/inclusionRule", `"explicitly-scoped-surface"`)), "/featureBoundary/inclusionRule"},
	{"CONTRACT_FEATURE_BOUNDARY", contract.ContractFile, ops(add("/featureBoundary/supplementarySourceIds", `"sample-client"`)), "/featureBoundary/supplementarySourceIds/3"},
	{"CONTRACT_FEATURE_BOUNDARY", contract.ContractFile, ops(remove("/featureBoundary/clientSourceIds")), "/featureBoundary"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, ops(set("/capabilities/1/toolName", `"list_sample_request_kinds"`)), "/capabilities/1/toolName"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, ops(set("/evidenceCatalog/1/evidenceId", `"ev-client-goal"`)), "/evidenceCatalog/1/evidenceId"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, ops(set("/capabilities/2/inputs/1/name", `"selectionGrant"`)), "/capabilities/2/inputs/1/name"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, ops(set("/goals/2/informationNeeds/1/informationId", `"current-selection"`)), "/goals/2/informationNeeds/1/informationId"},
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, ops(set("/workflows/1/workflowId", `"upload-sample-attachment"`)), "/workflows/1/workflowId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/handoffs/0/toCapabilityId", `"list-other-kinds"`)), "/handoffs/0/toCapabilityId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/capabilities/0/hostRequirements/3", `"session-storage"`)), "/capabilities/0/hostRequirements/3"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/evidenceCatalog/0/sourceId", `"sample-desktop-client"`)), "/evidenceCatalog/0/sourceId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/capabilities/3/implementation/outputStepId", `"save"`)), "/capabilities/3/implementation/outputStepId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/goals/1/informationNeeds/0/supplies/0/inputName", `"draft"`)), "/goals/1/informationNeeds/0/supplies/0/inputName"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/workflows/1/bindings/4/actualSource/inputName", `"grant"`)), "/workflows/1/bindings/4/actualSource/inputName"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, ops(set("/capabilities/0/exposure/supplementalEvidenceRefs/0", `"ev-contract-list"`)), "/capabilities/0/exposure/supplementalEvidenceRefs/0"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, ops(set("/capabilities/2/inputs/2/requiredWhen/0/evidenceRefs/0", `"ev-selection"`)), "/capabilities/2/inputs/2/requiredWhen/0/evidenceRefs/0"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, ops(set("/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueBinding/0", `"ev-submit"`)), "/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueBinding/0"},
	{"CONTRACT_EVIDENCE_ROLE", contract.ContractFile, ops(set("/evidenceCatalog/0/semanticRole", `"authorization"`)), "/evidenceCatalog/0/semanticRole"},
	{"CONTRACT_LOCATOR_NOT_PORTABLE", contract.ContractFile, ops(set("/evidenceCatalog/0/locator", `"/home/features/entry#submitIntent"`)), "/evidenceCatalog/0/locator"},
	{"CONTRACT_LOCATOR_NOT_PORTABLE", contract.ContractFile, ops(set("/evidenceCatalog/1/locator", `"file:///features/api#listKinds"`)), "/evidenceCatalog/1/locator"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, ops(set("/capabilities/0/toolName", `"List-Kinds"`)), "/capabilities/0/toolName"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, ops(set("/capabilities/3/functionExport", `"delete"`)), "/capabilities/3/functionExport"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, ops(set("/server/name", `"Sample"`)), "/server/name"},
	{"CONTRACT_READINESS", contract.ContractFile, ops(set("/capabilities/0/missingEvidence", `["the catalog size is unknown"]`)), "/capabilities/0/missingEvidence"},
	{"CONTRACT_READINESS", contract.ContractFile, ops(set("/capabilities/0/readiness", `"requires-review"`)), "/capabilities/0/readiness"},
	{"CONTRACT_SIDE_EFFECT_MISMATCH", contract.ContractFile, ops(set("/capabilities/3/operationPolicy/sideEffect", `"create"`)), "/capabilities/3/operationPolicy/sideEffect"},
	{"CONTRACT_SIDE_EFFECT_MISMATCH", contract.ContractFile, ops(set("/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect", `"delete"`)), "/capabilities/3/evidenceCoverage/sideEffect/declaredSideEffect"},
	{"CONTRACT_RUNTIME_PROTECTION", contract.ContractFile, ops(remove("/capabilities/3/runtimeProtection")), "/capabilities/3"},
	{"CONTRACT_RUNTIME_PROTECTION", contract.ContractFile, ops(set("/capabilities/0/runtimeProtection", `{"mode": "backend-authoritative", "evidenceRefs": []}`)), "/capabilities/0/runtimeProtection"},
	{"CONTRACT_RUNTIME_PROTECTION", contract.ContractFile, ops(set("/capabilities/4/workflowId", `"upload-sample-attachment"`)), "/capabilities/4/workflowId"},
	{"CONTRACT_RUNTIME_PROTECTION", contract.ContractFile, ops(set("/capabilities/3/runtimeProtection/workflowId", `"submit-sample-request"`)), "/capabilities/3/runtimeProtection/workflowId"},
	{"CONTRACT_HTTP_STEP", contract.ContractFile, ops(set("/capabilities/0/implementation/steps/0/url", `"ftp://application.example/kinds"`)), "/capabilities/0/implementation/steps/0/url"},
	{"CONTRACT_HTTP_STEP", contract.ContractFile, ops(set("/capabilities/0/implementation/steps/0/url", `"https://user:secret@application.example/kinds"`)), "/capabilities/0/implementation/steps/0/url"},
	{"CONTRACT_HTTP_STEP", contract.ContractFile, ops(set("/capabilities/3/implementation/steps/0/successStatusCodes/0", `700`)), "/capabilities/3/implementation/steps/0/successStatusCodes/0"},
	{"CONTRACT_HTTP_STEP", contract.ContractFile,
		ops(set("/capabilities/0/implementation/steps/0/bindings/0/source", `{"kind": "prior_response", "stepId": "listKinds", "path": ["detail"]}`)),
		"/capabilities/0/implementation/steps/0/bindings/0/source/stepId"},
	{"CONTRACT_HANDOFF", contract.ContractFile, ops(set("/handoffs/1/fromCapabilityId", `"validate-sample-request"`)), "/handoffs/1"},
	{"CONTRACT_HANDOFF", contract.ContractFile, ops(set("/handoffs/3/toCapabilityId", `"validate-sample-request"`)), "/handoffs/3"},
	{"CONTRACT_GRAPH", contract.ContractFile, ops(remove("/capabilityGraph/nodes/3")), "/capabilityGraph/nodes"},
	{"CONTRACT_GRAPH", contract.ContractFile, ops(set("/capabilityGraph/edges/4/toCapabilityId", `"list-sample-request-kinds"`)), "/capabilityGraph/edges/4"},
	{"CONTRACT_GOAL_PREDICATE", contract.ContractFile, ops(remove("/goals/1/completionPredicate/informationIds/1")), "/goals/1/completionPredicate/informationIds"},
	{"CONTRACT_REQUIREMENT_MAPPING", contract.ContractFile, ops(set("/consumerRequirements/requirements/1/onMissing", `"requires-host-integration"`)), "/consumerRequirements/requirements/1/onMissing"},
	{"CONTRACT_REQUIREMENT_MAPPING", contract.ContractFile, ops(set("/consumerRequirements/requirements/4/hostCapability", `"sessionStore"`)), "/consumerRequirements/requirements/4/hostCapability"},
	{"CONTRACT_WORKFLOW_ENTRY", contract.ContractFile, ops(set("/workflows/0/entryCapabilityId", `"submit-sample-request"`)), "/workflows/0/capabilityIds"},
	{"CONTRACT_CONFLICT", contract.ContractFile, ops(remove("/conflicts/0/resolution")), "/conflicts/0"},
	{"CONTRACT_CONFLICT", contract.ContractFile, ops(set("/conflicts/0/evidenceRefs", `["ev-client-goal"]`)), "/conflicts/0/evidenceRefs"},

	{"PROFILE_HOST_CAPABILITY_MISSING", contract.HostProfileFile, ops(remove("/capabilities/sessionState")), "/capabilities"},
	{"PROFILE_FEATURE_SURFACE", contract.ExportProfileFile, ops(set("/featureSurface/kind", `"route"`)), "/featureSurface/identifier"},
	{"PROFILE_FEATURE_SURFACE", contract.ExportProfileFile, ops(set("/featureSurface/identifier", `"sample\nrequest"`)), "/featureSurface/identifier"},
	{"PROFILE_DRY_RUN_VARIABLE", contract.ExportProfileFile, ops(set("/dryRunEnvironmentVariable", `"dry_run"`)), "/dryRunEnvironmentVariable"},
	{"PROFILE_ORIGINS", contract.ExportProfileFile, ops(set("/allowedRuntimeOrigins/0", `"https://application.example/api"`)), "/allowedRuntimeOrigins/0"},
	{"PROFILE_ORIGINS", contract.ExportProfileFile, ops(set("/allowedRuntimeOrigins", `[]`)), "/allowedRuntimeOrigins"},
	{"PROFILE_ORIGINS", contract.ExportProfileFile, ops(add("/allowedRuntimeOrigins", `"https://other.example"`)), "/allowedRuntimeOrigins/1"},
}

func ops(o ...contracttest.Op) []contracttest.Op { return o }

func TestRulesFireOnTheirFixtures(t *testing.T) {
	for i, rc := range ruleCases {
		t.Run(fmt.Sprintf("%02d_%s", i, rc.rule), func(t *testing.T) {
			_, l := decodeInputs(t, func(name string) []byte {
				data := contracttest.Reference(t, name)
				if name == rc.file {
					data = contracttest.Patch(t, data, rc.ops...)
				}
				return data
			})
			if !slices.ContainsFunc(l.Sorted(), func(d diag.Diagnostic) bool {
				return d.Rule == rc.rule && d.File == rc.file && d.Pointer == rc.at
			}) {
				t.Errorf("want %s at %s#%s; got:\n%s", rc.rule, rc.file, rc.at, contracttest.Findings(l))
			}
		})
	}
}

// Every structural rule derive registers has a fixture above. (The DERIVE_
// rules concern files on disk and are covered by the CLI tests.)
func TestEveryRuleHasAFixture(t *testing.T) {
	for _, r := range diag.Rules() {
		if !strings.HasPrefix(r.ID, "TOPOLOGY_") && !strings.HasPrefix(r.ID, "CONTRACT_") && !strings.HasPrefix(r.ID, "PROFILE_") {
			continue
		}
		if !slices.ContainsFunc(ruleCases, func(rc ruleCase) bool { return rc.rule == r.ID }) {
			t.Errorf("rule %s has no failing fixture", r.ID)
		}
	}
}
