package npm

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testtier"
)

func TestPrepareUsesTheUsersConfiguration(t *testing.T) {
	home := t.TempDir()
	cache := filepath.Join(t.TempDir(), "cache")
	npmrc := "registry=https://npm.example.invalid/\n" +
		"//npm.example.invalid/:_authToken=${SAMPLE_NPM_TOKEN}\n" +
		"; a comment\n" +
		"cache=" + cache + "\n"
	os.WriteFile(filepath.Join(home, ".npmrc"), []byte(npmrc), 0o600)
	env := map[string]string{
		"SAMPLE_NPM_TOKEN": "t0k3n",
		"HTTPS_PROXY":      "http://proxy.example.invalid:3128",
		"GITHUB_TOKEN":     "not-for-npm",
	}
	in, err := Prepare(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, home)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"npm_config_userconfig=" + filepath.Join(home, ".npmrc"),
		"SAMPLE_NPM_TOKEN=t0k3n",
		"HTTPS_PROXY=http://proxy.example.invalid:3128",
		"npm_config_cache=" + cache,
	} {
		if !slices.Contains(in.Env, want) {
			t.Errorf("env lacks %s: %v", want, in.Env)
		}
	}
	if slices.Contains(in.Env, "GITHUB_TOKEN=not-for-npm") {
		t.Error("a variable the npmrc does not name was passed")
	}
	if in.Registry != "https://npm.example.invalid/" || in.Cache != cache {
		t.Errorf("registry %q cache %q", in.Registry, in.Cache)
	}
	wantBinds := []sandbox.Bind{{Source: filepath.Join(home, ".npmrc")}, {Source: cache, Writable: true}}
	if !slices.Equal(in.Binds, wantBinds) {
		t.Errorf("binds %v, want %v", in.Binds, wantBinds)
	}
	if fi, err := os.Stat(cache); err != nil || !fi.IsDir() {
		t.Errorf("the cache was not created: %v", err)
	}
}

func TestPrepareWithoutConfiguration(t *testing.T) {
	home := t.TempDir()
	in, err := Prepare(func(string) (string, bool) { return "", false }, home)
	if err != nil {
		t.Fatal(err)
	}
	if in.Registry != DefaultRegistry || in.Cache != filepath.Join(home, ".npm") {
		t.Errorf("registry %q cache %q", in.Registry, in.Cache)
	}
	for _, kv := range in.Env {
		if len(kv) > 21 && kv[:21] == "npm_config_userconfig" {
			t.Errorf("a missing npmrc was passed: %s", kv)
		}
	}
}

func TestUnreachable(t *testing.T) {
	out := []byte("npm error code ECONNREFUSED\nnpm error errno ECONNREFUSED\nnpm error FetchError: request to http://127.0.0.1:9/zod failed, reason: connect ECONNREFUSED\n")
	if code, url, ok := Unreachable(out); !ok || code != "ECONNREFUSED" || url != "http://127.0.0.1:9/zod" {
		t.Errorf("Unreachable = %q %q %v", code, url, ok)
	}
	if _, _, ok := Unreachable([]byte("npm error code E404\n")); ok {
		t.Error("a 404 is not a network failure")
	}
	if !NotCached([]byte("npm error code ENOTCACHED\n")) || NotCached([]byte("npm error code E404\n")) {
		t.Error("NotCached")
	}
}

// A registry that accepts connections and never answers is given up on
// within the probe's time limit.
func TestReachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("cannot listen on the loopback: %v", err)
	}
	defer ln.Close()
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	in := &Install{Registry: "http://" + ln.Addr().String() + "/"}
	began := time.Now()
	if err := in.Reachable(context.Background(), testtier.Scaled(500*time.Millisecond)); err == nil {
		t.Fatal("a silent registry was reachable")
	}
	if d := time.Since(began); d > testtier.Scaled(10*time.Second) {
		t.Errorf("the probe took %s", d)
	}

	answering := &Install{Registry: "http://" + serve(t) + "/"}
	if err := answering.Reachable(context.Background(), testtier.Budget(t)); err != nil {
		t.Errorf("an answering registry: %v", err)
	}
}

// serve answers every request with 404, as a registry does at its root.
func serve(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("cannot listen on the loopback: %v", err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 1024)
			c.Read(buf)
			c.Write([]byte("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"))
			c.Close()
		}
	}()
	return ln.Addr().String()
}
