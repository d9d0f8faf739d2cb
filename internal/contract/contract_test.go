package contract_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/diag"
)

// decode decodes one of the inputs by its file name and returns every
// finding, deferred or not.
func decode(name string, data []byte) (any, *diag.List) {
	all, _ := decodeSplit(name, data)
	return nil, all
}

// decodeSplit decodes one of the inputs by its file name and returns
// all its findings and, separately, the deferred ones.
func decodeSplit(name string, data []byte) (all, deferred *diag.List) {
	var l *diag.List
	deferred = &diag.List{}
	switch name {
	case contract.ContractFile:
		c, cl := contract.DecodeContract(name, data)
		if c != nil {
			deferred = &c.Deferred
		}
		l = cl
	case contract.TopologyFile:
		t, tl := contract.DecodeTopology(name, data)
		if t != nil {
			deferred = &t.Deferred
		}
		l = tl
	case contract.HostProfileFile:
		h, hl := contract.DecodeHostProfile(name, data)
		if h != nil {
			deferred = &h.Deferred
		}
		l = hl
	case contract.ExportProfileFile:
		p, pl := contract.DecodeExportProfile(name, data)
		if p != nil {
			deferred = &p.Deferred
		}
		l = pl
	case contract.BundleFile:
		b, bl := contract.DecodeBundle(name, data)
		if b != nil {
			deferred = &b.Deferred
		}
		l = bl
	default:
		panic("unknown input " + name)
	}
	all = &diag.List{}
	all.Merge(l)
	all.Merge(deferred)
	return all, deferred
}

// inputs are the four vNext inputs and the capability bundle, the input of
// a legacy package.
var inputs = []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile, contract.BundleFile}

func TestReferenceInputsDecodeWithoutFindings(t *testing.T) {
	for _, name := range inputs {
		_, l := decode(name, contracttest.Reference(t, name))
		for _, d := range l.Sorted() {
			t.Errorf("%s", d)
		}
	}
}

func TestModelReadsTheReference(t *testing.T) {
	c, _ := contract.DecodeContract(contract.ContractFile, contracttest.Reference(t, contract.ContractFile))
	var ids []string
	for _, cp := range c.Capabilities {
		ids = append(ids, cp.ID)
	}
	want := []string{"list-sample-request-kinds", "upload-sample-attachment", "validate-sample-request", "save-sample-draft", "submit-sample-request"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("capabilities (-want +got):\n%s", diff)
	}
	upload, _ := c.Capability("upload-sample-attachment")
	if upload.AttachmentMode() != contract.AttachmentsHostApprovedReference ||
		upload.Attachments.Metadata.MaxSizeBytes != 1048576 ||
		upload.Implementation.Steps[0].Bindings[0].Source.Kind != contract.SourceHostResolvedAttachment ||
		upload.RuntimeProtection.HardWorkflowEvidence.PreDispatchEnforcement[0] != "ev-tests-workflow" {
		t.Errorf("upload capability read wrongly: %+v", upload)
	}
	if got := upload.At; got != "/capabilities/1" {
		t.Errorf("At = %q", got)
	}
	validate, _ := c.Capability("validate-sample-request")
	in, _ := validate.Input("attachmentGrants")
	if in.RequiredWhen[0].Operator != "equals" || in.RequiredWhen[0].Value != canonjson.Bool(true) {
		t.Errorf("requiredWhen read wrongly: %+v", in.RequiredWhen)
	}
	if got := validate.Raw.Keys()[:4]; !slices.Equal(got, []string{"capabilityId", "toolName", "functionExport", "description"}) {
		t.Errorf("Raw keeps key order %v", got)
	}
	submitGoal := &c.Goals[2]
	if submitGoal.CompletionPredicate.WorkflowID != "submit-sample-request" || submitGoal.ConditionalCapabilityIDs[0].CapabilityID != "upload-sample-attachment" {
		t.Errorf("goal read wrongly: %+v", submitGoal)
	}
	w, _ := c.Workflow("submit-sample-request")
	if b := w.Bindings[5]; b.ActualSource.Algorithm != "ordered-id-list" || !slices.Equal(b.ActualSource.Path, []string{"*", "grantId"}) {
		t.Errorf("workflow binding read wrongly: %+v", b)
	}
}

