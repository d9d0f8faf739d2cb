package core

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/reach"
	"github.com/code2skill/code2skill/internal/testtier"
)

// The corpus of planted mistakes: the mistakes agents make when they turn
// a feature into a package, each planted in its own copy of the passing
// bundled example. validate must catch every one with a rule ID, and the
// passing variants (what a careful Producer writes instead) must pass.

const core = "function-core/index.mjs"

// corpusCase is one planted mistake, or one correct variant.
type corpusCase struct {
	name string
	edit func(t *testing.T, dir string)
	// want are rules that must be among the findings; none for a variant
	// that must pass without any finding.
	want []*diag.Rule
	// also are rules the mutation may bring besides (the example's own
	// tests failing, say); any other finding fails the case.
	also []*diag.Rule
	// in, when set, must be in the message of the first wanted finding.
	in   string
	opts Options
	// fast runs the case in the fast tier, the rest in the slow one.
	fast bool
}

// TestPlantedMistakes runs the planted mistakes of the fast tier: an input
// dropped from the request, the same input documented as local, and a
// Function that blocks the server.
func TestPlantedMistakes(t *testing.T) { runPlanted(t, true) }

// TestSlowPlantedMistakes runs the rest of the corpus.
func TestSlowPlantedMistakes(t *testing.T) {
	testtier.Slow(t)
	runPlanted(t, false)
}

func runPlanted(t *testing.T, fast bool) {
	for _, tc := range plantedMistakes() {
		if tc.fast != fast {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := validate(t, examplePackage(t, func(dir string) { tc.edit(t, dir) }), tc.opts)
			got := resultRules(res)
			for _, r := range tc.want {
				if !slices.Contains(got, r.ID) {
					t.Errorf("%s not reported:\n%s", r.ID, dump(res))
				}
			}
			allowed := append(slices.Clone(tc.want), tc.also...)
			for _, id := range got {
				if !slices.ContainsFunc(allowed, func(r *diag.Rule) bool { return r.ID == id }) {
					t.Errorf("unexpected %s:\n%s", id, dump(res))
				}
			}
			if len(tc.want) > 0 {
				if !res.Diagnostics.HasErrors() && tc.want[0].Severity == diag.Error {
					t.Errorf("no error reported")
				}
				if tc.in != "" && !slices.ContainsFunc(res.Diagnostics.Sorted(), func(d diag.Diagnostic) bool {
					return d.Rule == tc.want[0].ID && strings.Contains(d.Message+d.Detail, tc.in)
				}) {
					t.Errorf("no %s finding says %s:\n%s", tc.want[0].ID, tc.in, dump(res))
				}
			}
		})
	}
}

