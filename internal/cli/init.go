package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/code2skill/code2skill/internal/scaffold"
)

func initCmd() *command {
	c := &command{
		name:    "init",
		summary: "scaffold a new core-export-v1 package",
		args:    "<dir>",
		about: `Writes the starting point of a core-export-v1 package into <dir>: one Skill
at the package root for a single goal, or skills/<goal>/SKILL.md for each of
several goals sharing one Function core and MCP server; an illustrative
read-only HTTP Tool per goal whose base URL comes from the environment
variable CODE2SKILL_<FEATURE>_<SERVICE>_BASE_URL; one request helper every
Function sends through (authentication, a time limit, the MCP request's abort
signal, dry-run for writes, path inputs that stop the call when missing); the
reviewed portable-agent-result.mjs; package.json with the MCP SDK and zod
pinned and a plain "node --test" script; MCP-SETUP.md; and offline tests that
mock fetch and use .invalid base URLs.

The scaffold is a starting point, not a finished package: after "npm
install" in <dir> every check of "code2skill validate" passes but two, which
stay until the illustrative parts are replaced by the application's real
calls: CORE_PLACEHOLDER_TEXT (the scaffold's Skill, Tool and setup texts)
and CORE_PLACEHOLDER_REQUEST (each Function that still sends the
illustrative request).

--auth chooses how the helper authenticates; the host injects the credential
variables, CODE2SKILL_<FEATURE>_<SERVICE>_<NAME>:

  none           no credential (the default)
  bearer         Authorization: Bearer <TOKEN> (--auth-header and --auth-scheme
                 name the header and the word the service really reads, such as
                 Authorization: Token <TOKEN>)
  api-key        an API key header (x-api-key, or --auth-header) holding <API_KEY>
  cookie-login   logs in with <USERNAME> and <PASSWORD>, keeps the session
                 cookie in memory and logs in again once on a 401

With --runtime go-stdio the same Skills and MCP-SETUP.md come as a Go module
pinning the official Go MCP SDK: a Function core package, a stdio server in
mcp-tool and go test tests with a fake HTTP transport, with every --auth
style; run "go mod download" in <dir> instead of "npm install".

<dir> is created if needed. A non-empty <dir> is refused unless --force.
Nothing is left half-written: a new directory appears complete or not at all.`,
		exits: `Exit codes:
  0  the package was written
  2  usage error (bad flags or ids, or a non-empty <dir> without --force)
  3  the package could not be written
`,
	}
	c.run = func(ctx context.Context, stdio *Stdio, args []string) int {
		fs := newFlagSet(c)
		featureID := fs.String("feature-id", "", "the `ID` of the package, its MCP server and a root Skill: lowercase letters, digits and single hyphens, "+
			"starting with a letter (default: the name of <dir>, which a root Skill's name must equal)")
		var goals stringsFlag
		fs.Var(&goals, "goal", "a user goal `ID`, of the same form; repeat for several goals")
		service := fs.String("service", "", "the service `NAME` in the variables' names: letters, digits and underscores (default API)")
		auth := fs.String("auth", scaffold.AuthNone, "how the service authenticates a caller, `STYLE`: none, bearer, api-key or cookie-login")
		authHeader := fs.String("auth-header", "", "bearer and api-key: the header `NAME` the credential travels in (default Authorization for bearer, x-api-key for api-key)")
		authScheme := fs.String("auth-scheme", "", "bearer: the `WORD` before the token (default Bearer)")
		featureContext := fs.Bool("feature-context", false, "also write the references/feature-context.md skeleton for each Skill")
		runtime := addRuntimeFlag(fs)
		force := addForceFlag(fs)
		pos, code, ok := parseOrExit(fs, c, stdio, args)
		if !ok {
			return code
		}
		if len(pos) != 1 {
			return usageError(stdio, c, "want exactly one directory, got %d arguments", len(pos))
		}
		dir := pos[0]
		if strings.TrimSpace(dir) == "" {
			// filepath.Abs("") is the working directory: never write there
			// by accident.
			return usageError(stdio, c, "the directory is empty; name the package's directory")
		}
		abs, err := filepath.Abs(dir)
		if err != nil {
			fmt.Fprintf(stdio.Err, "code2skill init: %v\n", err)
			return ExitFailure
		}
		opts := scaffold.Options{
			FeatureID:      *featureID,
			Goals:          goals,
			Service:        *service,
			FeatureContext: *featureContext,
			Auth:           *auth,
			AuthHeader:     *authHeader,
			AuthScheme:     *authScheme,
			Runtime:        *runtime,
		}
		if opts.FeatureID == "" {
			opts.FeatureID = filepath.Base(abs)
		}
		if err := opts.Check(); err != nil {
			return usageError(stdio, c, "%v", err)
		}
		// Agent Skills require a Skill's name to equal its directory; for a
		// root Skill that directory is the package.
		if opts.RootSkill() && filepath.Base(abs) != opts.FeatureID {
			return usageError(stdio, c, "a single-goal package holds its Skill at the root, and a Skill's name must equal its directory: "+
				"name the directory %q, or drop --feature-id", opts.FeatureID)
		}
		files, err := scaffold.Files(opts)
		if err != nil {
			fmt.Fprintf(stdio.Err, "code2skill init: %v\n", err)
			return ExitFailure
		}
		if err := scaffold.Write(dir, files, *force); err != nil {
			if errors.Is(err, scaffold.ErrNotEmpty) {
				return usageError(stdio, c, "%v; choose an empty or new directory, or pass --force", err)
			}
			fmt.Fprintf(stdio.Err, "code2skill init: %v\n", err)
			return ExitFailure
		}
		skills := "1 Skill at the package root"
		if !opts.RootSkill() {
			skills = fmt.Sprintf("%d Skills under skills/", len(opts.Goals))
		}
		fmt.Fprintf(stdio.Out, "wrote %s: a core-export-v1 package with %s, %d files\n", dir, skills, len(files))
		fmt.Fprintf(stdio.Out, "next: replace the illustrative requests with the real call sites, then\n")
		if opts.Runtime == scaffold.RuntimeGo {
			fmt.Fprintf(stdio.Out, "  (cd %s && go mod download)\n  code2skill validate %s\n", dir, dir)
		} else {
			fmt.Fprintf(stdio.Out, "  (cd %s && npm install)\n  code2skill validate %s\n", dir, dir)
		}
		return ExitPassed
	}
	return c
}
