package core

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/code2skill/code2skill/internal/pkgdir"
)

// GoSDKModule is the official Go MCP SDK, and GoSDKVersion the version a
// go-stdio package pins: the one code2skill itself is built with.
const (
	GoSDKModule  = "github.com/modelcontextprotocol/go-sdk"
	GoSDKVersion = "v1.8.0"
)

// goMod is what the go-stdio checks read of go.mod.
type goMod struct {
	module   string
	requires map[string]goModLine // module path → its requirement
	replaces []goReplace
}

type goModLine struct {
	version string
	line    int
}

// goReplace is one replace directive: old => new.
type goReplace struct {
	old, target string
	line        int
}

// parseGoMod reads the module, require and replace directives of go.mod,
// single-line and in blocks. It reports the first line it cannot read.
func parseGoMod(src []byte) (*goMod, int, error) {
	m := &goMod{requires: map[string]goModLine{}}
	block := ""
	for i, raw := range strings.Split(string(src), "\n") {
		n := i + 1
		line := raw
		if j := strings.Index(line, "//"); j >= 0 {
			line = line[:j]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if block != "" {
			if fields[0] == ")" {
				block = ""
				continue
			}
			if err := m.directive(block, fields, n); err != nil {
				return nil, n, err
			}
			continue
		}
		verb := fields[0]
		if len(fields) == 2 && fields[1] == "(" {
			block = verb
			continue
		}
		if verb == "module" && len(fields) == 2 {
			m.module = strings.Trim(fields[1], `"`)
			continue
		}
		if err := m.directive(verb, fields[1:], n); err != nil {
			return nil, n, err
		}
	}
	if block != "" {
		return nil, 0, fmt.Errorf("the %s block is not closed", block)
	}
	if m.module == "" {
		return nil, 0, fmt.Errorf("no module line")
	}
	return m, 0, nil
}

func (m *goMod) directive(verb string, args []string, line int) error {
	switch verb {
	case "require":
		if len(args) != 2 {
			return fmt.Errorf("require takes a module path and a version")
		}
		m.requires[strings.Trim(args[0], `"`)] = goModLine{args[1], line}
	case "replace":
		arrow := -1
		for i, a := range args {
			if a == "=>" {
				arrow = i
			}
		}
		if arrow < 1 || arrow == len(args)-1 {
			return fmt.Errorf("replace takes old [version] => new [version]")
		}
		m.replaces = append(m.replaces, goReplace{old: args[0], target: strings.Trim(args[arrow+1], `"`), line: line})
	}
	return nil
}

// isLocalReplace reports whether a replace target is a directory rather
// than a module path: the go command reads ./, ../ and absolute paths as
// directories.
func isLocalReplace(target string) bool {
	return strings.HasPrefix(target, "./") || strings.HasPrefix(target, "../") || target == "." || target == ".." ||
		filepath.IsAbs(target) || strings.HasPrefix(target, "/") || len(target) > 1 && target[1] == ':'
}

// checkGoMod checks the go.mod of a go-stdio package: the marker, the SDK
// pin and every replace directive. It returns the parsed file (nil when it
// cannot be read) and the directories local replaces lead to, resolved,
// for the build to see.
func (c *checker) checkGoMod(setup []byte) (*goMod, []string) {
	src, err := c.pkg.ReadFile("go.mod")
	if err != nil {
		return nil, nil // the layout reports a missing go.mod
	}
	if mk, ok := pkgdir.ParseGoMarker(src); !ok {
		c.add(RuleGoModProfile.New("go.mod", "go.mod has no %s line; add \"%s core-export-v1 runtime=go-stdio\" at its top", pkgdir.GoMarker, pkgdir.GoMarker))
	} else {
		c.checkGoMarker(mk)
	}
	m, line, err := parseGoMod(src)
	if err != nil {
		d := RuleGoModInvalid.New("go.mod", "%v", err)
		if line > 0 {
			d = d.At(line, 1)
		}
		c.add(d)
		return nil, nil
	}
	switch req, ok := m.requires[GoSDKModule]; {
	case !ok:
		c.add(RuleGoModSDK.New("go.mod", "go.mod does not require %s; the MCP server is built on the official Go MCP SDK, %s", GoSDKModule, GoSDKVersion))
	case req.version != GoSDKVersion:
		c.add(RuleGoModSDK.New("go.mod", "go.mod requires %s %s; code2skill checks go-stdio packages against %s", GoSDKModule, req.version, GoSDKVersion).At(req.line, 1))
	}
	for _, r := range m.replaces {
		if r.old == GoSDKModule {
			c.add(RuleGoModSDK.New("go.mod", "go.mod replaces %s (with %s): the server must be built on the official SDK", GoSDKModule, r.target).At(r.line, 1))
		}
	}
	return m, c.checkReplaces(m, setup)
}

// checkReplaces checks the local replace directives of style B: a relative
// directory inside an authorised source root, recorded in MCP-SETUP.md. It
// returns the directories of those that pass, resolved.
func (c *checker) checkReplaces(m *goMod, setup []byte) []string {
	var dirs []string
	for _, r := range m.replaces {
		if !isLocalReplace(r.target) {
			continue
		}
		if filepath.IsAbs(r.target) || strings.HasPrefix(r.target, "/") || len(r.target) > 1 && r.target[1] == ':' {
			c.add(RuleGoReplaceOutside.New("go.mod", "replace %s => %s is an absolute path: it holds only on this machine; write the path relative to the package", r.old, r.target).At(r.line, 1))
			continue
		}
		if setup != nil && !strings.Contains(string(setup), r.target) && !strings.Contains(string(setup), path.Clean(r.target)) {
			c.add(RuleGoReplaceUndocumented.New(setupFile, "MCP-SETUP.md does not record the replace path %s (go.mod line %d): say where the application's source must be for the package to build", r.target, r.line))
		}
		dir := filepath.Join(c.pkg.Dir(), filepath.FromSlash(r.target))
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			c.add(RuleGoReplaceOutside.New("go.mod", "replace %s => %s: %s cannot be resolved (%v)", r.old, r.target, r.target, err).At(r.line, 1))
			continue
		}
		if pkgReal, err := filepath.EvalSymlinks(c.pkg.Dir()); err == nil && within(pkgReal, real) {
			continue // a module of the package's own
		}
		if root := c.authorisedRoot(real); root == "" {
			how := "no source root was authorised: pass validate --source-root DIR"
			if len(c.opts.SourceRoots) > 0 {
				how = "it is outside every --source-root given"
			}
			c.add(RuleGoReplaceOutside.New("go.mod", "replace %s => %s leads out of the package and %s", r.old, r.target, how).At(r.line, 1))
			continue
		}
		dirs = append(dirs, real)
	}
	return dirs
}

