package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadEnvFile(t *testing.T) {
	dir := t.TempDir()
	write := func(content string) string {
		p := filepath.Join(dir, "server.env")
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	got, err := readEnvFile("--env-file", write("# the shop's staging service\r\n"+
		"CODE2SKILL_SHOP_API_BASE_URL=https://shop.example.test/api/\n"+
		"\n"+
		"export CODE2SKILL_SHOP_API_TOKEN = 's3cr3t value # kept'\n"+
		`QUOTED="line\nbreak \"q\" \\ \t"`+"\n"+
		"EMPTY=\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"CODE2SKILL_SHOP_API_BASE_URL=https://shop.example.test/api/",
		"CODE2SKILL_SHOP_API_TOKEN=s3cr3t value # kept",
		"QUOTED=line\nbreak \"q\" \\ \\t",
		"EMPTY=",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}

	for content, msg := range map[string]string{
		"A=1\nno equals sign\n": "server.env:2: want KEY=VALUE",
		"1A=x\n":                "server.env:1: want KEY=VALUE",
		"TOKEN=\"s3cr3t\n":      "server.env:1: TOKEN: the value's closing \" is missing",
	} {
		_, err := readEnvFile("--env-file", write(content))
		if err == nil || !strings.Contains(err.Error(), msg) || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("readEnvFile(%q) = %v, want an error holding %q and no value", content, err, msg)
		}
	}
	if _, err := readEnvFile("--env-file", filepath.Join(dir, "missing.env")); err == nil || !strings.Contains(err.Error(), "--env-file") {
		t.Errorf("missing file: %v", err)
	}
}

func TestMergeEnv(t *testing.T) {
	got := mergeEnv([]string{"A=1", "B=2"}, []string{"C=3", "A=file"}, []string{"B=flag"})
	if diff := cmp.Diff([]string{"A=file", "B=flag", "C=3"}, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestDurationFlag(t *testing.T) {
	for in, want := range map[string]string{"30": "30s", "2.5": "2.5s", "30s": "30s", "2m": "2m", "1h30m": "1h30m", "90s": "1m30s"} {
		var d durationFlag
		if err := d.Set(in); err != nil || d.String() != want {
			t.Errorf("Set(%q) = %v, %s; want %s", in, err, d.String(), want)
		}
	}
	for _, in := range []string{"0", "-1", "0s", "soon", "NaN", "Inf", "1e300", ""} {
		var d durationFlag
		if err := d.Set(in); err == nil {
			t.Errorf("Set(%q) = %s, want an error", in, d.String())
		}
	}
}
