package strictjs

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

// conditionPattern turns a condition's message format into a pattern its
// findings match, whatever the arguments; prefix is a pattern of what the
// checker puts before it (the Function or Tool).
func conditionPattern(prefix, format string) *regexp.Regexp {
	q := regexp.QuoteMeta(format)
	for _, verb := range []string{"%q", "%s", "%d"} {
		q = strings.ReplaceAll(q, verb, ".*")
	}
	return regexp.MustCompile("^" + prefix + q + "$")
}

// A shapeFixture breaks one condition of a shape checker in the compiled
// reference package: its edits apply, in order, to the text of one
// function of one file (from the first occurrence of start on).
type shapeFixture struct {
	name      string
	condition int
	file      string
	start     string
	edits     [][2]string
}

// cut is an edit that removes the text from the first occurrence of from
// to the end of the next occurrence of to.
func cut(from, to string) [2]string { return [2]string{"\x00cut", from + "\x00" + to} }

// breakExactly applies a fixture and wants findings of rule with the
// message of the fixture's condition only: no other condition's, no other
// rule's. (A condition about the module, such as the guard's import, is
// reported for each Function it concerns.)
func breakExactly(t *testing.T, fx shapeFixture, rule *diag.Rule, prefix string, messages []string) {
	t.Helper()
	dir, in := build(t, reference, nil)
	p := filepath.Join(dir, filepath.FromSlash(fx.file))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	at := strings.Index(text, fx.start)
	if at < 0 {
		t.Fatalf("%s does not hold %q", fx.file, fx.start)
	}
	head, body := text[:at], text[at:]
	for _, e := range fx.edits {
		if e[0] == "\x00cut" {
			from, to, _ := strings.Cut(e[1], "\x00")
			i := strings.Index(body, from)
			j := -1
			if i >= 0 {
				j = strings.Index(body[i:], to)
			}
			if i < 0 || j < 0 {
				t.Fatalf("%s after %q does not hold %q … %q", fx.file, fx.start, from, to)
			}
			body = body[:i] + body[i+j+len(to):]
			continue
		}
		if !strings.Contains(body, e[0]) {
			t.Fatalf("%s after %q does not hold %q", fx.file, fx.start, e[0])
		}
		body = strings.Replace(body, e[0], e[1], 1)
	}
	if err := os.WriteFile(p, []byte(head+body), 0o644); err != nil {
		t.Fatal(err)
	}
	l := check(t, dir, in)
	ds := l.Sorted()
	want := conditionPattern(prefix, messages[fx.condition])
	ok := len(ds) > 0
	for _, d := range ds {
		ok = ok && d.Rule == rule.ID && want.MatchString(d.Message)
	}
	if !ok {
		t.Fatalf("want only %s findings %q; got:\n%s", rule.ID, messages[fx.condition], strings.Join(lines(l), "\n"))
	}
	// No other condition's message matches the findings.
	for i, m := range messages {
		if i != fx.condition && conditionPattern(prefix, m).MatchString(ds[0].Message) {
			t.Errorf("the finding also reads as condition %d (%q)", i, m)
		}
	}
}

// everyCondition fails unless each condition has a fixture.
func everyCondition(t *testing.T, fixtures []shapeFixture, messages []string) {
	t.Helper()
	covered := map[int]bool{}
	for _, fx := range fixtures {
		covered[fx.condition] = true
	}
	for i, m := range messages {
		if !covered[i] {
			t.Errorf("condition %d (%q) has no fixture", i, m)
		}
	}
}

const submitStart = "export async function submitSampleRequest(input, context) {"

