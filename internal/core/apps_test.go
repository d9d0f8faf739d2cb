package core

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/reach"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
)

// Application packages: two packages of the shapes real applications
// give, written as the Producer Skill teaches (testdata/corpus):
//
//   - field-notes, over a notes service whose writes pre-check what the
//     web client checks (a comment is edited or deleted only by its
//     author, nobody follows themselves) by reading the signed-in user and
//     the comment first, whose answers are { data, pagination } envelopes
//     paged by an after cursor the schemas give an example of, and which a
//     host-injected token authenticates;
//   - tasks-board, over a Flask-style API that logs the configured user in
//     with e-mail and password and answers with a short-lived bearer
//     token, reads searches through POST, answers 422, 409 and 204.
//
// Each passes validate unmodified (and the offline probe, see
// probe_apps.txtar), and each mistake agents make is planted in a copy of
// its own, which validate must fail with an error the unmodified package
// does not have.

// appPackage copies an application package to a temporary directory, lets
// edit change it, and installs the pinned npm packages into it.
func appPackage(t testing.TB, app string, edit func(dir string)) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), app)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "corpus", app))); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(dir)
	}
	testnode.LinkDependencies(t, dir)
	return dir
}

const (
	notesCore   = "function-core/index.mjs"
	notesServer = "mcp-tool/server.mjs"
)

// appMistake is a mistake planted in an application package.
type appMistake struct {
	app, name string
	edit      func(t *testing.T, dir string)
	// want is the rule that must report it; in must be in its message.
	want *diag.Rule
	in   string
	// fast keeps it in the default tier, the rest run in the slow one:
	// one failing fixture per rule no other fast test fails (an input
	// dropped is the bundled example's, see TestPlantedMistakes).
	fast bool
	// pass marks a variant a careful Producer writes: it must pass with
	// no finding at all.
	pass bool
	// opts are the validation's options; a limit it leaves unset is what
	// the test's deadline leaves.
	opts Options
}

