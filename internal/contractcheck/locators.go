package contractcheck

import (
	"bytes"
	"fmt"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/symbol"
)

// Locator symbols: an evidence entry is identified by its source, path and
// symbol; the line is a hint, but never one beyond the file's end. Once a locator's file is resolved, the file
// is read and the symbol looked up (internal/symbol): a symbol the file no
// longer declares is an error, a line hint outside the symbol's
// declaration a warning that names the line it is at now.
var (
	RuleSymbolVanished   = diag.Register("EVIDENCE_SYMBOL_VANISHED", diag.Error, "an evidence locator names a symbol its file no longer declares")
	RuleSymbolMoved      = diag.Register("EVIDENCE_SYMBOL_MOVED", diag.Warning, "an evidence locator's line hint lies outside its symbol's declaration, which has moved; the finding names the line it is at now")
	RuleSymbolNotLocated = diag.Register("EVIDENCE_SYMBOL_NOT_LOCATED", diag.Info, "an evidence locator's symbol occurs in its file but no declaration of it was recognised, so its line hint was not checked")
	RuleLineBeyondFile   = diag.Register("EVIDENCE_LINE_BEYOND_FILE", diag.Error, "an evidence locator's line lies beyond the end of its file")
)

// maxSourceFile bounds how much of a source file is read to find a symbol.
const maxSourceFile = 4 << 20

// sourceFiles reads each source file once per check.
type sourceFiles map[string][]byte

// symbol checks the symbol of the locator of e, whose file rel (in its
// source) is at real.
func (f sourceFiles) symbol(k *checker, e *contract.Evidence, at, rel, real string) {
	l := contract.ParseLocator(e.Locator)
	if l.Symbol == "" && !l.HasLine() {
		return
	}
	src, ok := f[real]
	if !ok {
		data, err := pkgdir.ReadFile(real, maxSourceFile)
		if err != nil {
			k.contractf(RuleSymbolNotLocated, at, "locator %q: %s could not be read to check it (%s)", e.Locator, rel, describe(err))
			return
		}
		f[real], src = data, data
	}
	var res symbol.Result
	if l.Symbol != "" {
		res = symbol.Locate(rel, src, l.Symbol)
	}
	if res.Status == symbol.Missing {
		k.contractf(RuleSymbolVanished, at, "locator %q: %s in source %q no longer declares %s; find where the evidence is now and update the locator, or remove the evidence", e.Locator, rel, e.SourceID, l.Symbol)
		return
	}
	if n := lineCount(src); l.HasLine() && l.Line > n {
		k.contractf(RuleLineBeyondFile, at, "locator %q: %s has %d lines, not %d; point the locator at the evidence's real line", e.Locator, rel, n, l.Line)
		return
	}
	switch res.Status {
	case symbol.Unrecognised:
		if l.HasLine() {
			k.contractf(RuleSymbolNotLocated, at, "locator %q: %s occurs in %s, but no declaration of it was recognised; its line hint was not checked", e.Locator, l.Symbol, rel)
		}
	case symbol.Declared:
		if !l.HasLine() {
			return
		}
		nearest := res.Spans[0]
		for _, s := range res.Spans {
			if s.Contains(l.Line) {
				return
			}
			if distance(s, l.Line) < distance(nearest, l.Line) {
				nearest = s
			}
		}
		k.contractf(RuleSymbolMoved, at, "locator %q: %s is declared at %s of %s now, not at line %d; write %q",
			e.Locator, l.Symbol, lines(nearest), rel, l.Line, fmt.Sprintf("%s:%d#%s", l.Path, nearest.Start, l.Symbol))
	}
}

// distance is how far line is from the span.
func distance(s symbol.Span, line int) int {
	switch {
	case line < s.Start:
		return s.Start - line
	case line > s.End:
		return line - s.End
	}
	return 0
}

func lines(s symbol.Span) string {
	if s.Start == s.End {
		return fmt.Sprintf("line %d", s.Start)
	}
	return fmt.Sprintf("lines %d-%d", s.Start, s.End)
}

// lineCount is the number of lines of src, a last line without a newline
// counted too.
func lineCount(src []byte) int {
	n := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		n++
	}
	return n
}