func plantedMistakes() []corpusCase {
	testsFail := []*diag.Rule{RuleTestsFailed}
	return []corpusCase{
		{
			name: "the body dropped from the request",
			fast: true,
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "return reservations('POST', 'reservations', { reservation }, context);",
					"return reservations('POST', 'reservations', { reservation: {} }, context);")
			},
			want: []*diag.Rule{reach.RuleInputDropped}, also: testsFail, in: `"selectedVariety.lotCode"`,
		},
		{
			name: "the body sent without the envelope the API needs",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "return reservations('POST', 'reservations', { reservation }, context);",
					"return reservations('POST', 'reservations', reservation, context);")
			},
			// The tests pin the exact body, recorded whole by the helper.
			want: testsFail, in: "the selected record is passed whole",
		},
		{
			name: "the tests replaced by one assert.ok(true)",
			edit: func(t *testing.T, dir string) {
				for _, f := range []string{"search", "reserve", "reservations", "mcp-server"} {
					os.Remove(filepath.Join(dir, "tests", f+".test.mjs"))
				}
				writeFile(t, dir, "tests/all.test.mjs", "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('works', () => assert.ok(true));\n")
			},
			want: []*diag.Rule{RuleTestsFunctionNotRun}, in: `"cancel_reservation"`,
		},
		{
			name: "the tests of a Tool never answer its request",
			edit: func(t *testing.T, dir string) {
				writeFile(t, dir, "tests/search.test.mjs", "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\n"+
					"import { searchSeedVarieties, MissingConfigurationError } from '../function-core/index.mjs';\n"+
					"test('a missing base URL stops', async () => { await assert.rejects(searchSeedVarieties({}, { env: {} }), MissingConfigurationError); });\n")
				replaceIn(t, dir, "tests/mcp-server.test.mjs", "test('a call returns the HTTP result", "test.skip('a call returns the HTTP result")
			},
			want: []*diag.Rule{RuleTestsRequestNotAnswered},
		},
		{
			name: "the session token the backend repeats left in a read's result",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "return withoutFields(await reservations('GET', path, undefined, context), CREDENTIAL_FIELDS);",
					"return reservations('GET', path, undefined, context);")
			},
			want: testsFail, in: "the session token the service repeats is removed",
		},
		{
			name: "the member's token returned in a result",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "return reservations('DELETE', `reservations/${pathSegment(input.reservationId, 'reservationId')}`, undefined, context);",
					"const result = await reservations('DELETE', `reservations/${pathSegment(input.reservationId, 'reservationId')}`, undefined, context);\n"+
						"  return { ...result, member: { session: (context.env ?? process.env)[RESERVATIONS_TOKEN] } };")
			},
			want: []*diag.Rule{reach.RuleCredentialInResult}, also: testsFail, in: `"cancel_reservation"`,
		},
		{
			name: "an unmasked authorization header in a dry-run result",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "headers: { ...headers, authorization: NOT_SHOWN }", "headers")
			},
			want: []*diag.Rule{reach.RuleCredentialInResult}, also: testsFail, in: "/request/headers/authorization",
		},
		{
			name: "readOnlyHint on a DELETE sent through a helper",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "mcp-tool/server.mjs", "annotations: { readOnlyHint: false, destructiveHint: true",
					"annotations: { readOnlyHint: true, destructiveHint: true")
			},
			want: []*diag.Rule{RuleAnnotationReadOnly}, also: testsFail, in: "DELETE (function-core/index.mjs:",
		},
		{
			name: "destructiveHint false on a DELETE sent through a helper",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, "mcp-tool/server.mjs", "annotations: { readOnlyHint: false, destructiveHint: true",
					"annotations: { readOnlyHint: false, destructiveHint: false")
			},
			want: []*diag.Rule{RuleAnnotationDestructive}, also: testsFail,
		},
		{
			name: "a template-literal fallback to a production URL",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  const base = env[variable];", "  const base = env[variable] || `${CONFIG.API_HOST}/api`;")
				replaceIn(t, dir, core, "/** The time limit of one request", "const CONFIG = { API_HOST: 'https://seed-library.example' };\n\n/** The time limit of one request")
			},
			want: []*diag.Rule{jsmod.RuleEnvURLFallback, reach.RuleBaseURLNotRefused},
			also: []*diag.Rule{jsmod.RuleBaseURLLiteral, RuleTestsFailed},
		},
		{
			name: "a write that ignores the dry-run variable",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "if (method !== 'GET' && env[DRY_RUN] === '1') {", "if (method !== 'GET' && env.DRY_RUN === 'yes') {")
			},
			want: []*diag.Rule{reach.RuleDryRunSent}, also: append([]*diag.Rule{RuleSetupEnv}, testsFail...), in: `"reserve_seed_packets"`,
		},
		{
			name: "a 4xx swallowed as {ok: true}",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  return readHttpResponse(response);\n}", "  if (!response.ok) return { ok: true };\n  return readHttpResponse(response);\n}")
			},
			want: []*diag.Rule{reach.RuleNoHTTPStatus}, also: testsFail, in: "answered 401",
		},
		{
			name: "a 5xx passed off as a success",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  return readHttpResponse(response);\n}", "  if (response.status >= 500) return { httpStatus: 200, bodyText: '{\"varieties\":[]}' };\n  return readHttpResponse(response);\n}")
			},
			want: []*diag.Rule{reach.RuleStatusNotPassed}, also: testsFail, in: "answered 503",
		},
		{
			name: "a result without httpStatus",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  return readHttpResponse(response);\n}", "  return JSON.parse(await response.text());\n}")
			},
			// A 204 has no body to parse.
			want: []*diag.Rule{reach.RuleNoHTTPStatus}, also: append([]*diag.Rule{reach.RuleStatusNotPassed}, testsFail...),
		},
		{
			name: "a literal production base URL",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "const url = serviceUrl(env, CATALOG_BASE_URL, 'varieties');", "const url = new URL('varieties', 'https://catalog.seed-library.example/api/');")
			},
			want: []*diag.Rule{jsmod.RuleBaseURLLiteral, reach.RuleOutsideBase}, also: []*diag.Rule{reach.RuleBaseURLNotRefused, RuleTestsFailed},
		},
		{
			name: "an absolute path that drops the base URL's own path",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "const url = serviceUrl(env, CATALOG_BASE_URL, 'varieties');", "const url = serviceUrl(env, CATALOG_BASE_URL, '/varieties');")
			},
			want: []*diag.Rule{reach.RuleOutsideBase}, also: testsFail, in: "https://svc1.reach.invalid/varieties",
		},
		{
			name: "an input sent in the URL fragment",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "if (query !== undefined) url.searchParams.set('q', query);", "if (query !== undefined) url.hash = query;")
			},
			want: []*diag.Rule{reach.RuleInputMisplaced}, also: testsFail, in: `"query"`,
		},
		{
			name: "a page document, a receipt and an evidence directory",
			edit: func(t *testing.T, dir string) {
				writeFile(t, dir, "PAGE.md", "# Seed library page\n")
				writeFile(t, dir, "function-core/validation-receipt.json", "{}\n")
				writeFile(t, dir, "verification/results/search.json", "{}\n")
			},
			want: []*diag.Rule{RuleAuditFile},
		},
		{
			name: "a Function that hangs",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "export async function cancelReservation(input = {}, context = {}) {\n",
					"export async function cancelReservation(input = {}, context = {}) {\n  if ((context.env ?? process.env).CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN?.startsWith('eyJ')) await new Promise(() => {});\n")
			},
			want: []*diag.Rule{reach.RuleCallTimeout}, in: `"cancel_reservation"`,
		},
		{
			name: "a Function that blocks the server",
			fast: true,
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "export async function cancelReservation(input = {}, context = {}) {\n",
					"export async function cancelReservation(input = {}, context = {}) {\n  if ((context.env ?? process.env).CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN?.startsWith('eyJ')) for (;;) {}\n")
			},
			// The call that blocks the server is the request that hangs.
			opts: Options{RequestTimeout: testtier.Scaled(3 * time.Second)},
			want: []*diag.Rule{reach.RuleServerEnded}, also: []*diag.Rule{mcpcheck.RuleRequestTimeout}, in: `"cancel_reservation"`,
		},
		{
			name: "a Function that calls process.exit",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  const status = text(input.status);\n", "  if ((context.env ?? process.env).CODE2SKILL_SEED_LIBRARY_RESERVATIONS_TOKEN?.startsWith('eyJ')) process.exit(3);\n  const status = text(input.status);\n")
			},
			want: []*diag.Rule{reach.RuleProcessExit}, in: `"list_my_reservations"`,
		},
		{
			name: "a Function that writes to stdout",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  const query = text(input.query);\n", "  console.log('searching the catalog for', input.query);\n  const query = text(input.query);\n")
			},
			want: []*diag.Rule{reach.RuleStdout}, in: `"search_seed_varieties"`,
		},
		{
			name: "a GET sent with a body",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "method: 'GET', headers: { accept: 'application/json' }, signal", "method: 'GET', body: JSON.stringify(input), headers: { accept: 'application/json' }, signal")
			},
			want: []*diag.Rule{reach.RuleRequestInvalid}, also: testsFail,
		},
		{
			name: "a Tool that answers without a request",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  const status = text(input.status);\n", "  return { httpStatus: 200, bodyText: '{\"reservations\":[]}' };\n  const status = text(input.status);\n")
			},
			want: []*diag.Rule{reach.RuleNoRequest}, also: []*diag.Rule{RuleTestsFailed, RuleTestsRequestNotAnswered},
		},
		{
			name: "an input format the schema does not state",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "export async function cancelReservation(input = {}, context = {}) {\n",
					"export async function cancelReservation(input = {}, context = {}) {\n  if (!/^r-\\d+$/.test(String(input.reservationId))) throw new MissingInputError('reservationId');\n")
			},
			want: []*diag.Rule{reach.RuleCallRefused}, also: testsFail, in: `"cancel_reservation"`,
		},
		{
			name: "the same format, stated by examples in the schema",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "export async function cancelReservation(input = {}, context = {}) {\n",
					"export async function cancelReservation(input = {}, context = {}) {\n  if (!/^r.\\w+$/.test(String(input.reservationId).trim())) throw new MissingInputError('reservationId');\n")
				replaceIn(t, dir, "mcp-tool/server.mjs", "reservationId: looseText('Identifier of the reservation to cancel, from list_my_reservations.'),",
					"reservationId: looseText('Identifier of the reservation to cancel, from list_my_reservations.').meta({ examples: ['r-1', 'r-2'] }),")
			},
		},
		{
			name: "a base URL read once at start-up",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "const url = serviceUrl(env, CATALOG_BASE_URL, 'varieties');", "const url = serviceUrl(context.env ?? STARTUP_ENV, CATALOG_BASE_URL, 'varieties');")
				replaceIn(t, dir, core, "/** The time limit of one request", "const STARTUP_ENV = { ...process.env };\n\n/** The time limit of one request")
			},
			want: []*diag.Rule{reach.RuleConfigAtLoad}, in: `"search_seed_varieties"`,
		},
		{
			name: "an input the Function uses but never sends",
			edit: func(t *testing.T, dir string) {
				addConfirm(t, dir, "")
			},
			want: []*diag.Rule{reach.RuleInputDropped}, in: `"confirmed"`,
		},
		{
			name: "the same input, documented as local",
			fast: true,
			edit: func(t *testing.T, dir string) {
				addConfirm(t, dir, ".meta({ 'x-code2skill-local': 'the member\\'s confirmation, checked before anything is sent' })")
			},
		},
		{
			name: "a public protocol's fixed endpoint at its literal address, declared and named",
			edit: func(t *testing.T, dir string) { publicSearch(t, dir, true) },
		},
		{
			name: "a public endpoint declared but not named in MCP-SETUP.md",
			edit: func(t *testing.T, dir string) { publicSearch(t, dir, false) },
			want: []*diag.Rule{RuleSetupPublicEndpoint}, in: publicRegistry,
		},
		{
			name: "an input mapped through a table, its values enumerated",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  const status = text(input.status);\n", "  const status = { active: 'open', collected: 'done', cancelled: 'void' }[text(input.status)];\n")
				replaceIn(t, dir, "mcp-tool/server.mjs", "status: looseText('Only reservations in this state: active, collected or cancelled. Optional; all when left out.'),",
					"status: z.enum(['active', 'collected', 'cancelled']).nullish().describe('Only reservations in this state. Optional; all when left out.'),")
				replaceIn(t, dir, "tests/reservations.test.mjs", "reservations?status=active'", "reservations?status=open'")
			},
		},
		{
			name: "an input mapped through a table that drops what it does not know",
			edit: func(t *testing.T, dir string) {
				replaceIn(t, dir, core, "  const status = text(input.status);\n", "  const status = { active: 'open', collected: 'done', cancelled: 'void' }[text(input.status)];\n")
				replaceIn(t, dir, "tests/reservations.test.mjs", "reservations?status=active'", "reservations?status=open'")
			},
			want: []*diag.Rule{reach.RuleInputDropped}, in: `"status"`,
		},
	}
}

