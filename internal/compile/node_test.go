package compile

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// requestsContract is the reference contract with two forbidden-shape
// constraints the Function enforces added to validate-sample-request (next
// to its conditional rules and its cross-field constraint), and
// save-sample-draft turned into a two-step request that uses every kind of
// binding compile writes:
// a percent-encoded path segment from an input and one from the first
// response, a fixed query term, a nested query parameter, a header, nested
// and flat body members from inputs and from the first response, and an
// input whose schema holds every keyword of the portable subset. Its error
// contract says where a rejection carries the backend's own code, message
// and field errors, and gives two statuses their own category. The draft
// IDs it answers with are a static domain, so that the output check of a
// static domain is seen, and it may answer 204 without a body.
func requestsContract(tb testing.TB) []byte {
	const (
		cp   = "/capabilities/3"
		refs = `"evidenceRefs": ["ev-contract-save"]`
	)
	input := func(name, typ, schema, required string) string {
		return `{"name": "` + name + `", "type": "` + typ + `", "schema": ` + schema + `, "description": "` + name + `.", "required": ` + required +
			`, "informationClass": "required", "sourceStrategies": ["user"], "valueDomain": {"kind": "unconstrained"}, ` + refs + `}`
	}
	bind := func(source, location, path string) string {
		return `{"source": ` + source + `, "location": "` + location + `", "path": ` + path + `, ` + refs + `}`
	}
	in := func(name string) string { return `{"kind": "input", "inputName": "` + name + `"}` }
	prior := func(path string) string {
		return `{"kind": "prior_response", "stepId": "lookup", "path": ` + path + `}`
	}
	checks := `{"type": "object", "additionalProperties": false, "required": ["kind"], "properties": {
		"name": {"type": ["string", "null"], "minLength": 2, "maxLength": 5, "pattern": "^[a-zé]+$"},
		"kind": {"type": "string", "enum": ["a", "b"]},
		"fixed": {"type": "string", "const": "x"},
		"count": {"type": "integer", "minimum": 1, "maximum": 3},
		"ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
		"link": {"type": "string", "format": "uri"},
		"tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 2, "uniqueItems": true},
		"nested": {"type": "object", "additionalProperties": false, "properties": {"a": {"type": "boolean"}}, "required": ["a"]}}}`
	steps := `[
		{"stepId": "lookup", "method": "GET", "authentication": "runtime_context",
		 "url": "https://application.example/api/sample-request/draft/{draftId}?mode=full",
		 "headers": {"Accept": "application/json"},
		 "bindings": [` + bind(in("draftId"), "path", `["draftId"]`) + `, ` + bind(in("page"), "query", `["page", "size"]`) + `, ` +
		bind(in("trace"), "header", `["X-Trace"]`) + `],
		 "successStatusCodes": [200], ` + refs + `},
		{"stepId": "saveDraft", "method": "PUT", "authentication": "runtime_context",
		 "url": "https://application.example/api/sample-request/draft/{draftKey}",
		 "headers": {"content-type": "application/json"},
		 "bindings": [` + bind(prior(`["draft", "key"]`), "path", `["draftKey"]`) + `, ` + bind(in("requestData"), "body", `["draft", "data"]`) + `, ` +
		bind(in("checks"), "body", `["checks"]`) + `, ` + bind(prior(`["etag"]`), "body", `["etag"]`) + `],
		 "successStatusCodes": [200, 201, 204], ` + refs + `}]`
	shape := func(id, path, predicate string) string {
		return `{"constraintId": "` + id + `", "kind": "forbidden-shape", "path": ` + path + `, "predicate": {"operator": "` + predicate +
			`"}, "enforcement": "function", "evidenceRefs": ["ev-service-validation"]}`
	}
	return contracttest.Patch(tb, contracttest.Reference(tb, contract.ContractFile),
		contracttest.Append("/capabilities/2/constraints", shape("no-note", `["requestData", "note"]`, "absent")),
		contracttest.Append("/capabilities/2/constraints", shape("no-upload-result", `["attachmentGrants", "*", "uploadResult"]`, "empty")),
		contracttest.Append(cp+"/inputs", input("draftId", "string", `{"type": "string"}`, "true")),
		contracttest.Append(cp+"/inputs", input("page", "integer", `{"type": "integer", "minimum": 1}`, "false")),
		contracttest.Append(cp+"/inputs", input("trace", "string", `{"type": "string"}`, "false")),
		contracttest.Append(cp+"/inputs", input("checks", "object", checks, "false")),
		contracttest.Set(cp+"/implementation/steps", steps),
		contracttest.Set(cp+"/outputs/0/valueDomain", `{"kind": "static", "values": ["draft-9"], `+refs+`}`),
		contracttest.Set(cp+"/successRule/outputRequired", `false`),
		contracttest.Set(cp+"/successRule/emptyBodyStatusCodes", `[204]`),
		contracttest.Set(cp+"/errorContract/sourceError", `{"codePath": ["error", "code"], "messagePath": ["error", "message"],
			"fieldErrorsPath": ["error", "fields"], "categoryByStatus": {"400": "input", "429": "business"}, `+refs+`}`),
	)
}

