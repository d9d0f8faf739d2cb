package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/code2skill/code2skill"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/skillinstall"
)

func skillsCmd() *command {
	var agents strings.Builder
	for _, a := range skillinstall.Agents {
		fmt.Fprintf(&agents, "  %-12s %-16s ~/%-16s %s\n", a.ID, a.Project, a.Global, a.Name)
	}
	exits := `Exit codes:
  0  done
  2  usage error (bad flags, an unknown agent)
  3  the Skills could not be written or read
`
	c := &command{
		name:    "skills",
		summary: "install, export or list the Producer Skills",
		about: `The Producer Skills teach a coding agent to turn a feature of an application
into an agent package (code2skill-generate) and to review one
(code2skill-review-flow, code2skill-review-source). They ship inside this
binary.

Agents and their skills directories (project, global):
` + strings.TrimRight(agents.String(), "\n"),
		exits: exits,
	}
	c.subs = []*command{
		{
			name:    "skills install",
			summary: "install the Producer Skills where an agent discovers skills",
			about: `Writes the Producer Skills where an agent discovers skills: in the current
project's directory, or with --global in the user's home; --dir names the
skills directory yourself. Each Skill is replaced as a whole and
atomically, so reinstalling upgrades it and removes files an older version
had; other skills in the directory are left alone. "code2skill help skills"
lists the agents.`,
			exits: exits,
		},
		{
			name:    "skills export",
			summary: "write the Producer Skills into a folder npx skills add installs",
			args:    "DIR",
			about: `Writes the Producer Skills into DIR as a folder that "npx skills add DIR"
installs, each Skill replaced as a whole and atomically.`,
			exits: exits,
		},
		{
			name:    "skills list",
			summary: "show where the Producer Skills are installed, and whether they are current",
			about: `Shows, for every agent directory of the current project and of the home
directory where a Producer Skill is present, whether it is the version this
binary carries (current) or another one (differs).`,
			exits: exits,
		},
	}
	c.subs[0].run = func(ctx context.Context, stdio *Stdio, args []string) int {
		return skillsInstall(c.subs[0], stdio, args)
	}
	c.subs[1].run = func(ctx context.Context, stdio *Stdio, args []string) int {
		return skillsExport(c.subs[1], stdio, args)
	}
	c.subs[2].run = func(ctx context.Context, stdio *Stdio, args []string) int { return skillsList(c.subs[2], stdio, args) }
	return c
}

// skillsTarget is one skills directory to install into.
type skillsTarget struct {
	dir    string // where to write
	shown  string // how to name it to the user
	agents []string
	scope  skillinstall.Scope
}

func skillsInstall(c *command, stdio *Stdio, args []string) int {
	fs := newFlagSet(c)
	var agentIDs stringsFlag
	fs.Var(&agentIDs, "agent", "install for the agent `ID` (code2skill help skills lists them); repeat for several")
	global := fs.Bool("global", false, "install into the home directory instead of the project")
	dir := fs.String("dir", "", "install into the skills directory `DIR`")
	pos, code, ok := parseOrExit(fs, c, stdio, args)
	if !ok {
		return code
	}
	switch {
	case len(pos) > 0:
		return usageError(stdio, c, "takes no arguments, got %q", pos)
	case *dir != "" && (len(agentIDs) > 0 || *global):
		return usageError(stdio, c, "--dir names the directory itself; do not combine it with --agent or --global")
	case *dir == "" && len(agentIDs) == 0:
		return usageError(stdio, c, "say where to install: --agent ID (with --global for the home directory) or --dir DIR")
	}
	var targets []skillsTarget
	if *dir != "" {
		targets = append(targets, skillsTarget{dir: *dir, shown: *dir})
	}
	scope, root, shownRoot := skillinstall.Project, ".", ""
	if *global {
		home, err := os.UserHomeDir()
		if err != nil {
			fmt.Fprintf(stdio.Err, "code2skill skills: %v\n", err)
			return ExitFailure
		}
		scope, root, shownRoot = skillinstall.Global, home, "~/"
	}
	for _, id := range agentIDs {
		a, err := skillinstall.Lookup(id)
		if err != nil {
			return usageError(stdio, c, "%v", err)
		}
		d := a.Dir(scope, root)
		rel, _ := filepath.Rel(root, d)
		// Agents sharing a directory get one install.
		if i := slices.IndexFunc(targets, func(t skillsTarget) bool { return t.dir == d }); i >= 0 {
			targets[i].agents = append(targets[i].agents, id)
			continue
		}
		targets = append(targets, skillsTarget{dir: d, shown: shownRoot + filepath.ToSlash(rel), agents: []string{id}, scope: scope})
	}
	return installSkills(stdio, "installed", targets)
}

