package strict

import (
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
)

// englishFacts are the facts of the strict sample declared in English,
// and its documents.
func englishFacts(t *testing.T) (*facts, func(file string) string) {
	t.Helper()
	sample := examples.StrictSampleEnglish()
	files := map[string][]byte{}
	for _, name := range []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		data, err := fs.ReadFile(sample, name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = data
	}
	in, l := derive.Decode(files)
	if l.Merge(derive.Check(in)); l.HasErrors() {
		t.Fatal(l.Sorted())
	}
	read := func(file string) ([]byte, bool) {
		data, err := fs.ReadFile(sample, file)
		return data, err == nil
	}
	f := packageFacts(examples.StrictSampleName, in, derive.Derive(in), read)
	if f.lang != english {
		t.Fatalf("the English sample is judged in %s", f.lang.tag)
	}
	doc := func(file string) string {
		data, ok := read(file)
		if !ok {
			t.Fatalf("no %s", file)
		}
		return string(data)
	}
	return f, doc
}

// The English sample's documents satisfy every rule of the English
// language; each document rule fires, in English, on a copy of one broken
// in one way, and only that rule fires.
func TestEnglishDocumentRules(t *testing.T) {
	f, doc := englishFacts(t)
	enMCPDoc := MCPDocFile(contract.LanguageEnglish)
	for _, file := range Documents(contract.LanguageEnglish) {
		for _, d := range checkDoc(file, doc(file), f) {
			t.Errorf("unexpected finding: %s", d)
		}
	}
	tests := []docCase{
		// Every document.
		{name: "required input called optional", file: SkillFile,
			edits: []edit{{"- Input `terms`: required; the member's terms", "- Input `terms`: optional; the member's terms"}},
			want:  []string{"STRICT_DOC_REQUIRED_AS_OPTIONAL"}},
		{name: "optional input called required", file: enMCPDoc,
			edits: []edit{{"- `category` (string, optional)", "- `category` (string, required)"}},
			want:  []string{"STRICT_DOC_OPTIONAL_AS_REQUIRED"}},
		{name: "an input's name as a word is not the input", file: ContextFile,
			add: "A quote is optional reading for members who only browse.", want: nil},
		{name: "write Tool is read-only", file: ContextFile, add: "`remove_returned_loan` is read-only.", want: []string{"STRICT_DOC_WRITE_AS_READ_ONLY"}},
		{name: "read-only list with a write Tool", file: enMCPDoc,
			add: "Read-only Tools: `list_lendable_equipment`, `create_equipment_loan`.", want: []string{"STRICT_DOC_WRITE_AS_READ_ONLY"}},
		{name: "never-retry Tool retried", file: SkillFile, add: "`create_equipment_loan` is retried automatically after a failure.", want: []string{"STRICT_DOC_RETRY_CLAIMED"}},
		{name: "stale bound", file: SkillFile, edits: []edit{{"an integer from 1 to 14", "an integer from 1 to 21"}}, want: []string{"STRICT_DOC_STALE_BOUND"}},
		{name: "stale length", file: enMCPDoc, edits: []edit{{"a string of at most 200 characters", "a string of at most 500 characters"}}, want: []string{"STRICT_DOC_STALE_BOUND"}},
		{name: "stale value", file: enMCPDoc, edits: []edit{{"is one of `access`, `camping`, `garden` and `power-tools`", "is one of `access`, `camping`, `garden` and `kitchen`"}}, want: []string{"STRICT_DOC_STALE_ENUM"}},
		{name: "incomplete domain", file: enMCPDoc, edits: []edit{{"is one of `access`, `camping`, `garden` and `power-tools`", "is one of `access` and `camping`"}}, want: []string{"STRICT_DOC_STALE_ENUM"}},
		{name: "a partial list", file: enMCPDoc, edits: []edit{{"is one of `access`, `camping`, `garden` and `power-tools`", "is, for example, one of `access` and `camping`"}}, want: nil},
		{name: "unknown error code", file: SkillFile, add: "The desk refuses a late return with error `LOAN_OVERDUE`.", want: []string{"STRICT_DOC_UNKNOWN_ERROR_CODE"}},
		{name: "unknown Tool", file: SkillFile, add: "Then call the Tool `renew_equipment_loan`.", want: []string{"STRICT_DOC_UNKNOWN_TOOL"}},

		// SKILL.md.
		{name: "skill heading", file: SkillFile, edits: []edit{{"## Intent routing", "## Routing intents"}}, want: []string{"STRICT_SKILL_HEADING"}},
		{name: "skill dry-run", file: SkillFile, edits: []edit{{"Dry run: when the host", "Rehearsal: when the host"}}, want: []string{"STRICT_SKILL_DRY_RUN"}},
		{name: "skill Tool topics", file: SkillFile,
			edits: []edit{{"Handoff: once the member chose an item whose `available` is true, pass that row's `itemId` to `quote_equipment_loan`. When the member only asked what can be borrowed, answer directly and the task ends.", "The member chooses among the rows."}},
			want:  []string{"STRICT_SKILL_TOOL_COVERAGE"}},
		{name: "skill read Tool not read-only", file: SkillFile,
			edits: []edit{{"It is a read-only Tool: one GET request, nothing is changed.", "It sends one GET request, nothing is changed."}},
			want:  []string{"STRICT_SKILL_TOOL_READ_ONLY"}},
		{name: "skill input requiredness", file: SkillFile,
			edits: []edit{{"- Input `loanId`: required; the `loanId` of the return receipt", "- Input `loanId`: the `loanId` of the return receipt"}},
			want:  []string{"STRICT_SKILL_TOOL_INPUT"}},
		{name: "skill examples", file: SkillFile, edits: []edit{{"### Example 1", "### Case 1"}, {"### Example 2", "### Case 2"}, {"### Example 3", "### Case 3"}, {"### Example 4", "### Case 4"}},
			want: []string{"STRICT_SKILL_EXAMPLES"}},

		// The MCP document.
		{name: "mcp terms", file: enMCPDoc, edits: []edit{{"tools/list", "tool listing"}}, want: []string{"STRICT_MCPDOC_TERM"}},
		{name: "mcp Tool topics", file: enMCPDoc,
			edits: []edit{{"Handoff: once the member chose an item whose `available` is true, hand that row's `itemId` to `quote_equipment_loan`; when the member only asked what can be borrowed, answer directly and the call ends there.", "The member chooses among the rows."}},
			want:  []string{"STRICT_MCPDOC_TOOL_COVERAGE"}},
		{name: "mcp empty body", file: enMCPDoc,
			edits: []edit{{"The `structuredContent` of a success is `{\"status\": 204, \"data\": null}`", "The `structuredContent` of a success has no data"},
				{`{"structuredContent": {"status": 204, "data": null}, "content": [{"type": "text", "text": "{\"status\":204,\"data\":null}"}], "isError": false}`, `{"isError": false}`}},
			want: []string{"STRICT_MCPDOC_EMPTY_BODY"}},
		{name: "mcp deployer", file: enMCPDoc,
			edits: []edit{{"this confirmation is the deployer's requirement, recorded in the contract as `deployerPolicy`, not as source evidence", "this confirmation is required"}},
			want:  []string{"STRICT_MCPDOC_DEPLOYER_CONFIRMATION"}},

		// MCP-SETUP.md.
		{name: "setup install scope", file: SetupFile, edits: []edit{{"installs only the Skill files into the agent", "installs the Skill files into the agent"}}, want: []string{"STRICT_SETUP_INSTALL_SCOPE"}},
		{name: "setup not MCP", file: SetupFile, edits: []edit{{"it does not start or register the MCP server", "it prepares the agent"}}, want: []string{"STRICT_SETUP_INSTALL_SCOPE"}},
		{name: "setup topics", file: SetupFile, edits: []edit{{"environment variable", "setting"}, {"Environment variable", "Setting"}}, want: []string{"STRICT_SETUP_TOPIC"}},

		// references/feature-context.md.
		{name: "context section missing", file: ContextFile, edits: []edit{{"## Original client behaviour", "## What the screen did"}}, want: []string{"STRICT_CONTEXT_SECTION"}},
		{name: "context side effects", file: ContextFile, edits: []edit{{"## Side effects, confirmation and writes", "## Writing"}}, want: []string{"STRICT_CONTEXT_SIDE_EFFECTS"}},
		{name: "context template title", file: ContextFile, add: "Business background template", want: []string{"STRICT_DOC_PLACEHOLDER"}},
	}
	runDocCases(t, f, doc, tests)
}

// Lengths count code points and, in English, words: a document of Chinese
// prose in an English package has too few.
func TestEnglishLengths(t *testing.T) {
	f, doc := englishFacts(t)
	chineseSkill, err := fs.ReadFile(examples.StrictSample(), SkillFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := ruleIDs(tooShort(parseDocument(SkillFile, chineseSkill), f.lang, f.lang.skillMin, f.lang.skillUnits)); !cmp.Equal(got, []string{"STRICT_DOC_TOO_SHORT"}) {
		t.Errorf("the Chinese SKILL.md under the English sizes: %v", got)
	}
	if got := tooShort(parseDocument(SkillFile, []byte(doc(SkillFile))), f.lang, f.lang.skillMin, f.lang.skillUnits); len(got) > 0 {
		t.Errorf("the English SKILL.md: %v", got)
	}
}