// finding is the part of a diagnostic the rule cases pin.
type finding struct{ rule, file, at string }

func findings(l *diag.List) []finding {
	var out []finding
	for _, d := range l.Sorted() {
		at := d.Pointer
		if d.Line > 0 {
			at = fmt.Sprintf("%d:%d", d.Line, d.Column)
		}
		out = append(out, finding{d.Rule, d.File, at})
	}
	return out
}

// formatCases are minimal edits of valid inputs that make a format rule
// fire, at the place of the edit; the unedited inputs produce no finding.
var formatCases = []struct {
	name string
	file string
	ops  []contracttest.Op
	want finding
}{
	{"string where an object goes", contract.ContractFile,
		[]contracttest.Op{set("/server", `"sample"`)}, finding{"FORMAT_TYPE", contract.ContractFile, "/server"}},
	{"number where a string goes", contract.ContractFile,
		[]contracttest.Op{set("/contractId", `5`)}, finding{"FORMAT_TYPE", contract.ContractFile, "/contractId"}},
	{"1.0 is not an integer", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/0/implementation/steps/0/successStatusCodes/0", `200.0`)},
		finding{"FORMAT_TYPE", contract.ContractFile, "/capabilities/0/implementation/steps/0/successStatusCodes/0"}},
	{"exponent is not an integer", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/1/attachments/metadata/maxSizeBytes", `1e6`)},
		finding{"FORMAT_TYPE", contract.ContractFile, "/capabilities/1/attachments/metadata/maxSizeBytes"}},
	{"keys are case-sensitive", contract.ContractFile,
		[]contracttest.Op{remove("/capabilities/0/toolName"), set("/capabilities/0/ToolName", `"list_sample_request_kinds"`)},
		finding{"FORMAT_FIELD_MISSING", contract.ContractFile, "/capabilities/0"}},
	{"required field missing", contract.TopologyFile,
		[]contracttest.Op{remove("/sources/1/root")}, finding{"FORMAT_FIELD_MISSING", contract.TopologyFile, "/sources/1"}},
	{"closed record with an extra field", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/0/annotations/sideEffectHint", `true`)},
		finding{"FORMAT_FIELD_UNKNOWN", contract.ContractFile, "/capabilities/0/annotations/sideEffectHint"}},
	{"field of another binding source kind", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/0/implementation/steps/0/bindings/0/source/stepId", `"listKinds"`)},
		finding{"FORMAT_FIELD_UNKNOWN", contract.ContractFile, "/capabilities/0/implementation/steps/0/bindings/0/source/stepId"}},
	{"goal fixing a transcript", contract.ContractFile,
		[]contracttest.Op{set("/goals/1/fixedSequence", `["save-sample-draft"]`)},
		finding{"FORMAT_FIELD_UNKNOWN", contract.ContractFile, "/goals/1/fixedSequence"}},
	{"pageRoute in a vNext export profile", contract.ExportProfileFile,
		[]contracttest.Op{set("/pageRoute", `"/sample"`)}, finding{"FORMAT_FIELD_UNKNOWN", contract.ExportProfileFile, "/pageRoute"}},
	{"open record with an unknown field", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/2/runtimeProtecton", `{}`)},
		finding{"FORMAT_FIELD_UNRECOGNIZED", contract.ContractFile, "/capabilities/2/runtimeProtecton"}},
	{"empty required string", contract.HostProfileFile,
		[]contracttest.Op{set("/profileId", `""`)}, finding{"FORMAT_EMPTY", contract.HostProfileFile, "/profileId"}},
	{"empty required list", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/3/evidenceRefs", `[]`)}, finding{"FORMAT_EMPTY", contract.ContractFile, "/capabilities/3/evidenceRefs"}},
	{"deployer's policy citing evidence", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/3/deployerPolicy", `{"confirmation": "trusted-confirmation-required", "statement": "The deployer requires it.", "evidenceRefs": ["ev-service-save"]}`)},
		finding{"FORMAT_FIELD_UNKNOWN", contract.ContractFile, "/capabilities/3/deployerPolicy/evidenceRefs"}},
	{"deployer's policy without a statement", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/3/deployerPolicy", `{"confirmation": "trusted-confirmation-required"}`)},
		finding{"FORMAT_FIELD_MISSING", contract.ContractFile, "/capabilities/3/deployerPolicy"}},
	{"empty-body status that is not an integer", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/3/successRule/emptyBodyStatusCodes", `["204"]`)},
		finding{"FORMAT_TYPE", contract.ContractFile, "/capabilities/3/successRule/emptyBodyStatusCodes/0"}},
	{"value outside the vocabulary", contract.ContractFile,
		[]contracttest.Op{set("/capabilities/3/sideEffect", `"upsert"`)},
		finding{"FORMAT_VOCABULARY", contract.ContractFile, "/capabilities/3/sideEffect"}},
	{"host status outside the vocabulary", contract.HostProfileFile,
		[]contracttest.Op{set("/capabilities/sessionState/status", `"partial"`)},
		finding{"FORMAT_VOCABULARY", contract.HostProfileFile, "/capabilities/sessionState/status"}},
	{"agent policy flag that is not true", contract.ContractFile,
		[]contracttest.Op{set("/goals/0/agentPolicy/askOnlyCurrentlyMissing", `false`)},
		finding{"FORMAT_VOCABULARY", contract.ContractFile, "/goals/0/agentPolicy/askOnlyCurrentlyMissing"}},
	{"wrong schema version", contract.TopologyFile,
		[]contracttest.Op{set("/schemaVersion", `"v1"`)}, finding{"FORMAT_VOCABULARY", contract.TopologyFile, "/schemaVersion"}},

	// The capability bundle: a closed top level, capabilities by the
	// contract's field rules.
	{"bundle of the contract's schema version", contract.BundleFile,
		[]contracttest.Op{set("/schemaVersion", `"vNext"`)}, finding{"FORMAT_VOCABULARY", contract.BundleFile, "/schemaVersion"}},
	{"bundle without a recording", contract.BundleFile,
		[]contracttest.Op{remove("/recordingId")}, finding{"FORMAT_FIELD_MISSING", contract.BundleFile, ""}},
	{"bundle with a contract member", contract.BundleFile,
		[]contracttest.Op{set("/workflows", `[]`)}, finding{"FORMAT_FIELD_UNKNOWN", contract.BundleFile, "/workflows"}},
	{"bundle without capabilities", contract.BundleFile,
		[]contracttest.Op{set("/capabilities", `[]`)}, finding{"FORMAT_EMPTY", contract.BundleFile, "/capabilities"}},
	{"bundle capability without its side effect", contract.BundleFile,
		[]contracttest.Op{remove("/capabilities/2/sideEffect")}, finding{"FORMAT_FIELD_MISSING", contract.BundleFile, "/capabilities/2"}},
	{"bundle capability with a closed record's extra field", contract.BundleFile,
		[]contracttest.Op{set("/capabilities/0/annotations/sideEffectHint", `true`)},
		finding{"FORMAT_FIELD_UNKNOWN", contract.BundleFile, "/capabilities/0/annotations/sideEffectHint"}},
	{"bundle capability naming its workflow", contract.BundleFile,
		[]contracttest.Op{set("/capabilities/4/workflowId", `"submit-sample-request"`)},
		finding{"FORMAT_FIELD_UNRECOGNIZED", contract.BundleFile, "/capabilities/4/workflowId"}},
	{"bundle handoff of the wrong type", contract.BundleFile,
		[]contracttest.Op{set("/handoffs/0/required", `"yes"`)}, finding{"FORMAT_TYPE", contract.BundleFile, "/handoffs/0/required"}},
}

var set, remove = contracttest.Set, contracttest.Remove

// Every format rule fires on a minimal edit of a valid input, at the place
// of the edit; the unedited inputs (above) produce no finding at all.
func TestFormatRules(t *testing.T) {
	for _, tc := range formatCases {
		t.Run(tc.name, func(t *testing.T) {
			data := contracttest.Patch(t, contracttest.Reference(t, tc.file), tc.ops...)
			_, l := decode(tc.file, data)
			got := findings(l)
			if !slices.Contains(got, tc.want) {
				t.Errorf("want %v among the findings:\n%s", tc.want, contracttest.Findings(l))
			}
		})
	}
}

// Findings about what views do not depend on are deferred: unknown fields
// (views copy records as written) and values outside vocabularies only the
// semantic checks interpret. Types, missing fields and the vocabularies views
// branch on are not.
func TestDeferredFindings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		op       contracttest.Op
		rule, at string
		deferred bool
	}{
		{"unknown field of a closed record", set("/capabilities/0/implementation/x-vendor", `1`), "FORMAT_FIELD_UNKNOWN", "/capabilities/0/implementation/x-vendor", true},
		{"unknown completion operator", set("/goals/1/completionPredicate/operator", `"most-satisfied"`), "FORMAT_VOCABULARY", "/goals/1/completionPredicate/operator", true},
		{"unknown strategy kind", set("/capabilities/3/inputs/0/sourceStrategies/0", `"derived-calculation"`), "FORMAT_VOCABULARY", "/capabilities/3/inputs/0/sourceStrategies/0", true},
		{"expected value from a Tool input", set("/workflows/1/bindings/4/expectedSource/kind", `"capability-input"`), "FORMAT_VOCABULARY", "/workflows/1/bindings/4/expectedSource/kind", true},
		{"side effect outside the vocabulary", set("/capabilities/3/sideEffect", `"upsert"`), "FORMAT_VOCABULARY", "/capabilities/3/sideEffect", false},
		{"wrong type", set("/capabilities/3/readiness", `1`), "FORMAT_TYPE", "/capabilities/3/readiness", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile), tc.op)
			all, deferred := decodeSplit(contract.ContractFile, data)
			want := finding{tc.rule, contract.ContractFile, tc.at}
			if !slices.Contains(findings(all), want) {
				t.Fatalf("want %v among the findings:\n%s", want, contracttest.Findings(all))
			}
			if got := slices.Contains(findings(deferred), want); got != tc.deferred {
				t.Errorf("deferred = %v, want %v", got, tc.deferred)
			}
		})
	}
}

