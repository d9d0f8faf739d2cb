package derive

import "testing"

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
