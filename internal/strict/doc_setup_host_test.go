package strict

import (
	"io/fs"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/examples"
)

// hostSetup is the strict sample's MCP-SETUP.md, which registers the host
// runtime in the four common host forms, and the facts it is judged by.
func hostSetup(t *testing.T) (string, *facts) {
	t.Helper()
	data, err := fs.ReadFile(examples.StrictSample(), SetupFile)
	if err != nil {
		t.Fatal(err)
	}
	f := &facts{lang: chinese,
		dir:            examples.StrictSampleName,
		dryRunVariable: "LENDING_DESK_DRY_RUN",
		hostRuntime:    true,
		host:           []string{examples.StrictSampleBaseURLVariable, examples.StrictSampleTokenVariable},
	}
	return string(data), f
}

// TestSetupHostRegistrations: the sample's registrations pass, and each
// change a deployer could get wrong is reported by its rule.
func TestSetupHostRegistrations(t *testing.T) {
	text, f := hostSetup(t)
	if ds := checkSetupHost(parseDocument(SetupFile, []byte(text)), f); len(ds) > 0 {
		t.Fatalf("the sample's registrations: %v", ds)
	}
	regs, _ := registrations(parseDocument(SetupFile, []byte(text)))
	var forms []string
	for _, r := range regs {
		forms = append(forms, r.form)
		if !slices.Equal(r.env, []string{"LENDING_DESK_BASE_URL", "LENDING_DESK_TOKEN"}) {
			t.Errorf("%s: env %v", r.form, r.env)
		}
	}
	if diff := cmp.Diff(hostForms, forms); diff != "" {
		t.Errorf("registrations read (-want +got):\n%s", diff)
	}

	const runtime = "/absolute/path/to/equipment-lending/portable-host-runtime.mjs"
	for _, c := range []struct {
		name  string
		edits []edit
		want  []string
	}{
		{"the bare server instead of the runtime", []edit{{runtime, "mcp-tool/index.mjs"}}, []string{"STRICT_SETUP_REGISTRATION"}},
		{"a relative path", []edit{{`"args": ["/absolute/path/to/equipment-lending/portable-host-runtime.mjs"]`, `"args": ["portable-host-runtime.mjs"]`}}, []string{"STRICT_SETUP_REGISTRATION"}},
		{"another package's runtime", []edit{{`args = ["/absolute/path/to/equipment-lending/`, `args = ["/absolute/path/to/other/`}}, []string{"STRICT_SETUP_REGISTRATION"}},
		{"npx instead of node", []edit{{"-- node /absolute", "-- npx /absolute"}}, []string{"STRICT_SETUP_REGISTRATION"}},
		{"no Codex registration", []edit{{"[mcp_servers.equipment-lending-capabilities]", "[servers.equipment-lending-capabilities]"}}, []string{"STRICT_SETUP_REGISTRATION"}},
		{"a VS Code server that is not stdio", []edit{{`"type": "stdio"`, `"type": "http"`}}, []string{"STRICT_SETUP_REGISTRATION"}},
		{"a registration that is not JSON", []edit{{`"command": "node",`, `"command": "node"`}}, []string{"STRICT_SETUP_REGISTRATION"}},
		{"a variable the package never reads", []edit{{"--env LENDING_DESK_TOKEN=member-token", "--env LENDING_DESK_TOKEN=member-token --env LENDING_DESK_API_KEY=k"}}, []string{"STRICT_SETUP_ENV_UNKNOWN"}},
		{"a misspelt variable in the table", []edit{{"| `LENDING_DESK_TOKEN` |", "| `LENDING_DESK_TOKN` |"}}, []string{"STRICT_SETUP_ENV_MISSING", "STRICT_SETUP_ENV_UNKNOWN"}},
		{"a registration without the token", []edit{{"LENDING_DESK_TOKEN = \"member-token\"\n", ""}}, []string{"STRICT_SETUP_ENV_MISSING"}},
		{"no table of variables", []edit{{"| 变量 | 谁读取 |", "| 名称 | 谁读取 |"}}, []string{"STRICT_SETUP_ENV_MISSING"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := ruleIDs(checkSetupHost(parseDocument(SetupFile, []byte(apply(t, text, c.edits))), f))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSetupHostOnlyWithTheRuntime: a package without a host runtime is not
// asked for its registrations.
func TestSetupHostOnlyWithTheRuntime(t *testing.T) {
	text, f := hostSetup(t)
	text = apply(t, text, []edit{{"[mcp_servers.equipment-lending-capabilities]", "[servers.x]"}})
	if got := ruleIDs(checkSetup(parseDocument(SetupFile, []byte(text)), f)); !slices.Contains(got, "STRICT_SETUP_REGISTRATION") {
		t.Errorf("with the runtime: %v", got)
	}
	f.hostRuntime = false
	if got := ruleIDs(checkSetup(parseDocument(SetupFile, []byte(text)), f)); slices.Contains(got, "STRICT_SETUP_REGISTRATION") {
		t.Errorf("without the runtime: %v", got)
	}
}
