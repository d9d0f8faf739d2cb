package strictjs

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
)

// A Tool's prose is judged in the package's documentation language: its
// title's shape, the sizes counted in that language's text units, the
// action's verbs and the description's seven topics.
func TestProseByLanguage(t *testing.T) {
	const (
		zhTitle = "器材借用：列出可借器材"
		zhDesc  = "用于列出社区工坊可出借的器材，以及每件器材当前能否借用。用户想知道能借什么，或借用前需要选定一件器材时调用；入参 category 可选，给出时只列出该类别。通过一次 HTTP GET 读取器材目录，返回 items 列表；其中可借条目的 itemId 可以交给 quote_equipment_loan 作为入参。只读操作，没有副作用，可以安全地重复调用。"
		enTitle = "Equipment lending: List lendable equipment"
		enDesc  = "Use it to list the equipment the community workshop lends, and whether each item can be borrowed now. Call it when the member asks what can be borrowed, or before a loan when no item is chosen yet; the optional input category lists one category only. One HTTP GET reads the catalogue and returns items; the itemId of an available row is passed to quote_equipment_loan. Read-only: no side effect, safe to call again."
	)
	for _, tc := range []struct {
		name     string
		language string
		title    string
		desc     string
		titleOK  bool
		descOK   bool
	}{
		{"Chinese prose in a Chinese package", contract.LanguageChinese, zhTitle, zhDesc, true, true},
		{"English prose in a Chinese package", contract.LanguageChinese, enTitle, enDesc, false, false},
		{"English prose in an English package", contract.LanguageEnglish, enTitle, enDesc, true, true},
		{"Chinese prose in an English package", contract.LanguageEnglish, zhTitle, zhDesc, false, false},
		{"an English action without its verb", contract.LanguageEnglish, "Equipment lending: lendable equipment list", enDesc, false, true},
		{"an English action of one word", contract.LanguageEnglish, "Equipment lending: List", enDesc, false, true},
		{"an English title without a domain", contract.LanguageEnglish, ": List lendable equipment", enDesc, false, true},
		{"a short English description", contract.LanguageEnglish, enTitle, "Use it to list the lendable equipment over HTTP GET; it returns items, read-only.", true, false},
		{"an English description without its side effect", contract.LanguageEnglish, enTitle,
			strings.ReplaceAll(enDesc, "Read-only: no side effect, safe to call again.", "Results may be cached for a minute by the caller."), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := proseOf(tc.language)
			if why := p.titleProblem(tc.title); (why == "") != tc.titleOK {
				t.Errorf("title %q: %q, want ok %v", tc.title, why, tc.titleOK)
			}
			if why := p.descriptionProblem(tc.desc); (why == "") != tc.descOK {
				t.Errorf("description: %q, want ok %v", why, tc.descOK)
			}
		})
	}
}
