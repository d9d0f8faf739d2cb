package contract

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestSourcesAddMapping(t *testing.T) {
	var s Sources
	if s.Given() {
		t.Fatal("zero Sources claims locations were given")
	}
	if err := s.AddMapping("web-app=/src/web/"); err != nil {
		t.Fatal(err)
	}
	if got := s.Map["web-app"]; got != "/src/web" {
		t.Errorf("mapped path %q, want the cleaned /src/web", got)
	}
	for _, tc := range []struct{ arg, want string }{
		{"web-app=/elsewhere", "mapped twice"},
		{"noequals", "want ID=PATH"},
		{"=/x", "want ID=PATH"},
		{"Web=/x", "ID must be"},
		{"api=relative/dir", "must be absolute"},
	} {
		if err := s.AddMapping(tc.arg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("AddMapping(%q) = %v, want an error containing %q", tc.arg, err, tc.want)
		}
	}
	if !s.Given() || strings.Join(s.IDs(), ",") != "web-app" {
		t.Errorf("Given %v, IDs %v", s.Given(), s.IDs())
	}
}

func TestSourcesDir(t *testing.T) {
	s := Sources{Base: "/work", Map: map[string]string{"api": "/srv/api"}}
	if d, ok := s.Dir(&SourceRoot{ID: "api", Root: "backend"}); !ok || d != "/srv/api" {
		t.Errorf("mapped: %q %v", d, ok)
	}
	if d, ok := s.Dir(&SourceRoot{ID: "web", Root: "client/app"}); !ok || d != filepath.Join("/work", "client", "app") {
		t.Errorf("base: %q %v", d, ok)
	}
	if _, ok := (Sources{}).Dir(&SourceRoot{ID: "web", Root: "x"}); ok {
		t.Error("resolved a source with neither a map nor a base")
	}
}
