package strict

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
)

// The registrations of MCP-SETUP.md in a package that carries the host
// runtime: a standard MCP stdio host starts it as "node <absolute path to
// the package>/portable-host-runtime.mjs", with the environment the runtime
// reads, and the document shows that in the four forms common hosts read.
var (
	RuleSetupRegistration = diag.Register("STRICT_SETUP_REGISTRATION", diag.Error, "MCP-SETUP.md lacks the registration of a common host (claude mcp add, mcpServers JSON, VS Code servers JSON, Codex TOML), or one does not start node with the absolute path of the package's portable-host-runtime.mjs")
	RuleSetupEnvUnknown   = diag.Register("STRICT_SETUP_ENV_UNKNOWN", diag.Error, "MCP-SETUP.md names, in a registration or its table of environment variables, a variable the package never reads")
	RuleSetupEnvMissing   = diag.Register("STRICT_SETUP_ENV_MISSING", diag.Error, "a variable the host runtime reads is missing from a registration's env or from MCP-SETUP.md's table of environment variables")
)

// Host forms a registration is written in.
const (
	formClaudeCode = "Claude Code (claude mcp add)"
	formServers    = "mcpServers JSON (Cursor, Claude Desktop, .mcp.json)"
	formVSCode     = "VS Code servers JSON (type stdio)"
	formCodex      = "Codex TOML ([mcp_servers.<name>])"
)

var hostForms = []string{formClaudeCode, formServers, formVSCode, formCodex}

// registration is one host's registration of the server, as the document
// writes it.
type registration struct {
	form    string
	line    int // 1-based
	command string
	args    []string
	env     []string // the variable names, in document order
}

// checkSetupHost checks the registrations and the environment variables
// MCP-SETUP.md gives for the host runtime. The runtime reads f.host
// (base URLs, credentials, subject); f.dryRunVariable is the adapter's.
func checkSetupHost(d *document, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	regs, problems := registrations(d)
	out = append(out, problems...)
	known := append(slices.Clone(f.host), f.dryRunVariable)
	for _, form := range hostForms {
		if !slices.ContainsFunc(regs, func(r registration) bool { return r.form == form }) {
			out = append(out, RuleSetupRegistration.New(d.file, "gives no registration for %s", form))
		}
	}
	for _, r := range regs {
		if why := startsRuntime(r, f.dir); why != "" {
			out = append(out, RuleSetupRegistration.New(d.file, "the %s registration %s; a host starts node %s",
				r.form, why, "/absolute/path/to/"+f.dir+"/"+hostruntime.RuntimeFile).At(r.line, 0))
		}
		for _, name := range r.env {
			if !slices.Contains(known, name) {
				out = append(out, RuleSetupEnvUnknown.New(d.file, "the %s registration sets %s, which the package never reads; it reads %s",
					r.form, name, strings.Join(known, ", ")).At(r.line, 0))
			}
		}
		for _, name := range f.host {
			if !slices.Contains(r.env, name) {
				out = append(out, RuleSetupEnvMissing.New(d.file, "the %s registration does not set %s, which the host runtime reads", r.form, name).At(r.line, 0))
			}
		}
	}
	table, line := variableTable(d)
	if line == 0 {
		out = append(out, RuleSetupEnvMissing.New(d.file, "has no table of environment variables (a table whose first column is headed 变量 or variable)"))
		return out
	}
	for _, v := range table {
		if !slices.Contains(known, v.name) {
			out = append(out, RuleSetupEnvUnknown.New(d.file, "the table of environment variables names %s, which the package never reads; it reads %s",
				v.name, strings.Join(known, ", ")).At(v.line, 0))
		}
	}
	for _, name := range f.host {
		if !slices.ContainsFunc(table, func(v namedVariable) bool { return v.name == name }) {
			out = append(out, RuleSetupEnvMissing.New(d.file, "the table of environment variables does not name %s, which the host runtime reads", name).At(line, 0))
		}
	}
	return out
}

