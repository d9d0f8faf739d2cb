package derive_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
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
	{"CONTRACT_DUPLICATE_ID", contract.ContractFile, ops(set("/capabilities/0/outputs/1/path", `["options"]`)), "/capabilities/0/outputs/1/path"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/capabilities/0/hostRequirements/3", `"session-storage"`)), "/capabilities/0/hostRequirements/3"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/evidenceCatalog/0/sourceId", `"sample-desktop-client"`)), "/evidenceCatalog/0/sourceId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/capabilities/3/implementation/outputStepId", `"save"`)), "/capabilities/3/implementation/outputStepId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/workflows/0/entryCapabilityId", `"upload-other"`)), "/workflows/0/entryCapabilityId"},
	{"CONTRACT_UNKNOWN_REFERENCE", contract.ContractFile, ops(set("/conflicts/0/affectedCapabilityIds/1", `"validate-other"`)), "/conflicts/0/affectedCapabilityIds/1"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, ops(set("/capabilities/0/exposure/supplementalEvidenceRefs/0", `"ev-contract-list"`)), "/capabilities/0/exposure/supplementalEvidenceRefs/0"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, ops(set("/capabilities/2/inputs/2/requiredWhen/0/evidenceRefs/0", `"ev-selection"`)), "/capabilities/2/inputs/2/requiredWhen/0/evidenceRefs/0"},
	{"CONTRACT_EVIDENCE_UNKNOWN", contract.ContractFile, ops(set("/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueBinding/0", `"ev-submit"`)), "/capabilities/4/runtimeProtection/hardWorkflowEvidence/protectedValueBinding/0"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, ops(set("/capabilities/0/toolName", `"List-Kinds"`)), "/capabilities/0/toolName"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, ops(set("/capabilities/3/functionExport", `"delete"`)), "/capabilities/3/functionExport"},
	{"CONTRACT_ID_FORMAT", contract.ContractFile, ops(set("/server/name", `"Sample"`)), "/server/name"},
	{"CONTRACT_READINESS", contract.ContractFile, ops(set("/capabilities/0/missingEvidence", `["the catalog size is unknown"]`)), "/capabilities/0/missingEvidence"},
	{"CONTRACT_READINESS", contract.ContractFile, ops(set("/capabilities/0/readiness", `"requires-review"`)), "/capabilities/0/readiness"},
	{"CONTRACT_REQUIREMENT_MAPPING", contract.ContractFile, ops(set("/consumerRequirements/requirements/1/onMissing", `"requires-host-integration"`)), "/consumerRequirements/requirements/1/onMissing"},
	{"CONTRACT_REQUIREMENT_MAPPING", contract.ContractFile, ops(set("/consumerRequirements/requirements/4/hostCapability", `"sessionStore"`)), "/consumerRequirements/requirements/4/hostCapability"},
	{"CONTRACT_WORKFLOW_ENTRY", contract.ContractFile, ops(set("/workflows/0/entryCapabilityId", `"submit-sample-request"`)), "/workflows/0/capabilityIds"},

	// Supplementary backend evidence verifies a capability; it cannot
	// expose one.
	{"CONTRACT_EXPOSURE_SOURCE", contract.ContractFile, ops(set("/capabilities/3/exposure/evidenceRefs/0", `"ev-service-save"`)), "/capabilities/3/exposure/evidenceRefs/0"},
	{"CONTRACT_HARD_WORKFLOW_EVIDENCE", contract.ContractFile, ops(remove("/capabilities/4/runtimeProtection/hardWorkflowEvidence")), "/capabilities/4/runtimeProtection"},
	{"CONTRACT_WORKFLOW_MAPPING", contract.ContractFile, ops(add("/workflows/0/capabilityIds", `"submit-sample-request"`)), "/capabilities/4/runtimeProtection/workflowId"},
	{"CONTRACT_WORKFLOW_MAPPING", contract.ContractFile, ops(set("/workflows/1/capabilityIds", `["validate-sample-request"]`), set("/workflows/1/entryCapabilityId", `"validate-sample-request"`)), "/capabilities/4/runtimeProtection/workflowId"},
	{"CONTRACT_WORKFLOW_MAPPING", contract.ContractFile, ops(remove("/capabilities/4/runtimeProtection/workflowId"), remove("/capabilities/4/workflowId")), "/capabilities/4/runtimeProtection"},
	{"CONTRACT_GOAL_CONDITIONAL", contract.ContractFile, ops(set("/goals/0/conditionalCapabilityIds", `[]`)), "/goals/0/conditionalCapabilityIds"},
	{"CONTRACT_TARGET_REQUIREDNESS", contract.ContractFile, ops(remove("/capabilities/4/inputs/3/targetRequiredness")), "/capabilities/4/inputs/3"},
	{"CONTRACT_TARGET_REQUIREDNESS", contract.ContractFile,
		ops(set("/capabilities/4/inputs/0/targetRequiredness", `{"status": "proven-optional", "evidenceRefs": ["ev-service-submit"]}`)), "/capabilities/4/inputs/0/targetRequiredness"},
	{"CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", contract.ContractFile,
		ops(set("/capabilities/4/inputs/3/targetRequiredness/evidenceRefs", `["ev-contract-attachment"]`)), "/capabilities/4/inputs/3/targetRequiredness/evidenceRefs/0"},
	{"CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", contract.ContractFile,
		ops(set("/capabilities/4/inputs/3/targetRequiredness/evidenceRefs", `["ev-service-attachment"]`)), "/capabilities/4/inputs/3/targetRequiredness/evidenceRefs"},
	{"CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", contract.ContractFile,
		ops(set("/capabilities/4/inputs/3/targetRequiredness", `{"status": "unproven", "normalProvider": {"capabilityId": "upload-sample-attachment", "outputPath": ["uploadedAttachmentGrant"], "mappingKind": "append-to-array"}, "evidenceRefs": ["ev-contract-submit"]}`)),
		"/capabilities/4/inputs/3/targetRequiredness/evidenceRefs"},
	{"CONTRACT_TARGET_REQUIREDNESS_EVIDENCE", contract.ContractFile,
		ops(set("/capabilities/4/inputs/3/targetRequiredness/evidenceRefs", `[]`)), "/capabilities/4/inputs/3/targetRequiredness/evidenceRefs"},
	{"CONTRACT_TARGET_REQUIREDNESS_PROVIDER", contract.ContractFile,
		ops(set("/capabilities/4/inputs/3/targetRequiredness", `{"status": "unproven", "normalProvider": {"capabilityId": "upload-sample-attachment", "outputPath": ["uploadedAttachmentGrant"], "mappingKind": "direct"}, "evidenceRefs": ["ev-contract-submit"]}`)),
		"/capabilities/4/inputs/3/targetRequiredness/normalProvider"},
	{"CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", contract.ContractFile, ops(set("/handoffs/3/required", `true`)), "/handoffs/3/required"},
	{"CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", contract.ContractFile, ops(set("/capabilityGraph/edges/3/kind", `"hard-precondition"`)), "/capabilityGraph/edges/3"},
	{"CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", contract.ContractFile, ops(remove("/handoffs/3")), "/capabilities/4/inputs/3/targetRequiredness"},
	{"CONTRACT_TARGET_REQUIREDNESS_OPTIONAL", contract.ContractFile, ops(add("/capabilityGraph/edges", `{"fromCapabilityId": "upload-sample-attachment", "toCapabilityId": "submit-sample-request", "kind": "handoff", "composition": "observed", "required": false}`)), "/capabilityGraph/edges/5"},
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
	for _, r := range derive.Rules() {
		if strings.HasPrefix(r.ID, "DERIVE_") {
			continue
		}
		if !slices.ContainsFunc(ruleCases, func(rc ruleCase) bool { return rc.rule == r.ID }) {
			t.Errorf("rule %s has no failing fixture", r.ID)
		}
	}
}

// derive accepts what the established derive accepts: contracts whose
// problems do not keep views from being derived. check-contract reports
// them (see internal/contractcheck).
func TestViewNeutralProblemsDoNotStopDerive(t *testing.T) {
	for _, tc := range contracttest.ViewNeutral {
		t.Run(tc.Name, func(t *testing.T) {
			in, l := decodeInputs(t, func(name string) []byte {
				data := contracttest.Reference(t, name)
				if name == tc.File {
					data = contracttest.Patch(t, data, tc.Ops...)
				}
				return data
			})
			requireNoFindings(t, l)
			if views := derive.Views(in); len(views) != 10 {
				t.Errorf("derived %d views", len(views))
			}
		})
	}
}
