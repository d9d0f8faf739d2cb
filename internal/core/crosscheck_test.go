package core

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

// serverFixture registers two Tools; functionFixture builds their
// requests. {{READ}} and {{DESTRUCTIVE}} are the reserve Tool's hints,
// {{METHOD}} the method its Function sends.
const serverFixture = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { findPlots, reservePlot } from '../function-core/index.mjs';

export function createServer(context = {}) {
  const server = new McpServer({ name: 'plots', version: '1.0.0' });
  server.registerTool('find_plots', {
    title: 'Find plots',
    description: 'Lists free plots. Read-only.',
    inputSchema: z.looseObject({ query: z.string().nullish(), plot_size: z.string().nullish() }),
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  }, async (input) => findPlots(input, context));
  server.registerTool('reserve_plot', {
    title: 'Reserve a plot',
    description: 'Reserves a plot.',
    inputSchema: z.looseObject({ plotId: z.string() }),
    annotations: { readOnlyHint: {{READ}}, destructiveHint: {{DESTRUCTIVE}}, idempotentHint: false, openWorldHint: true },
  }, async (input, extra) => reservePlot(input, { ...context, signal: extra.signal }));
  return server;
}
`

const functionFixture = `export async function findPlots(input, context) {
  return context.fetch('plots', { method: 'GET' });
}
export const reservePlot = async (input, context) => {
  const request = { method: '{{METHOD}}', body: JSON.stringify(input) };
  return context.fetch('reservations', request);
};
`

func fixture(read, destructive, method string) map[string]string {
	r := strings.NewReplacer("{{READ}}", read, "{{DESTRUCTIVE}}", destructive, "{{METHOD}}", method)
	return map[string]string{
		"mcp-tool/server.mjs":     r.Replace(serverFixture),
		"function-core/index.mjs": r.Replace(functionFixture),
	}
}

func TestAnnotationsAgainstCode(t *testing.T) {
	for _, tc := range []struct {
		name                      string
		read, destructive, method string
		want                      []*diag.Rule
		at                        string
	}{
		{"a write that says so", "false", "false", "POST", nil, ""},
		{"a read-only POST", "true", "false", "POST", []*diag.Rule{RuleAnnotationReadOnlyPost}, "mcp-tool/server.mjs:17:34"},
		{"a read-only write", "true", "false", "PATCH", []*diag.Rule{RuleAnnotationReadOnly}, "mcp-tool/server.mjs:17:34"},
		{"a non-destructive delete", "false", "false", "delete", []*diag.Rule{RuleAnnotationDestructive}, "mcp-tool/server.mjs:17:58"},
		{"a read-only non-destructive delete", "true", "false", "DELETE", []*diag.Rule{RuleAnnotationReadOnly, RuleAnnotationDestructive}, ""},
		{"a destructive delete", "false", "true", "DELETE", nil, ""},
		{"a read-only GET", "true", "false", "GET", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testChecker(t, fixture(tc.read, tc.destructive, tc.method))
			c.checkScripts()
			c.checkAnnotations()
			c.flushPost() // no reachability call settles the POST warning
			wantRules(t, c, tc.want...)
			ds := c.result.Diagnostics.Sorted()
			if tc.at != "" && (len(ds) != 1 || ds[0].Location() != tc.at || !strings.Contains(ds[0].Message, "function-core/index.mjs:5:")) {
				t.Errorf("findings %v, want one at %s naming the method's line", ds, tc.at)
			}
		})
	}
}

// helperFixture sends the reserve Tool's request through helpers: the
// method is a constant passed down, or chosen by a parameter the handler
// fixes.
const helperFixture = `const WRITE = 'DELETE';
function send(request, context) {
  const method = request.method ?? 'GET';
  return context.fetch(request.path, { method });
}
function followWrite(verb, path, context) { return send({ method: verb, path }, context); }
export async function findPlots(input, context) { return send({ path: 'plots' }, context); }
export const reservePlot = async (input, context) => followWrite(WRITE, 'reservations', context);
`

func TestAnnotationsThroughHelpers(t *testing.T) {
	for _, tc := range []struct {
		name        string
		server, fns string
		want        []*diag.Rule
	}{
		{"a constant passed to a helper", fixture("true", "false", "")["mcp-tool/server.mjs"], helperFixture,
			[]*diag.Rule{RuleAnnotationReadOnly, RuleAnnotationDestructive}},
		{"the same, annotated as a destructive write", fixture("false", "true", "")["mcp-tool/server.mjs"], helperFixture, nil},
		{"a method the handler fixes",
			strings.Replace(fixture("false", "false", "")["mcp-tool/server.mjs"], "reservePlot(input, { ...context, signal: extra.signal })",
				"followWrite('delete', 'reservations', context)", 1),
			strings.Replace(helperFixture, "function followWrite", "export function followWrite", 1),
			[]*diag.Rule{RuleAnnotationDestructive}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			server := strings.Replace(tc.server, "import { findPlots, reservePlot }", "import { findPlots, reservePlot, followWrite }", 1)
			c := testChecker(t, map[string]string{"mcp-tool/server.mjs": server, "function-core/index.mjs": tc.fns})
			c.checkScripts()
			c.checkAnnotations()
			wantRules(t, c, tc.want...)
			for _, d := range c.result.Diagnostics.Sorted() {
				if d.Severity != diag.Error || !strings.Contains(d.Message, "DELETE") || !strings.Contains(d.Message, "function-core/index.mjs:") && !strings.Contains(d.Message, "mcp-tool/server.mjs:") {
					t.Errorf("finding %v: want an error naming DELETE and where it is written", d)
				}
			}
		})
	}
}

const plotSkill = "---\nname: plots\ndescription: Finds and reserves plots.\n---\n# Plots\n\n" +
	"Call `find_plots` with `query` and `plot_size`, then call reserve_plot with the chosen `plotId`.\n\n" +
	"```json\n{ \"plot_id\": \"p-1\", \"free_from\": \"2026-04-01\" }\n```\n\n" +
	"Read `free_from` and `plot_id` from the body.\n"

func TestSkillsAgainstTools(t *testing.T) {
	for _, tc := range []struct {
		name  string
		skill string
		want  []*diag.Rule
		check func(t *testing.T, c *checker)
	}{
		{"every Tool named, every name a Tool", plotSkill, nil, nil},
		{"a renamed Tool", strings.Replace(plotSkill, "Call `find_plots`", "Call `search_plots`", 1),
			[]*diag.Rule{RuleSkillToolUnknown, RuleToolUnmentioned}, func(t *testing.T, c *checker) {
				for _, d := range c.result.Diagnostics.Sorted() {
					switch d.Rule {
					case RuleSkillToolUnknown.ID:
						if d.Location() != "SKILL.md:7:7" || !strings.Contains(d.Message, `"search_plots"`) {
							t.Errorf("unknown tool finding %v", d)
						}
					case RuleToolUnmentioned.ID:
						if d.Location() != "mcp-tool/server.mjs:7:23" || !strings.Contains(d.Message, `"find_plots"`) {
							t.Errorf("unmentioned tool finding %v", d)
						}
					}
				}
			}},
		{"a bare name in a call step", strings.Replace(plotSkill, "call reserve_plot", "call reserve_plots", 1),
			[]*diag.Rule{RuleSkillToolUnknown, RuleToolUnmentioned}, nil},
		{"a backticked name in a call step", strings.Replace(plotSkill, "Call `find_plots`", "Call `findPlots`", 1),
			[]*diag.Rule{RuleSkillToolUnknown, RuleToolUnmentioned}, nil},
		{"names in fenced code are not read", plotSkill + "\n```\ncall `other_tool`\n```\n", nil, nil},
		{"a response field in backticks is prose", plotSkill + "\nThe answer's `next_page` says whether more plots follow.\n", nil, nil},
		{"a Tool's heading", plotSkill + "\n### `find_plot`\n", []*diag.Rule{RuleSkillToolUnknown}, nil},
		{"a name called a tool", plotSkill + "\nThe `book_plot` tool reserves it.\n", []*diag.Rule{RuleSkillToolUnknown}, nil},
		{"a name called with arguments", plotSkill + "\nThen `book_plot({ plotId })`.\n", []*diag.Rule{RuleSkillToolUnknown}, nil},
		{"a call example's name", plotSkill + "\n```json\n{ \"name\": \"reserve_plots\", \"arguments\": {} }\n```\n", []*diag.Rule{RuleSkillToolUnknown}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := fixture("false", "false", "POST")
			files["SKILL.md"] = tc.skill
			c := newCheckerIn(t, "plots", files)
			c.checkSkills([]skillFile{{Path: "SKILL.md"}})
			c.checkScripts()
			c.checkSkillTools(nil)
			wantRules(t, c, tc.want...)
			if tc.check != nil {
				tc.check(t, c)
			}
		})
	}
}