var appMistakes = []appMistake{
	{
		app: "field-notes", name: "an input dropped behind a pre-check",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "const write = { method: 'POST', path: `profiles/${username}/follow` };", "const write = { method: 'POST', path: 'profiles/me/follow' };")
		},
		want: reach.RuleInputDropped, in: `"username"`,
	},
	{
		app: "field-notes", name: "the after cursor dropped, its schema giving an example",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "tag: optionalText(input.tag), after: optionalText(input.after), limit", "tag: optionalText(input.tag), limit")
		},
		want: reach.RuleInputDropped, in: `"after"`,
	},
	{
		app: "field-notes", name: "readOnlyHint on a POST that creates",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesServer, "annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },\n    },\n    async (input, extra) => call(addComment",
				"annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },\n    },\n    async (input, extra) => call(addComment")
		},
		want: RuleAnnotationReadOnlyCreates, in: `"add_comment"`,
	},
	{
		app: "field-notes", name: "MCP-SETUP.md not naming the base URL variable", fast: true,
		edit: func(t *testing.T, dir string) {
			for range 2 {
				replaceIn(t, dir, setupFile, "CODE2SKILL_FIELD_NOTES_NOTES_BASE_URL", "NOTES_URL")
			}
		},
		// A finding of the structure stage: nothing needs to run.
		opts: Options{SkipTests: true},
		want: RuleSetupBaseURL, in: "CODE2SKILL_FIELD_NOTES_NOTES_BASE_URL",
	},
	{
		app: "field-notes", name: "the base URL taken from a Tool input named site",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesServer, "inputSchema: z.looseObject({ after, limit:", "inputSchema: z.looseObject({ site: loose('The notes site.'), after, limit:")
			replaceIn(t, dir, notesCore, "return send({ method: 'GET', path: 'notes/feed', query: { after: optionalText(input.after), limit: optionalText(input.limit) } }, context);",
				"return send({ method: 'GET', path: 'notes/feed', query: { after: optionalText(input.after), limit: optionalText(input.limit) } }, { ...context, env: { ...(context.env ?? process.env), [NOTES_BASE_URL]: input.site } });")
		},
		want: RuleToolInputAddress, in: `"site"`,
	},
	{
		app: "field-notes", name: "a test that never awaits the write's answer", fast: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, "tests/comments.test.mjs", "  const result = await addComment({ slug: 'spring-lichens', body: ' Lovely photos ' }, contextWith(fetch));",
				"  addComment({ slug: 'spring-lichens', body: ' Lovely photos ' }, contextWith(fetch));")
			replaceIn(t, dir, "tests/comments.test.mjs", "  assert.deepEqual(result, { httpStatus: 201, bodyText: '{\"data\":{\"id\":9}}' });\n", "")
		},
		want: RuleTestsResultDropped, in: `tool "add_comment"`,
	},
	{
		app: "field-notes", name: "a 409 rewritten as success", fast: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "  const response = await fetch(url, { method, headers, body, signal });\n",
				"  const response = await fetch(url, { method, headers, body, signal });\n  if (response.status === 409) return { httpStatus: 200, bodyText: '{\"data\":null}' };\n")
		},
		want: reach.RuleStatusNotPassed, in: "answered 409",
	},
	{
		app: "field-notes", name: "the token put into the error of a failed request",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "  const response = await fetch(url, { method, headers, body, signal });\n",
				"  const response = await fetch(url, { method, headers, body, signal }).catch((error) => {\n    throw new Error(`${method} ${url.href} with ${headers[AUTH_HEADER]} failed`, { cause: error });\n  });\n")
		},
		want: reach.RuleCredentialInResult, in: "failed-request",
	},
	{
		app: "field-notes", name: "a Skill calling a Tool that does not exist",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, "skills/discuss-notes/SKILL.md", "call `add_comment` with", "call `add_coment` with")
		},
		want: RuleSkillToolUnknown, in: `"add_coment"`,
	},
	{
		app: "field-notes", name: "a 204 read as JSON",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "  return (await ownComment(path, context)) ?? send(write, context);\n}\n\n/** Follows",
				"  const refused = await ownComment(path, context);\n  if (refused) return refused;\n  const result = await send(write, context);\n  return { ...result, deleted: JSON.parse(result.bodyText) };\n}\n\n/** Follows")
		},
		want: reach.RuleStatusNotPassed, in: "204 without a body",
	},
	{
		app: "field-notes", name: "a pre-check read sent under the dry-run variable",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "  const write = { method: 'DELETE', path };\n  if (isDryRun(context)) {\n    return send({ ...write, checksNotRun: [\"the comment is the user's own\"] }, context);\n  }\n  return (await ownComment(path, context)) ?? send(write, context);",
				"  const write = { method: 'DELETE', path };\n  return (await ownComment(path, context)) ?? send(write, context);")
		},
		want: reach.RuleDryRunSent, in: "not even the reads that pre-check",
	},
	{
		app: "field-notes", name: "a pre-check no answer passes", fast: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "if (optionalText(data(read)?.author?.username) !== me.username) {", "if (data(read)?.author?.id !== 4242) {")
		},
		want: reach.RulePrecheckRefused, in: "raised at function-core/index.mjs:",
	},
	{
		app: "field-notes", name: "a pre-read that never returns",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "  const username = optionalText(data(read)?.username);\n", "  await new Promise(() => {});\n  const username = optionalText(data(read)?.username);\n")
		},
		want: reach.RuleCallTimeout, in: `"edit_comment"`,
	},
	{
		app: "field-notes", name: "a read-only Tool that pre-checks through a read", pass: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "export async function listComments(input = {}, context = {}) {\n",
				"export async function listComments(input = {}, context = {}) {\n  const note = await send({ method: 'GET', path: `notes/${pathSegment(input.slug, 'slug')}` }, context);\n"+
					"  if (note.httpStatus !== 200) return note;\n  if (!data(note)?.slug) throw new PrecheckError('the service did not return the note');\n")
			replaceIn(t, dir, "tests/notes.test.mjs", "test('list_comments reads one note\\'s comments, page by page', async () => {\n  const { fetch, requests } = recordingFetch(200, page);",
				"test('list_comments reads one note\\'s comments, page by page', async () => {\n  const { fetch, requests } = routedFetch({ 'GET notes/spring%20lichens': [200, '{\"data\":{\"slug\":\"spring lichens\"}}'], 'GET notes/spring%20lichens/comments': [200, page] });")
			replaceIn(t, dir, "tests/notes.test.mjs", "  assert.deepEqual(requests.map((r) => r.url), ['https://notes.invalid/api/notes/spring%20lichens/comments?after=eyJpZCI6MTB9']);",
				"  assert.deepEqual(requests.map((r) => r.url), ['https://notes.invalid/api/notes/spring%20lichens', 'https://notes.invalid/api/notes/spring%20lichens/comments?after=eyJpZCI6MTB9']);")
			replaceIn(t, dir, "tests/notes.test.mjs", "import { contextWith, env, forbiddenFetch, recordingFetch, unreachableFetch } from './helpers.mjs';",
				"import { contextWith, env, forbiddenFetch, recordingFetch, routedFetch, unreachableFetch } from './helpers.mjs';")
		},
	},
	{
		app: "tasks-board", name: "readOnlyHint on the POST that creates a task", fast: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesServer, "annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },\n    },\n    async (input, extra) => call(createTask",
				"annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true },\n    },\n    async (input, extra) => call(createTask")
		},
		want: RuleAnnotationReadOnlyCreates, in: `"create_task"`,
	},
	{
		app: "tasks-board", name: "the login's token in the error of a failed request",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "return fetch(url, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body, signal });",
				"return fetch(url, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body, signal }).catch((error) => {\n      throw new Error(`request with token ${token} failed`, { cause: error });\n    });")
		},
		want: reach.RuleCredentialInResult, in: "failed-request",
	},
	{
		app: "tasks-board", name: "a 401 turned into an error, as the browser's login redirect",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "  let response = await attempt(false);\n", "  let response = await attempt(false);\n  if (response.status === 401) throw new Error('the session expired: sign in again');\n")
		},
		want: reach.RuleStatusNotPassed, in: "answered 401",
	},
	{
		app: "tasks-board", name: "an enum input dropped",
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "  if (status !== undefined) changes.status = status;\n", "")
		},
		want: reach.RuleInputDropped, in: `"status"`,
	},
	{
		app: "tasks-board", name: "a Function that logs in again on every 401", fast: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "  if (response.status === 401) {\n", "  while (response.status === 401) {\n")
		},
		// The package's own test of a refused token loops as well: it is
		// stopped, and reported, rather than left to the test's deadline.
		opts: Options{TestTimeout: testtier.Scaled(5 * time.Second)},
		want: reach.RuleRequestLoop, in: `"list_projects"`,
	},
	{
		app: "tasks-board", name: "a failed request passed off as an answer", fast: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "return fetch(url, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body, signal });",
				"return fetch(url, { method, headers: { ...headers, authorization: `Bearer ${token}` }, body, signal }).catch(() => new Response('{\"error\":\"unavailable\"}', { status: 503 }));")
		},
		want: reach.RuleFailureHidden, in: `"list_projects"`,
	},
	{
		app: "tasks-board", name: "a search that sends different requests on every call", fast: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesCore, "return send({ method: 'POST', path: 'tasks/search',", "return send({ method: 'POST', path: `tasks/search/${Date.now() % 7}${Math.floor(Math.random() * 1e6)}`,")
		},
		want: reach.RuleUnstable, in: `"search_tasks"`,
	},
	{
		app: "tasks-board", name: "an enum of one value", fast: true,
		edit: func(t *testing.T, dir string) {
			replaceIn(t, dir, notesServer, "status: z.enum(STATUS).nullish().describe('Only tasks in this state. Optional.'),", "status: z.enum(['todo']).nullish().describe('Only tasks in this state. Optional.'),")
		},
		want: reach.RuleInputUnchecked, in: `"status"`,
	},
}

