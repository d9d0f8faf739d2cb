package server

import "testing"

func TestCanonicalTerms(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, c := range []struct {
		terms Terms
		want  string
	}{
		{Terms{Days: 3}, `{"days":3}`},
		{Terms{Days: 3, Note: str("back by Friday")}, `{"days":3,"note":"back by Friday"}`},
		{Terms{Days: 14, Note: str("")}, `{"days":14,"note":""}`},
		// JSON.stringify escapes quotes, backslashes and control characters,
		// and only those: DEL, U+2028, U+2029, astral characters and HTML
		// metacharacters stay as they are.
		{Terms{Days: 1, Note: str("q \" b \\ t \t n \n r \r f \f bs \b bel \x07 us \x1f del \x7f")},
			`{"days":1,"note":"q \" b \\ t \t n \n r \r f \f bs \b bel \u0007 us \u001f del ` + "\x7f" + `"}`},
		{Terms{Days: 2, Note: str("línea\u2028sep\u2029 😀 <&>")}, "{\"days\":2,\"note\":\"línea\u2028sep\u2029 😀 <&>\"}"},
	} {
		if got := canonicalTerms(c.terms); got != c.want {
			t.Errorf("canonicalTerms(%+v)\n got %s\nwant %s", c.terms, got, c.want)
		}
	}
}

func TestTermsDigest(t *testing.T) {
	// SHA-256 of {"days":3,"note":"back by Friday"}.
	note := "back by Friday"
	const want = "31a2ea5fddf4a7feb87344d3b9fdd68a85f9664405ef796e5604a3c5a3d8ff26"
	if got := TermsDigest(Terms{Days: 3, Note: &note}); got != want {
		t.Errorf("TermsDigest = %s, want %s", got, want)
	}
}
