package anchored

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// spans returns the text of each whole match.
func spans(text string, p *Pattern) []string {
	var out []string
	for _, loc := range NewText([]byte(text)).FindAll(p) {
		out = append(out, text[loc[0]:loc[1]])
	}
	return out
}

func TestFindAll(t *testing.T) {
	id := regexp.MustCompile(`\bid:[0-9]+`)
	long := strings.Repeat(".", DefaultReach)
	for _, tc := range []struct {
		name string
		text string
		p    Pattern
		want []string
	}{
		{"around anchors only", "id:12 x:34 id:56", Pattern{Re: regexp.MustCompile(`[a-z]+:[0-9]+`), Anchors: []string{"id:"}},
			[]string{"id:12", "x:34", "id:56"}}, // x:34 is in id:12's window
		{"no anchor, no match", "x:34 y:56", Pattern{Re: regexp.MustCompile(`[a-z]+:[0-9]+`), Anchors: []string{"id:"}}, nil},
		{"far from any anchor", "id:1" + long + " x:2", Pattern{Re: regexp.MustCompile(`[a-z]+:[0-9]+`), Anchors: []string{"id:"}},
			[]string{"id:1"}},
		{"each match once", "id:1 id:2", Pattern{Re: id, Anchors: []string{"id:", "d:"}}, []string{"id:1", "id:2"}},
		{"case folded", "ID:7 Id:8", Pattern{Re: regexp.MustCompile(`(?i)\bid:[0-9]+`), Anchors: []string{"id:"}, Fold: true},
			[]string{"ID:7", "Id:8"}},
		{"not folded", "ID:7 id:8", Pattern{Re: id, Anchors: []string{"id:"}}, []string{"id:8"}},
		{"near rejects", "id:1" + long + "id:x", Pattern{Re: regexp.MustCompile(`\bid:\w+`), Anchors: []string{"id:"},
			Near: func(after []byte) bool { return len(after) > 0 && after[0] != 'x' }}, []string{"id:1"}},
		{"cut at the default reach", "id:" + strings.Repeat("9", DefaultReach+10), Pattern{Re: id, Anchors: []string{"id:"}},
			[]string{"id:" + strings.Repeat("9", DefaultReach)}},
		{"a longer reach", "id:" + strings.Repeat("9", DefaultReach+10), Pattern{Re: id, Anchors: []string{"id:"}, Reach: 2 * DefaultReach},
			[]string{"id:" + strings.Repeat("9", DefaultReach+10)}},
		// The window of the second anchor starts inside "xid:1": there
		// \b would hold, but the first anchor's window, which sees the
		// "x", decides.
		{"a boundary before the window", "xid:1" + strings.Repeat(" ", WindowBefore-4) + "id:2", Pattern{Re: id, Anchors: []string{"id:"}},
			[]string{"id:2"}},
	} {
		if got := spans(tc.text, &tc.p); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestSubmatchOffsets(t *testing.T) {
	text := strings.Repeat("-", 200) + "key=abc"
	p := &Pattern{Re: regexp.MustCompile(`key=([a-z]+)`), Anchors: []string{"key="}}
	locs := NewText([]byte(text)).FindAll(p)
	if len(locs) != 1 || text[locs[0][2]:locs[0][3]] != "abc" {
		t.Errorf("got %v", locs)
	}
}

func TestLower(t *testing.T) {
	tx := NewText([]byte("AbC-é"))
	if got := string(tx.Lower()); got != "abc-é" {
		t.Errorf("Lower = %q", got)
	}
	if string(tx.Bytes()) != "AbC-é" {
		t.Error("Lower changed the text")
	}
}

func TestRarest(t *testing.T) {
	for a, want := range map[string]int{"token": 2, "xox": 0, "eyJ": 2, "://": 0, "PRIVATE KEY-----": 8} {
		if got := rarest(a); got != want {
			t.Errorf("rarest(%q) = %d, want %d", a, got, want)
		}
	}
}