// publicRegistry is a fictional public protocol's fixed endpoint.
const publicRegistry = "https://catalog.open-seed-registry.org/api"

// publicSearch makes search_seed_varieties call publicRegistry at its
// literal address, as the endpoint of a public protocol: package.json
// declares it, its tests follow, and, when named, MCP-SETUP.md says so.
func publicSearch(t *testing.T, dir string, named bool) {
	t.Helper()
	replaceIn(t, dir, core, "const url = serviceUrl(env, CATALOG_BASE_URL, 'varieties');", "const url = new URL('varieties', '"+publicRegistry+"/');")
	replaceIn(t, dir, "package.json", `"profile": "core-export-v1"`, `"profile": "core-export-v1", "publicEndpoints": ["`+publicRegistry+`"]`)
	for range 2 {
		replaceIn(t, dir, "tests/search.test.mjs", "https://catalog.seed-library.invalid/api/varieties", publicRegistry+"/varieties")
	}
	replaceIn(t, dir, "tests/search.test.mjs", "test('a missing base URL stops before any request'", "test.skip('a missing base URL stops before any request'")
	if named {
		b, err := os.ReadFile(filepath.Join(dir, "MCP-SETUP.md"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, "MCP-SETUP.md", string(b)+"\n## Public endpoints\n\nsearch_seed_varieties reads the open seed registry, a public protocol, at its fixed address "+publicRegistry+"; no variable configures it.\n")
	}
}

// addConfirm gives cancel_reservation a confirmed input the Function
// checks and does not send; meta is what its schema says of it.
func addConfirm(t *testing.T, dir, meta string) {
	t.Helper()
	replaceIn(t, dir, "mcp-tool/server.mjs", "reservationId: looseText('Identifier of the reservation to cancel, from list_my_reservations.'),",
		"reservationId: looseText('Identifier of the reservation to cancel, from list_my_reservations.'),\n        confirmed: z.boolean().nullish().describe('Whether the member confirmed the cancellation.')"+meta+",")
	replaceIn(t, dir, core, "export async function cancelReservation(input = {}, context = {}) {\n",
		"export async function cancelReservation(input = {}, context = {}) {\n  if (input.confirmed === false) throw new MissingInputError('confirmed');\n")
}