// TestGuardShapeConditions breaks each condition of the workflow guard's
// reviewed shape, exactly once each, in the compiled reference package's
// guarded write, and wants exactly that condition's finding.
func TestGuardShapeConditions(t *testing.T) {
	const (
		sig    = "submitSampleRequest(input, context) {"
		state  = `  const protectedWorkflowState = protectedWorkflowStateFor(context, "submit-sample-request");` + "\n"
		ret    = "  return protectedWorkflowState.guard.dispatchWithPolicy({\n"
		opKey  = "    operationKey: protectedWorkflowState.operationKey,\n"
		arrow  = "  }, async (safeInput) => {\n"
		tail   = "    return outputOf(capability, response1);\n  });\n}"
		policy = "    workflowId: \"submit-sample-request\",\n    input,\n    runtimeContext: context,\n" + opKey
		// keepURL keeps the contract's URL in the module when a fixture
		// removes the request, so that only the guard's shape is broken.
		keepURL = "\nconst submitURL = \"https://application.example/api/sample-request\";\n"
	)
	fixtures := []shapeFixture{
		{"other parameter names", int(guardParams), core, submitStart, [][2]string{{sig, "submitSampleRequest(input, ctx) {\n  const context = ctx;"}}},
		{"a rest parameter", int(guardRestParam), core, submitStart, [][2]string{{sig, "submitSampleRequest(input, context, ...more) {"}}},
		{"a default context", int(guardDefaultParam), core, submitStart, [][2]string{{sig, "submitSampleRequest(input, context = {}) {"}}},
		{"the guard not imported", int(guardImportMissing), core, "", [][2]string{
			{`import { protectedWorkflowStateFor } from "../portable-workflow-guard.mjs";`, `import * as workflowGuard from "../portable-workflow-guard.mjs";`},
			{"function requireAttachments(", "function protectedWorkflowStateFor(context, id) {\n  return workflowGuard.protectedWorkflowStateFor(context, id);\n}\n\nfunction requireAttachments("}}},
		{"an empty body", int(guardEmptyBody), core, submitStart, [][2]string{cut("\n  const capability", tail[:len(tail)-2]), {"\n}\n", "\n}\n" + keepURL}}},
		{"the dispatch awaited, not returned", int(guardLastReturn), core, submitStart, [][2]string{{ret, "  await protectedWorkflowState.guard.dispatchWithPolicy({\n"}}},
		{"the last statement returns something else", int(guardLastReturn), core, submitStart, [][2]string{{tail, "    return outputOf(capability, response1);\n  });\n  return null;\n}"}}},
		{"a second dispatch", int(guardCallCount), core, submitStart, [][2]string{{ret, "  if (context.twice) protectedWorkflowState.guard.dispatchWithPolicy({}, context.dispatch);\n" + ret}}},
		{"the state read with a third argument", int(guardStateArgs), core, submitStart, [][2]string{{state, `  const protectedWorkflowState = protectedWorkflowStateFor(context, "submit-sample-request", {});` + "\n"}}},
		{"the state read from another context", int(guardStateContext), core, submitStart, [][2]string{{state, `  const protectedWorkflowState = protectedWorkflowStateFor(context.host, "submit-sample-request");` + "\n"}}},
		{"the state of another workflow", int(guardStateWorkflow), core, submitStart, [][2]string{{state, `  const protectedWorkflowState = protectedWorkflowStateFor(context, "upload-sample-attachment");` + "\n"}}},
		{"no protected state", int(guardNoState), core, submitStart, [][2]string{{state, "  const protectedWorkflowState = context.protected;\n"}}},
		{"another object's guard", int(guardStateGuard), core, submitStart, [][2]string{{ret, "  return context.guard.dispatchWithPolicy({\n"}}},
		{"a third argument", int(guardArgCount), core, submitStart, [][2]string{{tail, "    return outputOf(capability, response1);\n  }, {});\n}"}}},
		{"a policy that is not a literal", int(guardPolicyLiteral), core, submitStart, [][2]string{
			{ret, "  return protectedWorkflowState.guard.dispatchWithPolicy(Object.freeze({\n"}, {arrow, "  }), async (safeInput) => {\n"}}},
		{"a spread policy", int(guardPolicyPlain), core, submitStart, [][2]string{{opKey, opKey + "    ...context.policy,\n"}}},
		{"a policy key too many", int(guardPolicyKeys), core, submitStart, [][2]string{{opKey, opKey + "    singleUse: true,\n"}}},
		{"another workflow's ID", int(guardPolicyWorkflow), core, submitStart, [][2]string{{policy, strings.Replace(policy, `"submit-sample-request"`, `"upload-sample-attachment"`, 1)}}},
		{"a copied input", int(guardPolicyInput), core, submitStart, [][2]string{{"    input,\n", "    input: { ...input },\n"}}},
		{"another runtime context", int(guardPolicyContext), core, submitStart, [][2]string{{"    runtimeContext: context,\n", "    runtimeContext: { ...context },\n"}}},
		{"a fixed operation key", int(guardPolicyOperationKey), core, submitStart, [][2]string{{opKey, "    operationKey: \"submit-1\",\n"}}},
		{"a dispatch without parameters", int(guardDispatchParam), core, submitStart, [][2]string{{arrow, "  }, async () => {\n    const safeInput = context.checked;\n"}}},
		{"a function dispatch without parameters", int(guardDispatchParam), core, submitStart, [][2]string{{arrow, "  }, async function () {\n    const safeInput = context.checked;\n"}}},
		{"a dispatch with a rest parameter", int(guardDispatchRest), core, submitStart, [][2]string{{arrow, "  }, async (safeInput, ...more) => {\n"}}},
		{"a function dispatch with a rest parameter", int(guardDispatchRest), core, submitStart, [][2]string{{arrow, "  }, async function (safeInput, ...more) {\n"}}},
		{"a dispatch that is not a function", int(guardDispatchKind), core, submitStart, [][2]string{{arrow, "  }, context.send);\n" + arrow}, cut(arrow, "\n  });\n"), {"\n}\n", "\n}\n" + keepURL}}},
		{"a dispatch reading the unchecked input", int(guardDispatchUnchecked), core, submitStart, [][2]string{{`safeInput["requestData"]`, `input["requestData"]`}}},
		{"a request before the guard", int(guardEffectOutside), core, submitStart, [][2]string{{state, "  await context.dispatch(\"https://application.example/api/sample-request\", {});\n" + state}}},
		{"a verification mode", int(guardVerifierLiteral), core, submitStart, [][2]string{{state, "  const mode = \"verify-first\";\n" + state}}},
		{"a verifier", int(guardVerifierName), core, submitStart, [][2]string{{state, "  const verifyPayload = context.check;\n" + state}}},
		{"bindings at hand", int(guardBindings), core, submitStart, [][2]string{{state, "  const extra = { bindings: [] };\n" + state}}},
	}
	messages := guardMessages[:]
	everyCondition(t, fixtures, messages)
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			breakExactly(t, fx, RuleGuardUse, `\w+ \(workflow [a-z-]+\): `, messages)
		})
	}
}

