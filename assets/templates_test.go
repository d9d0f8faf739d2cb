package assets

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/golden"
)

var setupCases = map[string]SetupData{
	"one-skill": {
		Package: "order-desk",
		Skills:  []string{"order-desk"},
		Tools:   []string{"order_desk"},
		Env: []SetupVar{{
			Name:     "CODE2SKILL_ORDER_DESK_API_BASE_URL",
			Purpose:  "Base URL of the API service, used by `order_desk`.",
			Required: true,
			Example:  "https://api.example.com/",
		}},
	},
	"two-skills-lockfile": {
		Package:  "order-desk",
		Skills:   []string{"find-orders", "track-shipment"},
		Tools:    []string{"find_orders", "track_shipment"},
		Lockfile: true,
		Env: []SetupVar{
			{Name: "CODE2SKILL_ORDER_DESK_API_BASE_URL", Purpose: "Base URL of the API service.", Required: true, Example: "https://api.example.com/"},
			{Name: "CODE2SKILL_DRY_RUN", Purpose: "Set to `1` to return requests instead of sending them.", Example: "0"},
		},
	},
	"no-env": {
		Package: "unit-converter",
		Skills:  []string{"unit-converter"},
		Tools:   []string{"convert_units"},
	},
}

func TestMCPSetup(t *testing.T) {
	for name, data := range setupCases {
		t.Run(name, func(t *testing.T) {
			got, err := MCPSetup(data)
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, filepath.Join("testdata", "MCP-SETUP."+name+".md"), got)
			text := string(got)
			for _, want := range []string{
				"npx skills add ./" + data.Package,
				"installs only the Skill",
				"registered separately",
				"npm ci", "npm install",
				"| command | `node` |", "| args | `mcp-tool/index.mjs` |", "| cwd |", "| env |",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("MCP-SETUP.md lacks %q", want)
				}
			}
			for _, v := range data.Env {
				if !strings.Contains(text, "`"+v.Name+"`") {
					t.Errorf("MCP-SETUP.md does not name %s", v.Name)
				}
			}
			if regexp.MustCompile(`<[a-z][a-z-]*>`).MatchString(text) {
				t.Errorf("MCP-SETUP.md holds a <placeholder>")
			}
			assertRegistrationJSON(t, text, data)
		})
	}
}

// assertRegistrationJSON checks that the registration example is valid JSON
// carrying the command, args, cwd and every variable.
func assertRegistrationJSON(t *testing.T, text string, data SetupData) {
	t.Helper()
	m := regexp.MustCompile("(?s)```json\n(.*?)```").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("no JSON registration example")
	}
	var reg struct {
		MCPServers map[string]struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Cwd     string            `json:"cwd"`
			Env     map[string]string `json:"env"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal([]byte(m[1]), &reg); err != nil {
		t.Fatalf("registration example is not JSON: %v\n%s", err, m[1])
	}
	s, ok := reg.MCPServers[data.Package]
	if !ok || s.Command != "node" || len(s.Args) != 1 || s.Args[0] != "mcp-tool/index.mjs" || s.Cwd == "" {
		t.Errorf("registration example = %+v", reg)
	}
	if len(s.Env) != len(data.Env) {
		t.Errorf("registration env has %d variables, want %d", len(s.Env), len(data.Env))
	}
}

func TestMCPSetupNeedsNames(t *testing.T) {
	for _, d := range []SetupData{{}, {Package: "p", Skills: []string{"p"}}, {Package: "p", Tools: []string{"t"}}} {
		if _, err := MCPSetup(d); err == nil {
			t.Errorf("MCPSetup(%+v) succeeded", d)
		}
	}
}

func TestFeatureContext(t *testing.T) {
	got, err := FeatureContext(FeatureContextData{
		Title: "Order desk",
		Goals: []string{"find orders", "track a shipment"},
		Tools: []string{"find_orders", "track_shipment"},
	})
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "feature-context.md"), got)
	for _, tool := range []string{"`find_orders`", "`track_shipment`"} {
		if !strings.Contains(string(got), tool) {
			t.Errorf("feature context does not name %s", tool)
		}
	}
	if _, err := FeatureContext(FeatureContextData{}); err == nil {
		t.Error("FeatureContext without a title succeeded")
	}
}
