package skillinstall

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// An Agent is a coding agent and the directories where it discovers skills.
type Agent struct {
	ID   string // what --agent takes, as the skills CLI names it where it can
	Name string
	// Project is the skills directory relative to a project's root, Global
	// the one relative to the user's home directory. Both slash-separated.
	Project, Global string
}

// Agents lists the agents code2skill installs for. Several agents read the
// shared .agents/skills directory; "agents" names it for any agent that
// does.
var Agents = []Agent{
	{ID: "claude-code", Name: "Claude Code", Project: ".claude/skills", Global: ".claude/skills"},
	{ID: "codex", Name: "Codex", Project: ".agents/skills", Global: ".agents/skills"},
	{ID: "cursor", Name: "Cursor", Project: ".cursor/skills", Global: ".cursor/skills"},
	{ID: "agents", Name: "any agent reading .agents/skills", Project: ".agents/skills", Global: ".agents/skills"},
}

// Lookup returns the agent with the given ID.
func Lookup(id string) (Agent, error) {
	i := slices.IndexFunc(Agents, func(a Agent) bool { return a.ID == id })
	if i < 0 {
		return Agent{}, fmt.Errorf("unknown agent %q; known agents: %s", id, AgentIDs())
	}
	return Agents[i], nil
}

// AgentIDs returns the known agent IDs, comma-separated, for messages.
func AgentIDs() string {
	ids := make([]string, len(Agents))
	for i, a := range Agents {
		ids[i] = a.ID
	}
	return strings.Join(ids, ", ")
}

// Scope says whether a skills directory belongs to a project or to the user.
type Scope string

const (
	Project Scope = "project"
	Global  Scope = "global"
)

// Dir returns the agent's skills directory for a scope: under root, which
// is the project's root for Project and the home directory for Global.
func (a Agent) Dir(scope Scope, root string) string {
	rel := a.Project
	if scope == Global {
		rel = a.Global
	}
	return filepath.Join(root, filepath.FromSlash(rel))
}
