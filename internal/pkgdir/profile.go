package pkgdir

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Profile names the package format a directory holds.
type Profile string

const (
	ProfileUnknown Profile = ""
	ProfileCore    Profile = "core-export-v1"   // the default compact package
	ProfileStrict  Profile = "strict-export-v1" // the opt-in audit package
)

// DetectProfile reports the profile a package declares: package.json's
// code2skill.profile when it names one, otherwise strict-export-v1 when a
// canonical-contract.json or export-profile.json is present (spec 000: a
// package declares vNext by including canonical-contract.json). It reads
// only those small files and never fails: an unreadable or malformed
// package.json is left to the validators to report.
func DetectProfile(dir string) Profile {
	if p := declaredProfile(dir); p != ProfileUnknown {
		return p
	}
	for _, f := range []string{"canonical-contract.json", "export-profile.json"} {
		if fi, err := os.Lstat(filepath.Join(dir, f)); err == nil && fi.Mode().IsRegular() {
			return ProfileStrict
		}
	}
	return ProfileUnknown
}

// declaredProfile returns package.json's code2skill.profile, or
// ProfileUnknown when the file is unreadable, is not strict JSON (canonjson
// rejects a repeated member) or declares none. Members are matched by their
// exact names: "CODE2SKILL" or "Profile" is another member.
func declaredProfile(dir string) Profile {
	b, err := readSmall(filepath.Join(dir, "package.json"))
	if err != nil {
		return ProfileUnknown
	}
	v, err := canonjson.Decode(b)
	if err != nil {
		return ProfileUnknown
	}
	root, _ := v.(*canonjson.Object)
	if root == nil {
		return ProfileUnknown
	}
	c2s, _ := root.At("code2skill").(*canonjson.Object)
	if c2s == nil {
		return ProfileUnknown
	}
	s, _ := c2s.At("profile").(canonjson.String)
	return Profile(s)
}

// readSmall reads a regular file (not a symlink) of at most MaxFileSize bytes.
func readSmall(path string) ([]byte, error) { return ReadFile(path, MaxFileSize) }

// Runtime names the runtime profile a core-export-v1 package follows: the
// technology its Function core, MCP server and tests are written in.
type Runtime string

const (
	RuntimeNode Runtime = "node-stdio" // package.json, .mjs modules, node --test (the default)
	RuntimeGo   Runtime = "go-stdio"   // go.mod, Go packages, go test
)

// GoServerFile is the entry point of a go-stdio package's MCP server,
// relative to the package root: what node-stdio's mcp-tool/index.mjs is.
const GoServerFile = "mcp-tool/main.go"

// GoMarker is the line comment of go.mod that declares a go-stdio package,
// as package.json's code2skill.profile declares a node-stdio one:
//
//	// code2skill:profile core-export-v1 runtime=go-stdio
//
// A package that cannot complete its goals without the host's help adds
// requiresHostIntegration=true, as package.json's
// code2skill.requiresHostIntegration says it.
const GoMarker = "// code2skill:profile"

// GoProfile is what go.mod's marker line declares.
type GoProfile struct {
	Line    int     // 1-based line of the marker
	Profile Profile // the package profile it names
	Runtime Runtime // the runtime= it names, "" when it names none
	// HostIntegration is the requiresHostIntegration= value as written,
	// "" when the marker has none.
	HostIntegration string
	// Unknown are the marker's other words, in order.
	Unknown []string
}

// DetectRuntime reports the runtime profile of the core package in dir:
// go-stdio when its go.mod carries the code2skill marker and it has no
// package.json declaring a profile, node-stdio otherwise. Like
// DetectProfile it never fails.
func DetectRuntime(dir string) Runtime {
	if DetectProfile(dir) == ProfileCore {
		if _, err := os.Lstat(filepath.Join(dir, "package.json")); err == nil {
			return RuntimeNode
		}
	}
	if b, err := readSmall(filepath.Join(dir, "go.mod")); err == nil {
		if m, ok := ParseGoMarker(b); ok && m.Runtime == RuntimeGo {
			return RuntimeGo
		}
	}
	return RuntimeNode
}

// DetectCoreGo reports whether dir holds a go-stdio core package: a
// go.mod whose marker declares core-export-v1 with runtime=go-stdio, and
// no package.json declaring another profile.
func DetectCoreGo(dir string) bool {
	if DetectProfile(dir) != ProfileUnknown {
		return false
	}
	return DetectRuntime(dir) == RuntimeGo
}

// ParseGoMarker finds the code2skill marker among go.mod's line comments.
func ParseGoMarker(gomod []byte) (GoProfile, bool) {
	for i, line := range strings.Split(string(gomod), "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), GoMarker)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		m := GoProfile{Line: i + 1}
		for _, f := range strings.Fields(rest) {
			if v, ok := strings.CutPrefix(f, "runtime="); ok {
				m.Runtime = Runtime(v)
			} else if v, ok := strings.CutPrefix(f, "requiresHostIntegration="); ok {
				m.HostIntegration = v
			} else if m.Profile == "" && !strings.Contains(f, "=") {
				m.Profile = Profile(f)
			} else {
				m.Unknown = append(m.Unknown, f)
			}
		}
		return m, true
	}
	return GoProfile{}, false
}
