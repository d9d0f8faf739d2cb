package endpoint

import "testing"

func TestParse(t *testing.T) {
	for _, ok := range []string{"https://auth.protocol.org/token", "https://api.standard.net/v2/", "https://api.standard.net"} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{
		"http://auth.protocol.org/token", "https://user:pw@auth.protocol.org", "https://auth.protocol.org/token?x=1",
		"https://auth.protocol.org/#a", "https://localhost/x", "https://svc.invalid/x", "https://intranet/x",
		"https://127.0.0.1/x", "https://10.1.2.3/token", "https://[fd00::1]/t", "https://169.254.169.254/latest", "relative/path", "https:///x",
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
}

func TestCovers(t *testing.T) {
	l := List{"https://auth.protocol.org/token", "https://api.standard.net/v2/"}
	for raw, want := range map[string]bool{
		"https://auth.protocol.org/token":               true,
		"https://auth.protocol.org/token?grant=":        true,
		"https://auth.protocol.org/token/x":             true,
		"https://auth.protocol.org/tokens":              false,
		"https://auth.protocol.org/":                    false,
		"https://api.standard.net/v2/items":             true,
		"https://api.standard.net/v2":                   true,
		"https://api.standard.net/v3/items":             false,
		"https://evil.org/https://api.standard.net/v2/": false,
	} {
		if got := l.Covers(raw); got != want {
			t.Errorf("Covers(%q) = %v, want %v", raw, got, want)
		}
	}
}