func TestSkillsAgainstDynamicTools(t *testing.T) {
	files := fixture("false", "false", "POST")
	files["mcp-tool/server.mjs"] = strings.Replace(files["mcp-tool/server.mjs"], "server.registerTool('reserve_plot'", "server.registerTool(RESERVE", 1)
	files["SKILL.md"] = strings.Replace(plotSkill, "Call `find_plots`", "Call `search_plots`", 1)
	c := newCheckerIn(t, "plots", files)
	c.checkSkills([]skillFile{{Path: "SKILL.md"}})
	c.checkScripts()
	c.checkSkillTools(nil)
	// The tool set is not known from literals alone: no name can be called
	// unknown, but a literal Tool nobody names is still reported.
	wantRules(t, c, RuleToolUnmentioned)
}

func TestPlaceholders(t *testing.T) {
	const skill = "---\nname: plots\ndescription: d\n---\n<!--\nScaffolded by code2skill init. Rewrite this Skill.\n-->\nUse `find_plots` and `reserve_plot`.\n"
	files := fixture("false", "false", "POST")
	files["SKILL.md"] = skill
	files["MCP-SETUP.md"] = "# Setup\n\nThis package has no lockfile yet: run `npm install`.\n"
	files["mcp-tool/server.mjs"] = strings.Replace(files["mcp-tool/server.mjs"], "'Reserves a plot.'", "'Reserves a plot. Scaffolded by code2skill init as an illustrative request; ' + 'describe the real one here.'", 1)

	c := newCheckerIn(t, "plots", files)
	c.checkScripts()
	c.checkPlaceholders()
	want := []string{
		`CORE_PLACEHOLDER_TEXT SKILL.md:6:1: the scaffold's placeholder "scaffolded by code2skill init" is still here; rewrite the Skill from the goal's real call chain and remove the scaffold's notes`,
		`CORE_PLACEHOLDER_TEXT mcp-tool/server.mjs:15:18: the description of tool "reserve_plot" still holds the scaffold's placeholder "describe the real one here"; say what the Tool really does, when to call it and what it returns`,
	}
	if got := findings(c); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The lockfile sentence is a placeholder once the lockfile exists.
	files["package-lock.json"] = "{}"
	c = newCheckerIn(t, "plots", files)
	c.checkPlaceholders()
	if got := strings.Join(findings(c), "\n"); !strings.Contains(got, `MCP-SETUP.md:3:1: the scaffold's placeholder "this package has no lockfile yet"`) {
		t.Errorf("findings with a lockfile:\n%s", got)
	}
}
