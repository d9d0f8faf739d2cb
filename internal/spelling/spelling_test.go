package spelling

import "testing"

func TestClosest(t *testing.T) {
	known := []string{"capabilityId", "toolName", "inputs", "type"}
	for word, want := range map[string]string{
		"capabilityID": "capabilityId", // case only
		"toolname":     "toolName",
		"input":        "inputs",
		"tpye":         "type", // one swap
		"tyep":         "type",
		"description":  "",
		"":             "",
	} {
		if got := Closest(word, known); got != want {
			t.Errorf("Closest(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"tiemout", "timeout", 1}, {"rnu", "run", 1}, {"ca", "abc", 3}, {"same", "same", 0}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