// TestAppsPass validates the unmodified application packages: no finding
// at all, every input checked.
func TestAppsPass(t *testing.T) {
	for _, app := range []string{"field-notes", "tasks-board"} {
		t.Run(app, func(t *testing.T) {
			t.Parallel()
			res := validate(t, appPackage(t, app, nil), Options{})
			if res.Diagnostics.Len() != 0 {
				t.Fatalf("findings:\n%s", dump(res))
			}
			if res.Reach == nil || res.Reach.InputsUnchecked != 0 || res.Reach.InputsChecked == 0 {
				t.Errorf("reach = %+v", res.Reach)
			}
		})
	}
}

// TestAppMistakes validates one planted mistake per rule it guards.
func TestAppMistakes(t *testing.T) { runAppMistakes(t, true) }

// TestSlowAppMistakes validates every other planted mistake.
func TestSlowAppMistakes(t *testing.T) {
	testtier.Slow(t)
	runAppMistakes(t, false)
}

func runAppMistakes(t *testing.T, fast bool) {
	for _, m := range appMistakes {
		if m.fast != fast {
			continue
		}
		t.Run(m.app+"/"+m.name, func(t *testing.T) {
			t.Parallel()
			res := validate(t, appPackage(t, m.app, func(dir string) { m.edit(t, dir) }), m.opts)
			if m.pass {
				if res.Diagnostics.Len() != 0 {
					t.Fatalf("findings:\n%s", dump(res))
				}
				return
			}
			if !slices.ContainsFunc(res.Diagnostics.Sorted(), func(d diag.Diagnostic) bool {
				return d.Rule == m.want.ID && strings.Contains(d.Message+d.Detail, m.in)
			}) {
				t.Fatalf("no %s finding says %s:\n%s", m.want.ID, m.in, dump(res))
			}
			// The unmodified package has no finding, so any error is new;
			// a warning rule must come with its reason.
			if m.want.Severity == diag.Error && !res.Diagnostics.HasErrors() {
				t.Errorf("no error reported")
			}
			for _, bad := range []*diag.Rule{reach.RuleServerEnded, reach.RuleNotChecked} {
				if res.Diagnostics.Has(bad) {
					t.Errorf("%s: the other Tools' checks stopped:\n%s", bad.ID, dump(res))
				}
			}
		})
	}
}

