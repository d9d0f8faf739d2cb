package hostruntime_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/hostruntime"
)

// sample decodes the strict sample's Portable Core, with edits of its
// contract.
func sample(t *testing.T, ops ...contracttest.Op) *derive.Inputs {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		data, err := fs.ReadFile(examples.StrictSample(), name)
		if err != nil {
			t.Fatal(err)
		}
		if name == contract.ContractFile && len(ops) > 0 {
			data = contracttest.Patch(t, data, ops...)
		}
		files[name] = data
	}
	in, l := derive.Decode(files)
	if l.Merge(derive.Check(in)); l.HasErrors() {
		t.Fatal(l.Sorted())
	}
	return in
}

func binding(t *testing.T, in *derive.Inputs) canonjson.Value {
	t.Helper()
	data, _ := hostruntime.Binding(in)
	if data == nil {
		t.Fatal("no binding")
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func at(t *testing.T, v canonjson.Value, pointer string) string {
	t.Helper()
	x, ok := canonjson.Resolve(v, pointer)
	if !ok {
		t.Fatalf("no %s", pointer)
	}
	return strings.TrimSpace(string(canonjson.Encode(x)))
}

// TestSampleBinding: what the runtime does for the strict sample's Tools,
// derived from its contract and export profile.
func TestSampleBinding(t *testing.T) {
	in := sample(t)
	data, limits := hostruntime.Binding(in)
	if len(limits) > 0 {
		t.Errorf("limits: %v", limits)
	}
	again, _ := hostruntime.Binding(in)
	if string(again) != string(data) {
		t.Error("the binding is not byte-stable")
	}
	doc := binding(t, in)
	for pointer, want := range map[string]string{
		"/origins":                                       `[{"origin": "http://127.0.0.1:8390", "baseUrlVariable": "LENDING_DESK_BASE_URL"}]`,
		"/credentials/0":                                 `{"authentication": "runtime_context", "variable": "LENDING_DESK_TOKEN", "header": "authorization", "scheme": "Bearer"}`,
		"/dryRunVariable":                                `"LENDING_DESK_DRY_RUN"`,
		"/tools/0/write":                                 `false`,
		"/tools/1/issues":                                `["create-equipment-loan"]`,
		"/tools/2/workflowId":                            `"create-equipment-loan"`,
		"/workflows/0/issuerToolName":                    `"quote_equipment_loan"`,
		"/workflows/0/singleUse":                         `true`,
		"/workflows/0/ttlSeconds":                        `600`,
		"/workflows/0/bindings/0/expected":               `{"kind": "issuer-result", "path": ["quote"]}`,
		"/workflows/0/bindings/1/expected":               `{"kind": "issuer-input", "inputName": "terms", "path": [], "algorithm": "canonical-json-sha256"}`,
		"/workflows/0/bindings/2/expected":               `{"kind": "constant", "value": true}`,
		"/workflows/0/recordable":                        `true`,
		"/workflows/1/bindings/0/expected":               `{"kind": "confirmation"}`,
		"/tools/3/confirmation/requestedSchema/required": `["confirm"]`,
	} {
		var wantV canonjson.Value
		wantV, err := canonjson.Decode([]byte(want))
		if err != nil {
			t.Fatal(err)
		}
		if got := at(t, doc, pointer); got != strings.TrimSpace(string(canonjson.Encode(wantV))) {
			t.Errorf("%s = %s, want %s", pointer, got, want)
		}
	}
	for i, write := range []bool{false, false, true, true} {
		_, confirm := canonjson.Resolve(doc, "/tools/"+string(rune('0'+i))+"/confirmation")
		_, reconcile := canonjson.Resolve(doc, "/tools/"+string(rune('0'+i))+"/reconciliation")
		if confirm != (i == 3) || reconcile != write {
			t.Errorf("tool %d: confirmation %v, reconciliation %v", i, confirm, reconcile)
		}
	}
	var names []string
	for _, v := range hostruntime.Variables(in) {
		names = append(names, v.Name+"="+v.Role)
	}
	if diff := cmp.Diff([]string{"LENDING_DESK_BASE_URL=base-url", "LENDING_DESK_TOKEN=credential"}, names); diff != "" {
		t.Errorf("variables (-want +got):\n%s", diff)
	}
}

// TestNoHostRuntime: without hostRuntime there is no binding and nothing
// to read.
func TestNoHostRuntime(t *testing.T) {
	in := sample(t)
	in.Export.HostRuntime = nil
	if data, _ := hostruntime.Binding(in); data != nil || hostruntime.Variables(in) != nil || hostruntime.Declared(in) {
		t.Error("a binding without hostRuntime")
	}
}

// TestUnrecordable: a binding the rules cannot place makes its workflow
// unrecordable, with a limit naming why.
func TestUnrecordable(t *testing.T) {
	set, remove := contracttest.Set, contracttest.Remove
	for _, c := range []struct {
		name string
		ops  []contracttest.Op
		why  string
	}{
		{"no issuer", []contracttest.Op{remove("/capabilityGraph/edges/1")}, "no single hard-precondition edge"},
		{"an expiry claim", []contracttest.Op{set("/workflows/0/bindings/2", `{"name": "expiresAt", "actualSource": {"kind": "runtime-context", "claim": "expiry", "requirementId": "session-state", "path": ["expiresAt"]}, "expectedSource": {"kind": "protected-runtime-state", "path": ["expiresAt"]}, "comparator": "json-equals", "evidenceRefs": ["ev-service-consume"]}`)}, "keeps no expiry claim"},
		{"a subject without its variable", []contracttest.Op{set("/workflows/0/bindings/2", `{"name": "subject", "actualSource": {"kind": "runtime-context", "claim": "subject", "requirementId": "authentication-injection", "path": ["subjectId"]}, "expectedSource": {"kind": "protected-runtime-state", "path": ["subject"]}, "comparator": "json-equals", "evidenceRefs": ["ev-service-consume"]}`)}, "names no subjectVariable"},
		{"a confirmation nobody asks for", []contracttest.Op{set("/workflows/0/bindings/2", `{"name": "confirmationGrantId", "actualSource": {"kind": "runtime-context", "claim": "confirmation", "requirementId": "trusted-confirmation", "path": ["confirmationGrantId"]}, "expectedSource": {"kind": "protected-runtime-state", "path": ["confirmationGrantId"]}, "comparator": "json-equals", "evidenceRefs": ["ev-service-consume"]}`)}, "asks for no confirmation"},
		{"a digest the issuer has no input for", []contracttest.Op{set("/workflows/0/bindings/1/actualSource/inputName", `"quote"`)}, "has no input quote of the same schema"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := sample(t, c.ops...)
			_, limits := hostruntime.Binding(in)
			if len(limits) == 0 {
				t.Fatalf("no limit, want %s saying %q", hostruntime.RuleUnrecordable.ID, c.why)
			}
			for _, l := range limits {
				if l.Rule != hostruntime.RuleUnrecordable.ID || !strings.Contains(l.Message, c.why) {
					t.Errorf("limit %v, want %s saying %q", l, hostruntime.RuleUnrecordable.ID, c.why)
				}
			}
			doc := binding(t, in)
			if got := at(t, doc, "/workflows/0/recordable"); got != "false" {
				t.Errorf("recordable %s", got)
			}
			if got := at(t, doc, "/workflows/0/unrecordable"); !strings.Contains(got, c.why) {
				t.Errorf("unrecordable %s", got)
			}
		})
	}
}

// TestDerivedValueSchemasIgnoreDescriptions: a value the guard derives
// from the issuer's input needs the issuer's input to take the same
// values, not to describe them in the same words.
func TestDerivedValueSchemasIgnoreDescriptions(t *testing.T) {
	in := sample(t,
		contracttest.Set("/capabilities/2/inputs/1/schema/description", `"The loan's terms, as the quote priced them."`),
		contracttest.Set("/capabilities/2/inputs/1/schema/properties/days/description", `"Days of the loan."`))
	if _, limits := hostruntime.Binding(in); len(limits) > 0 {
		t.Errorf("limits: %v", limits)
	}
	in = sample(t, contracttest.Set("/capabilities/2/inputs/1/schema/properties/days/maximum", `7`))
	if _, limits := hostruntime.Binding(in); len(limits) == 0 {
		t.Error("terms of other bounds derive the digest all the same")
	}
}

// TestCommand: a host starts node with the runtime's absolute path.
func TestCommand(t *testing.T) {
	cmd, args := hostruntime.Command("/srv/pkgs/equipment-lending/")
	if cmd != "node" || !slices.Equal(args, []string{"/srv/pkgs/equipment-lending/portable-host-runtime.mjs"}) {
		t.Errorf("%s %v", cmd, args)
	}
}

// The runtime asks the user in the package's documentation language: a
// package declared in English confirms and reconciles in English, one in
// Chinese in Chinese. The removal's confirmation is the deployer's policy
// and is asked all the same.
func TestQuestionsInTheDocumentationLanguage(t *testing.T) {
	in := sample(t)
	zh := binding(t, in)
	in.Export.DocumentationLanguage = contract.LanguageEnglish
	en := binding(t, in)
	const removal = "/tools/4"
	if got := at(t, zh, removal+"/toolName"); got != `"remove_returned_loan"` {
		t.Fatalf("tool 4 is %s", got)
	}
	for _, tc := range []struct {
		doc      canonjson.Value
		pointer  string
		contains string
	}{
		{zh, removal + "/confirmation/message", "要执行一次写操作（删除）"},
		{zh, removal + "/confirmation/requestedSchema/properties/confirm/title", "确认执行"},
		{zh, removal + "/reconciliation/message", "结果未知"},
		{en, removal + "/confirmation/message", `\"remove_returned_loan\" is about to make a write (delete); nothing is sent unless you confirm it here`},
		{en, removal + "/confirmation/requestedSchema/properties/confirm/title", "Confirm"},
		{en, removal + "/reconciliation/message", "is unknown: it may or may not have taken effect"},
		{en, removal + "/reconciliation/requestedSchema/properties/reconciled/description", "Choose yes only after checking"},
	} {
		if got := at(t, tc.doc, tc.pointer); !strings.Contains(got, tc.contains) {
			t.Errorf("%s: %s lacks %q", tc.pointer, got, tc.contains)
		}
	}
	if strings.ContainsFunc(at(t, en, "/tools"), func(r rune) bool { return r >= 0x3400 && r <= 0x9fff }) {
		t.Errorf("the English binding holds Chinese text")
	}
}
