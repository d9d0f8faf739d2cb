package skillmd

import (
	"bytes"
	"net/url"
	"path"
	"regexp"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/markdown"
)

var (
	// inlineLinkRE matches a Markdown link or image, [text](destination) or
	// ![alt](destination); group 1 is the destination.
	inlineLinkRE = regexp.MustCompile(`!?\[[^\]\n]*\]\(\s*(<[^>\n]*>|[^\s()<]+)`)
	// refDefRE matches a link reference definition, [label]: destination.
	refDefRE = regexp.MustCompile(`^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)`)
	// htmlAttrRE matches an HTML href or src attribute; group 1 is the
	// quoted value.
	htmlAttrRE = regexp.MustCompile(`(?i)\b(?:href|src)\s*=\s*("[^"\n]*"|'[^'\n]*')`)
	// parentPathRE matches a path written in text that starts by going up
	// a directory: ../references/x.md, ../../function-core/index.mjs.
	parentPathRE = regexp.MustCompile("(?:\\./)?(?:\\.\\./)+[^\\s'\"()<>\\[\\]{}|,;`]*")
	// schemeRE matches a URL scheme (https:, mailto:).
	schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
)

// checkReferences reports links and textual paths in the body that lead
// outside the skill's folder. Installers copy a skill's folder and nothing
// else (spec 003: each skill's references live in its own references/), so
// ../references/x.md or ../../function-core/index.mjs, fine in the source
// package, point at nothing once the skill is installed. Absolute URLs and
// paths inside the folder are fine.
func (s *Skill) checkReferences() []diag.Diagnostic {
	var diags []diag.Diagnostic
	where := "the skill folder " + path.Dir(s.File) + "/"
	if path.Dir(s.File) == "." {
		where = "the package folder"
	}
	for i, text := range markdown.Parse(s.Body).Lines {
		line := []byte(text)
		lineNo := s.BodyLine + i
		var checked [][2]int // byte ranges of the line already judged as link destinations
		judge := func(what string, start, end int) {
			checked = append(checked, [2]int{start, end})
			dest := string(line[start:end])
			if enclosed(dest) {
				dest, start = dest[1:len(dest)-1], start+1
			}
			if outside(dest) {
				diags = append(diags, RuleReferenceOutside.New(s.File,
					"%s %q leaves %s: an installed skill is copied alone, so it will not be there; "+
						"put what the skill needs in its own references/", what, dest, where).At(lineNo, start+1))
			}
		}
		// Each pattern runs only on lines holding its marker: most lines
		// hold none, and Go's regexp engine is the cost of this check.
		if bytes.Contains(line, []byte("](")) {
			for _, m := range inlineLinkRE.FindAllSubmatchIndex(line, -1) {
				what := "link"
				if line[m[0]] == '!' {
					what = "image"
				}
				judge(what, m[2], m[3])
			}
		}
		if bytes.Contains(line, []byte("]:")) {
			if m := refDefRE.FindSubmatchIndex(line); m != nil {
				judge("link definition", m[2], m[3])
			}
		}
		if bytes.IndexByte(line, '=') >= 0 {
			for _, m := range htmlAttrRE.FindAllSubmatchIndex(line, -1) {
				judge("HTML link", m[2], m[3])
			}
		}
		if !bytes.Contains(line, []byte("../")) {
			continue
		}
		for _, m := range parentPathRE.FindAllIndex(line, -1) {
			start, end := m[0], m[1]
			if start > 0 && isPathByte(line[start-1]) || within(checked, start) {
				continue // part of a longer path or URL, or a link destination already judged
			}
			ref := strings.TrimRight(string(line[start:end]), ".:!?")
			diags = append(diags, RuleReferenceOutside.New(s.File,
				"path %q leaves %s: an installed skill is copied alone, so it will not be there; "+
					"put what the skill needs in its own references/", ref, where).At(lineNo, start+1))
		}
	}
	return diags
}

// outside reports whether a link destination leaves the folder of the file
// it is written in.
func outside(dest string) bool {
	if i := strings.IndexAny(dest, "?#"); i >= 0 {
		dest = dest[:i]
	}
	if dest == "" || schemeRE.MatchString(dest) || strings.HasPrefix(dest, "//") {
		return false // a fragment of this file, or an absolute URL
	}
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	dest = strings.ReplaceAll(dest, `\`, "/")
	if strings.HasPrefix(dest, "/") {
		return true // an absolute path names a file of the author's machine
	}
	clean := path.Clean(dest)
	return clean == ".." || strings.HasPrefix(clean, "../")
}

// isPathByte reports whether c can be part of a path or URL, so that a ../
// right after it continues a longer path (https://host/a/../b).
func isPathByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_.~/\\-%", c) >= 0
}

// enclosed reports whether s is wrapped in <…>, "…" or '…'.
func enclosed(s string) bool {
	if len(s) < 2 {
		return false
	}
	first, last := s[0], s[len(s)-1]
	return first == '<' && last == '>' || (first == '"' || first == '\'') && last == first
}

func within(ranges [][2]int, i int) bool {
	for _, r := range ranges {
		if r[0] <= i && i < r[1] {
			return true
		}
	}
	return false
}