// A dynamic value domain's frozen sample is left to the semantic rule that
// names it, not reported as an unknown field.
func TestFrozenDynamicValuesAreNotUnknownFields(t *testing.T) {
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		set("/capabilities/2/inputs/0/valueDomain/values", `[{"grantId": "g"}]`))
	all, _ := decodeSplit(contract.ContractFile, data)
	if all.Len() != 0 {
		t.Errorf("unexpected findings:\n%s", contracttest.Findings(all))
	}
}

func TestUnknownFieldSuggestsTheKnownOne(t *testing.T) {
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		contracttest.Set("/capabilities/0/readines", `"ready"`))
	_, l := decode(contract.ContractFile, data)
	if !strings.Contains(contracttest.Findings(l), `did you mean "readiness"`) {
		t.Errorf("no suggestion:\n%s", contracttest.Findings(l))
	}
}

// syntaxCases are unreadable JSON documents and the finding each gives.
var syntaxCases = []struct {
	in   string
	want finding
}{
	{"{\n  \"schemaVersion\": \"vNext\",\n  \"contractId\": \"x\",\n}", finding{"JSON_SYNTAX", contract.ContractFile, "4:1"}},
	{"{\"a\": 1, \"a\": 2}", finding{"JSON_DUPLICATE_KEY", contract.ContractFile, "1:10"}},
	{"{\"a\": \"\xff\"}", finding{"JSON_ENCODING", contract.ContractFile, "1:8"}},
	{"{\"a\": 1e999}", finding{"JSON_NUMBER_RANGE", contract.ContractFile, "1:7"}},
}