// absolutePath is a path a host's configuration can use whatever its
// working directory: POSIX or a Windows drive.
var absolutePath = regexp.MustCompile(`^(?:/|[A-Za-z]:[\\/])`)

// startsRuntime says why a registration does not start the package's host
// runtime, or "" when it does.
func startsRuntime(r registration, dir string) string {
	switch {
	case r.command != "node":
		return fmt.Sprintf("runs %q, not node", r.command)
	case len(r.args) != 1:
		return fmt.Sprintf("passes %d arguments", len(r.args))
	}
	arg := strings.ReplaceAll(r.args[0], `\`, "/")
	switch {
	case !absolutePath.MatchString(r.args[0]):
		return fmt.Sprintf("starts %q, not an absolute path (not every host honours a working directory)", r.args[0])
	case path.Base(arg) != hostruntime.RuntimeFile || path.Base(path.Dir(arg)) != dir:
		return fmt.Sprintf("starts %q, not the package's %s", r.args[0], hostruntime.RuntimeFile)
	}
	return ""
}

// registrations reads every registration the document's code blocks hold:
// claude mcp add lines, JSON with mcpServers or servers, and TOML
// [mcp_servers.<name>] tables. A block that cannot be read is a finding.
func registrations(d *document) ([]registration, []diag.Diagnostic) {
	var regs []registration
	var out []diag.Diagnostic
	for _, b := range d.CodeBlocks() {
		switch lang := strings.ToLower(b.Info); {
		case lang == "json" || lang == "jsonc":
			text := strings.Join(b.Lines, "\n")
			if !strings.Contains(text, `"mcpServers"`) && !strings.Contains(text, `"servers"`) {
				continue
			}
			rs, err := jsonRegistrations(text, lineOf(b.Start))
			if err != nil {
				out = append(out, RuleSetupRegistration.New(d.file, "the registration block is not JSON: %v", err).At(lineOf(b.Start), 0))
			}
			regs = append(regs, rs...)
		case lang == "toml":
			regs = append(regs, tomlRegistrations(b.Lines, b.Start)...)
		default:
			for k, line := range b.Lines {
				if r, ok := claudeRegistration(line, lineOf(b.Start+k)); ok {
					regs = append(regs, r)
				}
			}
		}
	}
	return regs, out
}

// claudeRegistration reads "claude mcp add <name> [flags] -- <command>
// <args>…", with --env/-e KEY=VALUE flags.
func claudeRegistration(line string, at int) (registration, bool) {
	_, rest, ok := strings.Cut(line, "claude mcp add")
	if !ok {
		return registration{}, false
	}
	r := registration{form: formClaudeCode, line: at}
	tokens := strings.Fields(rest)
	for i := 0; i < len(tokens); i++ {
		t := unquote(tokens[i])
		switch {
		case t == "--":
			if i+1 < len(tokens) {
				r.command = unquote(tokens[i+1])
				for _, a := range tokens[i+2:] {
					r.args = append(r.args, unquote(a))
				}
			}
			return r, true
		case (t == "--env" || t == "-e") && i+1 < len(tokens):
			i++
			r.env = append(r.env, envKey(unquote(tokens[i])))
		case strings.HasPrefix(t, "--env="):
			r.env = append(r.env, envKey(strings.TrimPrefix(t, "--env=")))
		}
	}
	return r, true
}

func envKey(kv string) string {
	k, _, _ := strings.Cut(kv, "=")
	return k
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

// jsonRegistrations reads the servers of an mcpServers or (VS Code) servers
// object.
func jsonRegistrations(text string, at int) ([]registration, error) {
	doc, err := canonjson.Decode([]byte(text))
	if err != nil {
		return nil, err
	}
	var regs []registration
	for _, key := range []string{"mcpServers", "servers"} {
		servers, _ := canonjson.Resolve(doc, "/"+key)
		o, ok := servers.(*canonjson.Object)
		if !ok {
			continue
		}
		for _, entry := range o.All() {
			r := registration{form: formServers, line: at}
			if c, ok := canonjson.Resolve(entry, "/command"); ok {
				s, _ := c.(canonjson.String)
				r.command = string(s)
			}
			if key == "servers" {
				r.form = formVSCode
				if t, _ := canonjson.Resolve(entry, "/type"); t != canonjson.String("stdio") {
					// A VS Code server of another type is no stdio
					// registration, whatever it runs.
					r.command = "a server whose type is not stdio"
				}
			}
			if a, ok := canonjson.Resolve(entry, "/args"); ok {
				r.args = canonjson.StringsOf(a)
			}
			if e, ok := canonjson.Resolve(entry, "/env"); ok {
				if eo, ok := e.(*canonjson.Object); ok {
					r.env = eo.Keys()
				}
			}
			regs = append(regs, r)
		}
	}
	return regs, nil
}

var (
	tomlTable  = regexp.MustCompile(`^\s*\[\s*mcp_servers\.(?:"[^"]+"|[A-Za-z0-9_-]+)(\.env)?\s*\]\s*$`)
	tomlKey    = regexp.MustCompile(`^\s*([A-Za-z0-9_-]+)\s*=\s*(.*?)\s*$`)
	tomlString = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
)

// tomlRegistrations reads Codex's [mcp_servers.<name>] tables: command and
// args keys, and the variables of their [mcp_servers.<name>.env] table or
// env = { … } inline table.
func tomlRegistrations(lines []string, start int) []registration {
	var regs []registration
	var cur *registration
	inEnv := false
	for k, line := range lines {
		if m := tomlTable.FindStringSubmatch(line); m != nil {
			inEnv = m[1] != ""
			if !inEnv {
				regs = append(regs, registration{form: formCodex, line: lineOf(start + k)})
				cur = &regs[len(regs)-1]
			}
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "[") {
			cur, inEnv = nil, false
			continue
		}
		m := tomlKey.FindStringSubmatch(line)
		if m == nil || cur == nil {
			continue
		}
		key, value := m[1], m[2]
		switch {
		case inEnv:
			cur.env = append(cur.env, key)
		case key == "command":
			if s := tomlString.FindStringSubmatch(value); s != nil {
				cur.command = s[1]
			}
		case key == "args":
			for _, s := range tomlString.FindAllStringSubmatch(value, -1) {
				cur.args = append(cur.args, strings.ReplaceAll(s[1], `\\`, `\`))
			}
		case key == "env":
			inline := strings.Trim(value, "{} ")
			for _, pair := range strings.Split(inline, ",") {
				if k, _, ok := strings.Cut(pair, "="); ok {
					cur.env = append(cur.env, strings.Trim(strings.TrimSpace(k), `"`))
				}
			}
		}
	}
	return regs
}

// namedVariable is a variable a row of the variable table names.
type namedVariable struct {
	name string
	line int
}

// variableName is an environment variable name written as code.
var variableName = regexp.MustCompile("^`([A-Z][A-Z0-9_]*)`$")

// variableTable returns the variables the document's table of environment
// variables names (the first cell of each row of a table whose first
// column is headed 变量 or variable), and the table's line, 0 when there is
// none.
func variableTable(d *document) ([]namedVariable, int) {
	var out []namedVariable
	at := 0
	for i := 0; i < len(d.Lines); i++ {
		if d.Fenced[i] || !isTableRow(d.Lines[i]) {
			continue
		}
		head := strings.ToLower(firstCell(d.Lines[i]))
		if !strings.Contains(head, "变量") && !strings.Contains(head, "variable") {
			continue
		}
		if at == 0 {
			at = lineOf(i)
		}
		for i += 2; i < len(d.Lines) && isTableRow(d.Lines[i]); i++ {
			if m := variableName.FindStringSubmatch(firstCell(d.Lines[i])); m != nil {
				out = append(out, namedVariable{name: m[1], line: lineOf(i)})
			}
		}
	}
	return out, at
}

func isTableRow(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "|") }

func firstCell(line string) string {
	cells := strings.Split(strings.TrimSpace(line), "|")
	if len(cells) < 2 {
		return ""
	}
	return strings.TrimSpace(cells[1])
}