// TestFunctionCoreUnderNode compiles the requests contract and runs
// testdata/node/function-core.test.mjs against the compiled Function core
// under real node, in the sandbox, with no node_modules anywhere: the
// requests each Function hands to a mock context.dispatch (method, URL
// with encoded path segments, query, headers, body, multipart), input
// validation of every portable keyword, the status and output checks, the
// guarded write, and how the reviewed error normalizer reads the failures.
func TestFunctionCoreUnderNode(t *testing.T) {
	nodeTest(t, requestsContract(t), "function-core.test.mjs", 10)
}

// TestDeployerConfirmationUnderNode compiles the reference contract with
// save-sample-draft confirmed by the deployer's policy (no workflow guards
// it) and runs testdata/node/confirmation.test.mjs: the Function sends
// nothing unless the trusted runtime context carries the confirmation.
func TestDeployerConfirmationUnderNode(t *testing.T) {
	const cp = "/capabilities/3"
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		contracttest.Set(cp+"/operationPolicy/confirmation", `"trusted-confirmation-required"`),
		contracttest.Set(cp+"/deployerPolicy", `{"confirmation": "trusted-confirmation-required", "statement": "The deployer requires every saved draft to be confirmed."}`),
		contracttest.Set(cp+"/hostRequirements", `["agent-skills-discovery", "mcp-tool-invocation", "authentication-injection", "trusted-confirmation", "unknown-outcome-reconciliation"]`),
	)
	nodeTest(t, data, "confirmation.test.mjs", 3)
}

// nodeTest compiles a contract, writes the package and runs one script of
// testdata/node against it under real node, in the sandbox, with no
// node_modules anywhere; at least minPass tests must pass and none fail.
func nodeTest(t *testing.T, contractData []byte, script string, minPass int) {
	t.Helper()
	testnode.Node(t)
	res, list := Compile(withContract(t, contractData, nil))
	if !res.Compiled() {
		t.Fatalf("the contract did not compile: %v", list.Sorted())
	}
	dir := t.TempDir()
	ds, err := Write(dir, res.Files)
	if err != nil || len(ds) > 0 {
		t.Fatal(ds, err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "node", script))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "test"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "test", script), src, 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := sandbox.Run(context.Background(), []string{"node", "--test", "--test-reporter=tap", "test/" + script},
		sandbox.Options{Dir: dir, Timeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	out := string(r.Stdout) + string(r.Stderr)
	pass, fail := tap(out, "pass"), tap(out, "fail")
	if r.ExitCode != 0 || pass < minPass || fail != 0 {
		t.Fatalf("node --test: exit %d, %d passed, %d failed:\n%s", r.ExitCode, pass, fail, out)
	}
	t.Logf("node --test: %d tests passed", pass)
}

// tap reads a "# pass N" summary line of a TAP report; -1 when missing.
func tap(out, key string) int {
	m := regexp.MustCompile(`(?m)^# ` + key + ` (\d+)$`).FindStringSubmatch(out)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
