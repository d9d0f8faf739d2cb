package contract

import "testing"

func TestPortablePath(t *testing.T) {
	for p, want := range map[string]bool{
		"sources/client":     true,
		"client":             true,
		"a/./b":              true,
		"a..b/c":             true,
		"":                   false,
		"/abs/client":        false,
		"../client":          false,
		"a/../../b":          false,
		`sources\client`:     false,
		"C:/sources":         false,
		"file:client":        false,
		"https://host/x":     false,
		"client\x00":         false,
		"features/entry.tsx": true,
	} {
		if got := PortablePath(p); got != want {
			t.Errorf("PortablePath(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestLocatorPath(t *testing.T) {
	for loc, want := range map[string]string{
		"features/sample-request/entry#submitIntent": "features/sample-request/entry",
		"src/greet.js:3":                 "src/greet.js",
		"src/greet.js:3#greet":           "src/greet.js",
		"file:///features/api#listKinds": "",
		`C:\sources\api.ts:10`:           "",
		"/abs/api.ts":                    "/abs/api.ts",
	} {
		if got := LocatorPath(loc); got != want {
			t.Errorf("LocatorPath(%q) = %q, want %q", loc, got, want)
		}
	}
}

func TestOrigin(t *testing.T) {
	for raw, want := range map[string]string{
		"https://application.example/api/kinds?x=1": "https://application.example",
		"HTTP://Host.example:8080/a":                "http://Host.example:8080",
		"https://trails.example/api/{trailId}":      "https://trails.example",
		"ftp://host/x":                              "",
		"/relative/path":                            "",
	} {
		got, ok := Origin(raw)
		if got != want || ok != (want != "") {
			t.Errorf("Origin(%q) = %q, %v; want %q", raw, got, ok, want)
		}
	}
}
