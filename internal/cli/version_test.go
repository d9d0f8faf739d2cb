package cli

import (
	"runtime/debug"
	"testing"

	"github.com/code2skill/code2skill/internal/buildinfo"
)

func TestVersionLine(t *testing.T) {
	setting := func(k, v string) debug.BuildSetting { return debug.BuildSetting{Key: k, Value: v} }
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"go install of a release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}},
			"code2skill v1.4.0 (go1.26.8)"},
		{"a build in a clone", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{setting("vcs", "git"), setting("vcs.revision", "0123abcd"), setting("vcs.modified", "false")}},
			"code2skill devel (revision 0123abcd, go1.26.8)"},
		{"a build with changes", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.1-0.20261130-0123abcd"},
			Settings: []debug.BuildSetting{setting("vcs.revision", "0123abcd"), setting("vcs.modified", "true")}},
			"code2skill v1.4.1-0.20261130-0123abcd (revision 0123abcd+modified, go1.26.8)"},
		{"no build information", nil, "code2skill devel (unknown Go version)"},
	} {
		if got := versionLine(tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	buildinfo.Version = "v9.9.9"
	defer func() { buildinfo.Version = "" }()
	if got := versionLine(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}}); got != "code2skill v9.9.9 (go1.26.8)" {
		t.Errorf("with -X Version: %q", got)
	}
}