// authorisedRoot returns the source root (resolved) dir lies in, or "".
func (c *checker) authorisedRoot(dir string) string {
	for _, root := range c.opts.SourceRoots {
		r, err := filepath.Abs(root)
		if err == nil {
			r, err = filepath.EvalSymlinks(r)
		}
		if err != nil {
			continue
		}
		if within(r, dir) {
			return r
		}
	}
	return ""
}

// within reports whether dir is root or lies under it (both resolved).
func within(root, dir string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkGoMarker checks the fields of go.mod's marker line and reads its
// requiresHostIntegration=.
func (c *checker) checkGoMarker(mk pkgdir.GoProfile) {
	if mk.Profile != pkgdir.ProfileCore || mk.Runtime != pkgdir.RuntimeGo {
		c.add(RuleGoModProfile.New("go.mod", "the marker names profile %q and runtime %q; a go-stdio package says \"core-export-v1 runtime=go-stdio\"", mk.Profile, mk.Runtime).At(mk.Line, 1))
	}
	for _, f := range mk.Unknown {
		c.add(RuleGoModProfile.New("go.mod", "the marker's %q is not a field code2skill reads: it reads the profile, runtime= and requiresHostIntegration=", f).At(mk.Line, 1))
	}
	switch mk.HostIntegration {
	case "", "false":
	case "true":
		c.mu.Lock()
		c.result.RequiresHostIntegration = true
		c.mu.Unlock()
	default:
		c.add(RuleManifestHostIntegration.New("go.mod", "the marker's requiresHostIntegration=%s; use true or false", mk.HostIntegration).At(mk.Line, 1))
	}
}