func TestSyntaxErrorsHaveLineAndColumn(t *testing.T) {
	for _, tc := range syntaxCases {
		c, l := contract.DecodeContract(contract.ContractFile, []byte(tc.in))
		if c != nil {
			t.Errorf("%q: a contract was returned despite the syntax error", tc.in)
		}
		if got := findings(l); !slices.Equal(got, []finding{tc.want}) {
			t.Errorf("%q: findings %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestDecodingAccumulatesFindings(t *testing.T) {
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		contracttest.Set("/contractId", `1`),
		contracttest.Set("/capabilities/0/readiness", `"done"`),
		contracttest.Remove("/capabilities/4/sideEffect"))
	c, l := contract.DecodeContract(contract.ContractFile, data)
	if c == nil || len(c.Capabilities) != 5 {
		t.Fatal("decoding stopped at the first finding")
	}
	if e, _ := l.Counts(); e != 3 {
		t.Errorf("want 3 errors, got:\n%s", contracttest.Findings(l))
	}
}

// Every JSON and format rule has a failing fixture above.
func TestEveryFormatRuleHasAFixture(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range formatCases {
		covered[tc.want.rule] = true
	}
	for _, tc := range syntaxCases {
		covered[tc.want.rule] = true
	}
	for _, r := range diag.Rules() {
		if (strings.HasPrefix(r.ID, "FORMAT_") || strings.HasPrefix(r.ID, "JSON_")) && !covered[r.ID] {
			t.Errorf("rule %s has no failing fixture", r.ID)
		}
	}
}

// A cross-field constraint keeps its two conditions apart.
func TestCrossFieldConstraintConditions(t *testing.T) {
	c, _ := contract.DecodeContract(contract.ContractFile, contracttest.Reference(t, contract.ContractFile))
	cs := c.Capabilities[2].Constraints[0]
	if cs.If == nil || cs.Then == nil || cs.If.Operator != "equals" || cs.Then.Operator != "non-empty" {
		t.Errorf("if %+v, then %+v", cs.If, cs.Then)
	}
}

// The bundle's model holds the contract's capabilities and handoffs, without
// the members the bundle leaves out.
func TestBundleReadsTheReference(t *testing.T) {
	c, _ := contract.DecodeContract(contract.ContractFile, contracttest.Reference(t, contract.ContractFile))
	b, l := contract.DecodeBundle(contract.BundleFile, contracttest.Reference(t, contract.BundleFile))
	if l.Len() != 0 || b.Deferred.Len() != 0 {
		t.Fatalf("unexpected findings:\n%s%s", contracttest.Findings(l), contracttest.Findings(&b.Deferred))
	}
	if b.SchemaVersion != "v1" || b.RecordingID != c.RecordingID || b.Server.Name != c.Server.Name ||
		b.FeatureBoundary.PrimaryEvidenceRole != c.FeatureBoundary.PrimaryEvidenceRole {
		t.Errorf("top level read wrongly: %+v", b)
	}
	if len(b.Capabilities) != len(c.Capabilities) || len(b.Handoffs) != len(c.Handoffs) {
		t.Fatalf("%d capabilities and %d handoffs, want %d and %d", len(b.Capabilities), len(b.Handoffs), len(c.Capabilities), len(c.Handoffs))
	}
	for i := range b.Capabilities {
		bc, cc := &b.Capabilities[i], &c.Capabilities[i]
		if bc.ID != cc.ID || bc.At != cc.At || len(bc.Inputs) != len(cc.Inputs) || bc.Readiness != cc.Readiness {
			t.Errorf("capability %d: %s at %s, want %s at %s", i, bc.ID, bc.At, cc.ID, cc.At)
		}
		if bc.WorkflowID != "" {
			t.Errorf("capability %s of the bundle has workflowId %q", bc.ID, bc.WorkflowID)
		}
	}
	if got, ok := b.Capability("submit-sample-request"); !ok || got.RuntimeProtection.WorkflowID != "submit-sample-request" {
		t.Errorf("Capability(submit-sample-request) = %+v, %v", got, ok)
	}
}

// errorContract.sourceError says where a rejected response keeps the
// backend's own error; a well-formed one decodes without findings, and
// each malformed part is reported where it is.
func TestSourceError(t *testing.T) {
	const at = "/capabilities/3/errorContract/sourceError"
	good := `{"codePath": ["error", "code"], "messagePath": ["error", "message"], "fieldErrorsPath": ["error", "fields"],
		"categoryByStatus": {"409": "business", "400": "input"}, "evidenceRefs": ["ev-contract-errors"]}`
	c, l := contract.DecodeContract(contract.ContractFile, contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile), set(at, good)))
	if c == nil || l.Len() > 0 || c.Deferred.Len() > 0 {
		t.Fatalf("a well-formed sourceError has findings:\n%s", contracttest.Findings(l))
	}
	se := c.Capabilities[3].ErrorContract.SourceError
	if se == nil || !slices.Equal(se.CodePath, []string{"error", "code"}) || !slices.Equal(se.FieldErrorsPath, []string{"error", "fields"}) ||
		se.CategoryByStatus[409] != contract.CategoryBusiness || se.CategoryByStatus[400] != contract.CategoryInput {
		t.Fatalf("sourceError decoded as %+v", se)
	}
	if c.Capabilities[0].ErrorContract.SourceError != nil {
		t.Error("an error contract without sourceError decoded one")
	}
	for _, tc := range []struct {
		name, value string
		want        finding
	}{
		{"status that is not one", `{"categoryByStatus": {"4xx": "business"}, "evidenceRefs": ["ev-contract-errors"]}`,
			finding{"FORMAT_VOCABULARY", contract.ContractFile, at + "/categoryByStatus/4xx"}},
		{"status out of range", `{"categoryByStatus": {"600": "business"}, "evidenceRefs": ["ev-contract-errors"]}`,
			finding{"FORMAT_VOCABULARY", contract.ContractFile, at + "/categoryByStatus/600"}},
		{"category a status cannot mean", `{"categoryByStatus": {"409": "output-contract"}, "evidenceRefs": ["ev-contract-errors"]}`,
			finding{"FORMAT_VOCABULARY", contract.ContractFile, at + "/categoryByStatus/409"}},
		{"says nothing", `{"evidenceRefs": ["ev-contract-errors"]}`, finding{"FORMAT_EMPTY", contract.ContractFile, at}},
		{"no evidence", `{"codePath": ["code"]}`, finding{"FORMAT_FIELD_MISSING", contract.ContractFile, at}},
		{"empty path", `{"codePath": [], "evidenceRefs": ["ev-contract-errors"]}`, finding{"FORMAT_EMPTY", contract.ContractFile, at + "/codePath"}},
		{"unknown member", `{"codePath": ["code"], "statusPath": ["s"], "evidenceRefs": ["ev-contract-errors"]}`,
			finding{"FORMAT_FIELD_UNKNOWN", contract.ContractFile, at + "/statusPath"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, l := decode(contract.ContractFile, contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile), set(at, tc.value)))
			if !slices.Contains(findings(l), tc.want) {
				t.Errorf("want %v among the findings:\n%s", tc.want, contracttest.Findings(l))
			}
		})
	}
}
