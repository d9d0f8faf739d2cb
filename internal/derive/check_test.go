package derive

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
		if got := portablePath(p); got != want {
			t.Errorf("portablePath(%q) = %v, want %v", p, got, want)
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
		if got := locatorPath(loc); got != want {
			t.Errorf("locatorPath(%q) = %q, want %q", loc, got, want)
		}
	}
}

func TestOrigins(t *testing.T) {
	for raw, want := range map[string]string{
		"https://application.example/api/kinds?x=1": "https://application.example",
		"HTTP://Host.example:8080/a":                "http://Host.example:8080",
		"https://trails.example/api/{trailId}":      "https://trails.example",
		"ftp://host/x":                              "",
		"/relative/path":                            "",
	} {
		got, ok := origin(raw)
		if got != want || ok != (want != "") {
			t.Errorf("origin(%q) = %q, %v; want %q", raw, got, ok, want)
		}
	}
	for o, want := range map[string]bool{
		"https://application.example":      true,
		"http://localhost:8080":            true,
		"https://application.example/":     false,
		"https://application.example/api":  false,
		"https://application.example?x":    false,
		"https://application.example#f":    false,
		"https://user@application.example": false,
		"HTTPS://application.example":      false,
		"application.example":              false,
	} {
		if got := bareOrigin(o); got != want {
			t.Errorf("bareOrigin(%q) = %v, want %v", o, got, want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for raw, ok := range map[string]bool{
		"https://application.example/api/sample-request/kinds": true,
		"http://localhost:8080/x?fixed=1":                      true,
		"https://trails.example/api/trails/{trailId}":          true,
		"ftp://application.example/x":                          false,
		"//application.example/x":                              false,
		"https:///x":                                           false,
		"https://user:secret@application.example/x":            false,
		"https://exa mple.com/%zz":                             false,
	} {
		if got := checkURL(raw) == ""; got != ok {
			t.Errorf("checkURL(%q) accepted %v, want %v (%s)", raw, got, ok, checkURL(raw))
		}
	}
}
