package contract

// The documentation languages of a strict package: export-profile.json's
// documentationLanguage, which the documents, the Tool titles and
// descriptions and the host runtime's questions to the user are written
// in. Chinese is the profile's default.
const (
	LanguageChinese = "zh-CN"
	LanguageEnglish = "en"
)

// Language returns the profile's documentationLanguage, or LanguageChinese
// when p is nil or names none the vocabulary holds.
func (p *ExportProfile) Language() string {
	if p != nil && p.DocumentationLanguage == LanguageEnglish {
		return LanguageEnglish
	}
	return LanguageChinese
}

// MCPDocFile is the name of the MCP document of a package in the language:
// MCP.<language>.md (MCP.zh-CN.md, MCP.en.md). The other documents keep
// their names in every language: SKILL.md, MCP-SETUP.md and
// references/feature-context.md.
func MCPDocFile(language string) string { return "MCP." + language + ".md" }

// TextUnits counts what the length rules of the language count as its
// text, besides code points: Chinese characters (U+3400–U+9FFF) for
// zh-CN, words (runs of Latin letters, an apostrophe or hyphen between two
// letters joining them) for en. A document full of code or of another
// language's prose has few of them.
func TextUnits(language, s string) int {
	if language != LanguageEnglish {
		n := 0
		for _, r := range s {
			if r >= 0x3400 && r <= 0x9fff {
				n++
			}
		}
		return n
	}
	n, in := 0, false
	rs := []rune(s)
	for i, r := range rs {
		letter := isLatinLetter(r)
		joiner := (r == '\'' || r == '’' || r == '-') && in && i+1 < len(rs) && isLatinLetter(rs[i+1])
		switch {
		case letter && !in:
			n++
			in = true
		case !letter && !joiner:
			in = false
		}
	}
	return n
}

// TextUnit names what TextUnits counts, in the singular.
func TextUnit(language string) string {
	if language == LanguageEnglish {
		return "English word"
	}
	return "Chinese character"
}

func isLatinLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
