package strict

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
)

// The scanners find what these expressions find.
var (
	upperCodeWord = regexp.MustCompile(`\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*\b`)
	quotedCode    = regexp.MustCompile(`['"]([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)['"]`)
)

// codeTexts are texts with every edge of an UPPER_SNAKE word: runs of
// underscores, words that go on in lower case, quotes of both kinds,
// shared closing and opening quotes, non-ASCII letters, the text's ends.
var codeTexts = []string{
	``, `A`, `"A"`, `'A'`, `"A'`, `"A""B"`, `'A'B'`, `"A_"`, `"A__B"`, `"_A"`, `"A_1"`, `"4XX"`, `"HTTP_4XX"`,
	`x = "UPSTREAM_STEP_REJECTED";`, `code: 'NOT_FOUND', other: "Abc", "ABc", "AB_c"`,
	`UNAUTHENTICATED and ABC and AB_C and ABCd and dABC and A_B_ and _AB and AB__C`,
	`ÉCOLE_X DÉJÀ_VU CAFÉ ÀBCD "ÉTAT" "X_É"`, `"A`, `A"`, `NOT_FOUND`, `a NOT_FOUND.`, `(LIMIT_9)`,
}

// TestErrorCodeScanners holds the scanners to the expressions on the edge
// cases, the reference contract and every runtime file they scan.
func TestErrorCodeScanners(t *testing.T) {
	texts := slices.Clone(codeTexts)
	texts = append(texts, string(contracttest.Reference(t, contract.ContractFile)), string(compile.CoreLibrary()))
	for _, a := range assets.Runtime() {
		texts = append(texts, string(a.Bytes()))
	}
	for _, text := range texts {
		compareScanners(t, text)
	}
}

// FuzzErrorCodeScanners holds the scanners to the expressions on any text.
func FuzzErrorCodeScanners(f *testing.F) {
	for _, text := range codeTexts {
		f.Add(text)
	}
	f.Fuzz(compareScanners)
}

// compareScanners fails t when a scanner finds other codes in text than
// its expression.
func compareScanners(t *testing.T, text string) {
	t.Helper()
	want := map[string]bool{}
	for _, m := range upperCodeWord.FindAllString(text, -1) {
		if strings.Contains(m, "_") || len(m) >= 4 {
			want[m] = true
		}
	}
	got := map[string]bool{}
	if errorCodesIn(text, got); !maps.Equal(got, want) {
		t.Errorf("errorCodesIn(%.80q) = %v, want %v", text, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	want = map[string]bool{}
	for _, m := range quotedCode.FindAllStringSubmatch(text, -1) {
		want[m[1]] = true
	}
	got = map[string]bool{}
	if addRuntimeCodes([]byte(text), got); !maps.Equal(got, want) {
		t.Errorf("addRuntimeCodes(%.80q) = %v, want %v", text, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
}
