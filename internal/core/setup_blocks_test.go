package core

import (
	"slices"
	"testing"
)

func TestParseSetupBlocks(t *testing.T) {
	d := parseSetup([]byte("# Install\r\nRun `npx skills add`.\r\n\r\n- Installs ONLY the Skill\n  and its references\n- The MCP server is registered separately\n \t\n```json\n{\"command\": \"node\"}\n```\n"))
	want := []string{
		"# install\nrun `npx skills add`.",
		"- installs only the skill\n  and its references",
		"the mcp server is registered separately",
		"```json\n{\"command\": \"node\"}\n```",
	}
	if !slices.Equal(d.blocks, want) {
		t.Errorf("blocks:\n got %q\nwant %q", d.blocks, want)
	}
	if !d.anyBlock(reOnly, reSkill) || !d.anyBlock(reMCP, reSeparate) {
		t.Error("the install scope is not found block by block")
	}
}