func skillsExport(c *command, stdio *Stdio, args []string) int {
	fs := newFlagSet(c)
	pos, code, ok := parseOrExit(fs, c, stdio, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		return usageError(stdio, c, "want exactly one directory, got %d arguments", len(pos))
	}
	if code := installSkills(stdio, "exported", []skillsTarget{{dir: pos[0], shown: pos[0]}}); code != ExitPassed {
		return code
	}
	// "npx skills add" reads a bare name as a GitHub repository; a local
	// folder needs a path.
	src := filepath.ToSlash(pos[0])
	if !filepath.IsAbs(pos[0]) && !strings.HasPrefix(src, "./") && !strings.HasPrefix(src, "../") {
		src = "./" + src
	}
	fmt.Fprintf(stdio.Out, "install them with: npx skills add %s --agent claude-code --yes\n", src)
	return ExitPassed
}

func installSkills(stdio *Stdio, verb string, targets []skillsTarget) int {
	skills, err := skillinstall.Read(code2skill.Skills())
	if err != nil {
		fmt.Fprintf(stdio.Err, "code2skill skills: reading the embedded Skills: %v\n", err)
		return ExitFailure
	}
	names := make([]string, len(skills))
	for i, s := range skills {
		names[i] = s.Name
	}
	for _, t := range targets {
		if err := skillinstall.Install(t.dir, skills); err != nil {
			fmt.Fprintf(stdio.Err, "code2skill skills: %s: %v\n", t.shown, err)
			return ExitFailure
		}
		note := ""
		if len(t.agents) > 0 {
			note = fmt.Sprintf(" (%s, %s)", strings.Join(t.agents, ", "), t.scope)
		}
		fmt.Fprintf(stdio.Out, "%s %s into %s%s\n", verb, strings.Join(names, ", "), t.shown, note)
	}
	return ExitPassed
}

func skillsList(c *command, stdio *Stdio, args []string) int {
	fs := newFlagSet(c)
	format := addFormatFlag(fs)
	pos, code, ok := parseOrExit(fs, c, stdio, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		return usageError(stdio, c, "takes no arguments, got %q", pos)
	}
	skills, err := skillinstall.Read(code2skill.Skills())
	if err != nil {
		fmt.Fprintf(stdio.Err, "code2skill skills: reading the embedded Skills: %v\n", err)
		return ExitFailure
	}
	home, err := os.UserHomeDir()
	if err != nil {
		fmt.Fprintf(stdio.Err, "code2skill skills: %v\n", err)
		return ExitFailure
	}
	locs, err := skillinstall.List(skills, ".", home)
	if err != nil {
		fmt.Fprintf(stdio.Err, "code2skill skills: %v\n", err)
		return ExitFailure
	}
	shown := func(l skillinstall.Location) string {
		if l.Scope == skillinstall.Global {
			rel, _ := filepath.Rel(home, l.Dir)
			return "~/" + filepath.ToSlash(rel)
		}
		return filepath.ToSlash(l.Dir)
	}
	if *format == formatJSON {
		type jsonSkill struct {
			Name   string              `json:"name"`
			Status skillinstall.Status `json:"status"`
		}
		type jsonLocation struct {
			Dir    string      `json:"dir"`
			Scope  string      `json:"scope"`
			Agents []string    `json:"agents"`
			Skills []jsonSkill `json:"skills"`
		}
		out := struct {
			SchemaVersion int            `json:"schemaVersion"`
			Locations     []jsonLocation `json:"locations"`
		}{SchemaVersion: diag.SchemaVersion, Locations: []jsonLocation{}}
		for _, l := range locs {
			jl := jsonLocation{Dir: shown(l), Scope: string(l.Scope), Agents: l.Agents, Skills: []jsonSkill{}}
			for _, s := range l.Skills {
				jl.Skills = append(jl.Skills, jsonSkill{s.Name, s.Status})
			}
			out.Locations = append(out.Locations, jl)
		}
		return printJSON(stdio, "skills", out)
	}
	tw := tabwriter.NewWriter(stdio.Out, 0, 4, 2, ' ', 0)
	found := false
	for _, l := range locs {
		if !l.Any() {
			continue
		}
		found = true
		for _, s := range l.Skills {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", shown(l), l.Scope, strings.Join(l.Agents, ","), s.Name, s.Status)
		}
	}
	tw.Flush()
	if !found {
		fmt.Fprintln(stdio.Out, "no Producer Skill is installed for this project or user; install them with: code2skill skills install --agent ID")
	}
	return ExitPassed
}