// TestAppSkillsAgreeWithSkillsRef runs the Agent Skills reference
// validator (skills-ref, pinned in package.json) on the application
// packages' Skills, as they are and with one renamed away from its
// folder: where it accepts a Skill, validate's structure stage finds no
// error in it; where it rejects one, so does validate.
func TestAppSkillsAgreeWithSkillsRef(t *testing.T) {
	testnode.Node(t)
	validator := testnode.Bin(t, "skills-ref")
	for _, tc := range []struct {
		app, skill string
		edit       func(t *testing.T, dir string)
		accepted   bool
	}{
		{"field-notes", "skills/discuss-notes", nil, true},
		{"field-notes", "skills/read-notes", nil, true},
		{"tasks-board", ".", nil, true},
		{"field-notes", "skills/follow-authors", func(t *testing.T, dir string) {
			replaceIn(t, dir, "skills/follow-authors/SKILL.md", "name: follow-authors", "name: follow-writers")
		}, false},
	} {
		t.Run(tc.app+"/"+tc.skill, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tc.app)
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "corpus", tc.app))); err != nil {
				t.Fatal(err)
			}
			if tc.edit != nil {
				tc.edit(t, dir)
			}
			res, err := sandbox.Run(context.Background(), []string{validator, "validate", filepath.Join(dir, tc.skill)}, sandbox.Options{Dir: dir, Binds: testnode.Binds(t)})
			if err != nil {
				t.Fatal(err)
			}
			if (res.ExitCode == 0) != tc.accepted {
				t.Errorf("skills-ref validate: exit %d, want accepted=%v:\n%s%s", res.ExitCode, tc.accepted, res.Stdout, res.Stderr)
			}
			ours := validate(t, dir, Options{SkipTests: true})
			skillFile := path.Join(tc.skill, "SKILL.md")
			rejected := slices.ContainsFunc(ours.Diagnostics.Sorted(), func(d diag.Diagnostic) bool { return d.Severity == diag.Error && d.File == skillFile })
			if rejected == tc.accepted {
				t.Errorf("validate rejects %s: %v, skills-ref accepts it: %v\n%s", skillFile, rejected, tc.accepted, dump(ours))
			}
		})
	}
}
