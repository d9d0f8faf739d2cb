// Package buildinfo says which build of code2skill is running: its own
// version, which its MCP clients announce as clientInfo.version and its
// reports print, and the versions of the modules compiled into it, which
// a report names when it says what verified a package.
package buildinfo

import (
	"bufio"
	"bytes"
	"runtime/debug"
	"strings"

	code2skill "github.com/code2skill/code2skill"
)

// Version is the code2skill version. Release builds set it with
// -ldflags "-X github.com/code2skill/code2skill/internal/buildinfo.Version=v1.2.3";
// otherwise the module version recorded by "go install" is used.
var Version = ""

// Code2skill returns the version of this build (Version when a release
// build set it, else the module version "go install" recorded, else
// "devel").
func Code2skill() string {
	bi, _ := debug.ReadBuildInfo()
	version, _ := FromBuildInfo(bi)
	return version
}

// FromBuildInfo returns the version of a build (Version when a release
// build set it, else the module version "go install" recorded, else
// "devel") and the version control revision it recorded, if any.
func FromBuildInfo(bi *debug.BuildInfo) (version, revision string) {
	version = Version
	if bi != nil {
		if version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				revision = s.Value
			}
		}
	}
	if version == "" {
		version = "devel"
	}
	return version, revision
}

// Module returns the version of a module compiled into code2skill: the one
// the build recorded, or, where the build recorded no dependencies (a test
// binary), the one code2skill's go.mod requires, which is what the build
// compiled. It returns "" for a module code2skill does not require.
func Module(path string) string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == path {
				if d.Replace != nil && d.Replace.Version != "" {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return required(code2skill.GoMod(), path)
}

// required returns the version go.mod requires of a module, or "".
func required(gomod []byte, path string) string {
	sc := bufio.NewScanner(bytes.NewReader(gomod))
	for sc.Scan() {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "require "))
		if len(f) >= 2 && f[0] == path {
			return f[1]
		}
	}
	return ""
}
