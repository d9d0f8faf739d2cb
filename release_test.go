package code2skill

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// goreleaser is the part of .goreleaser.yaml the release matrix is.
type goreleaser struct {
	Builds []struct {
		Main    string   `yaml:"main"`
		Binary  string   `yaml:"binary"`
		Env     []string `yaml:"env"`
		Flags   []string `yaml:"flags"`
		Ldflags []string `yaml:"ldflags"`
		Goos    []string `yaml:"goos"`
		Goarch  []string `yaml:"goarch"`
	} `yaml:"builds"`
	Checksum struct {
		Algorithm string `yaml:"algorithm"`
	} `yaml:"checksum"`
}

// TestReleaseMatrixBuilds cross-builds every target of .goreleaser.yaml
// the way goreleaser builds it (its env, flags and ldflags, the tag put in
// for {{ .Tag }}), and runs the build for this machine: "code2skill
// version" reports the tag.
func TestReleaseMatrixBuilds(t *testing.T) {
	requireReleaseTests(t)
	b, err := os.ReadFile(".goreleaser.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg goreleaser
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 {
		t.Fatalf(".goreleaser.yaml has %d builds, want the one of cmd/code2skill", len(cfg.Builds))
	}
	build := cfg.Builds[0]
	if !slices.Equal(build.Goos, []string{"linux", "darwin", "windows"}) || !slices.Equal(build.Goarch, []string{"amd64", "arm64"}) {
		t.Errorf("the release matrix is %v × %v, want linux, darwin, windows × amd64, arm64", build.Goos, build.Goarch)
	}
	if cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("checksums use %q, want sha256", cfg.Checksum.Algorithm)
	}
	if !slices.Contains(build.Env, "CGO_ENABLED=0") {
		t.Errorf("builds do not set CGO_ENABLED=0: a release binary must not need a C library")
	}
	const tag = "v9.8.7"
	var ldflags []string
	for _, f := range build.Ldflags {
		f = strings.ReplaceAll(f, "{{ .Tag }}", tag)
		if strings.Contains(f, "{{") {
			t.Fatalf("ldflags %q uses a template the test does not know", f)
		}
		ldflags = append(ldflags, f)
	}
	if !strings.Contains(strings.Join(ldflags, " "), "-X "+modulePath+"/internal/buildinfo.Version="+tag) {
		t.Errorf("ldflags %v do not set internal/buildinfo.Version to the tag", build.Ldflags)
	}
	out := t.TempDir()
	for _, goos := range build.Goos {
		for _, goarch := range build.Goarch {
			t.Run(goos+"-"+goarch, func(t *testing.T) {
				t.Parallel() // each link is single-threaded: two at a time on two cores
				bin := filepath.Join(out, goos+"-"+goarch, build.Binary)
				if goos == "windows" {
					bin += ".exe"
				}
				args := append([]string{"build"}, build.Flags...)
				args = append(args, "-ldflags", strings.Join(ldflags, " "), "-o", bin, build.Main)
				cmd := exec.Command("go", args...)
				cmd.Env = append(os.Environ(), build.Env...)
				cmd.Env = append(cmd.Env, "GOOS="+goos, "GOARCH="+goarch, "GOFLAGS=-buildvcs=false")
				if msg, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("GOOS=%s GOARCH=%s go %s: %v\n%s", goos, goarch, strings.Join(args, " "), err, msg)
				}
				if goos != runtime.GOOS || goarch != runtime.GOARCH {
					return
				}
				got, err := exec.Command(bin, "version").Output()
				if err != nil {
					t.Fatalf("%s version: %v", bin, err)
				}
				if !strings.HasPrefix(string(got), "code2skill "+tag+" (") {
					t.Errorf("the release build says %q, want the tag %s", got, tag)
				}
			})
		}
	}
}