// TestDryRunShapeConditions breaks each condition of the reviewed dry-run
// guard, exactly once each, in the first Tool callback of the compiled
// reference package, and wants exactly that condition's finding.
func TestDryRunShapeConditions(t *testing.T) {
	const (
		start  = `server.registerTool("list_sample_request_kinds", {`
		cond   = `if (process.env.CODE2SKILL_DRY_RUN === "1") {`
		result = "    const dryRunResult = {\n"
		ret    = `    return { structuredContent: dryRunResult, content: [{ type: "text", text: JSON.stringify(dryRunResult) }], isError: false };` + "\n  }\n"
		policy = `      operationPolicy: {"sideEffect": "read", "idempotency": "safe", "automaticRetry": "read-only-bounded", "confirmation": "not-required", "unknownOutcome": "not-applicable"},`
	)
	fixtures := []shapeFixture{
		{"an empty callback", int(dryRunMissing), adapter, start, [][2]string{cut("  "+cond, "    return { content: [{ type: \"text\", text: JSON.stringify(toolError) }], isError: true };\n  }\n")}},
		{"no guard first", int(dryRunNotGuard), adapter, start, [][2]string{{cond, "const early = runtimeContext.dryRun;\n  " + cond}}},
		{"a loose comparison", int(dryRunNotGuard), adapter, start, [][2]string{{cond, `if (process.env.CODE2SKILL_DRY_RUN == "1") {`}}},
		{"another value", int(dryRunNotGuard), adapter, start, [][2]string{{cond, `if (process.env.CODE2SKILL_DRY_RUN === "true") {`}}},
		{"not the environment", int(dryRunNotGuard), adapter, start, [][2]string{{cond, `if (runtimeContext.CODE2SKILL_DRY_RUN === "1") {`}}},
		{"another variable", int(dryRunVariable), adapter, start, [][2]string{{cond, `if (process.env.DRY_RUN === "1") {`}}},
		{"an else branch", int(dryRunElse), adapter, start, [][2]string{{ret, strings.TrimSuffix(ret, "\n") + " else {\n    runtimeContext.live = true;\n  }\n"}}},
		{"a third statement", int(dryRunBody), adapter, start, [][2]string{{result, "    runtimeContext.dryRunSeen = true;\n" + result}}},
		{"a result that is not a constant", int(dryRunResultConst), adapter, start, [][2]string{{result, "    let dryRunResult = {\n"}}},
		{"a spread result", int(dryRunResultPlain), adapter, start, [][2]string{{"      dryRun: true,\n", "      dryRun: true,\n      ...runtimeContext.extra,\n"}}},
		{"a result key too many", int(dryRunResultKeys), adapter, start, [][2]string{{"      dryRun: true,\n", "      dryRun: true,\n      simulated: true,\n"}}},
		{"dryRun false", int(dryRunTrue), adapter, start, [][2]string{{"      dryRun: true,\n", "      dryRun: false,\n"}}},
		{"a copied input", int(dryRunValidatedInput), adapter, start, [][2]string{{"      validatedInput: input,\n", "      validatedInput: { ...input },\n"}}},
		{"another policy", int(dryRunPolicy), adapter, start, [][2]string{{policy, `      operationPolicy: {"sideEffect": "read"},`}}},
		{"another summary", int(dryRunSummary), adapter, start, [][2]string{{`"stepCount": 1,`, `"stepCount": 2,`}}},
		{"an error projection", int(dryRunProjection), adapter, start, [][2]string{{ret, strings.Replace(ret, "isError: false", "isError: true", 1)}}},
	}
	messages := dryRunMessages[:]
	everyCondition(t, fixtures, messages)
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			breakExactly(t, fx, RuleMCPDryRun, `list_sample_request_kinds: `, messages)
		})
	}
}
