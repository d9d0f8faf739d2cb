// Package markdown reads a Markdown document line by line: enough
// structure for the document checks (ATX headings, their sections,
// paragraphs and fenced code blocks, as CommonMark delimits them), no
// rendering. Every check that reads Markdown starts from Parse, so that
// all of them agree on what is a heading and what is code.
//
//	d := markdown.Parse(data)
//	for i, line := range d.Lines {
//		if d.Fenced[i] {
//			continue // code, not prose
//		}
//		…
//	}
package markdown

import (
	"regexp"
	"strings"
)

// Document is a Markdown document read line by line.
type Document struct {
	Text     string   // the document, its CRLF line ends made LF
	Lines    []string // Text split at line ends, without them
	Fenced   []bool   // the line belongs to a fenced code block (fences included)
	Headings []Heading
}

// Heading is an ATX heading outside code blocks.
type Heading struct {
	Level int
	Title string // without the #s, trimmed
	Line  int    // 0-based index into lines
}

// Block is a range of lines [Start, End).
type Block struct{ Start, End int }

var (
	atxHeading   = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)
	closingMarks = regexp.MustCompile(`[ \t]+#+$`)
)

// Parse splits a document into lines and finds its headings and fenced
// code blocks. It never fails: any text is a Markdown document.
func Parse(data []byte) *Document {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	d := &Document{Text: text, Lines: strings.Split(text, "\n")}
	d.Fenced = make([]bool, len(d.Lines))
	fence := ""
	for i, line := range d.Lines {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			d.Fenced[i] = true
			if closes(line, fence) {
				fence = ""
			}
			continue
		}
		if len(line)-len(trimmed) <= 3 {
			if f := fenceOpener(trimmed); f != "" {
				fence = f
				d.Fenced[i] = true
				continue
			}
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			title := strings.TrimSpace(closingMarks.ReplaceAllString(m[2], ""))
			if strings.Trim(title, "#") == "" {
				title = ""
			}
			d.Headings = append(d.Headings, Heading{Level: len(m[1]), Title: title, Line: i})
		}
	}
	return d
}

// closes reports whether line closes a code block opened by fence: the
// same character, at least as many times, and nothing else but blanks.
func closes(line, fence string) bool {
	trimmed := strings.TrimLeft(line, " ")
	return strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == ""
}

// fenceOpener returns the fence a line opens (``` or ~~~, at least three),
// or "".
func fenceOpener(line string) string {
	for _, c := range []string{"`", "~"} {
		n := len(line) - len(strings.TrimLeft(line, c))
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// CodeBlock is a fenced code block.
type CodeBlock struct {
	Info  string   // what follows the opening fence, trimmed: the language
	Start int      // index into Lines of the first line inside the fences
	Lines []string // the lines inside the fences
}

// CodeBlocks returns the document's fenced code blocks, in order.
func (d *Document) CodeBlocks() []CodeBlock {
	var out []CodeBlock
	for i := 0; i < len(d.Lines); i++ {
		if !d.Fenced[i] {
			continue
		}
		trimmed := strings.TrimLeft(d.Lines[i], " ")
		fence := fenceOpener(trimmed)
		b := CodeBlock{Info: strings.TrimSpace(trimmed[len(fence):]), Start: i + 1}
		j := i + 1
		for ; j < len(d.Lines) && d.Fenced[j]; j++ {
			if closes(d.Lines[j], fence) {
				break
			}
			b.Lines = append(b.Lines, d.Lines[j])
		}
		out = append(out, b)
		i = j
	}
	return out
}

// Section returns the block of the i-th heading: its line and every line up
// to the next heading of the same or a higher level.
func (d *Document) Section(i int) Block {
	h := d.Headings[i]
	end := len(d.Lines)
	for _, next := range d.Headings[i+1:] {
		if next.Level <= h.Level {
			end = next.Line
			break
		}
	}
	return Block{h.Line, end}
}

// Body returns the text of a block without its first line (the heading).
func (d *Document) Body(b Block) string {
	if b.End <= b.Start+1 {
		return ""
	}
	return strings.Join(d.Lines[b.Start+1:b.End], "\n")
}

// TextOf returns the text of a block, heading included.
func (d *Document) TextOf(b Block) string { return strings.Join(d.Lines[b.Start:b.End], "\n") }

// FindHeading returns the index of the first heading of the given level
// whose title satisfies match, or -1.
func (d *Document) FindHeading(level int, match func(title string) bool) int {
	for i, h := range d.Headings {
		if h.Level == level && match(h.Title) {
			return i
		}
	}
	return -1
}

// Paragraphs returns the Paragraphs outside code blocks: runs of non-blank
// lines, broken by blank lines and headings.
func (d *Document) Paragraphs() []Block {
	var out []Block
	start := -1
	isHeading := make(map[int]bool, len(d.Headings))
	for _, h := range d.Headings {
		isHeading[h.Line] = true
	}
	flush := func(end int) {
		if start >= 0 {
			out = append(out, Block{start, end})
			start = -1
		}
	}
	for i, line := range d.Lines {
		switch {
		case d.Fenced[i] || isHeading[i] || strings.TrimSpace(line) == "":
			flush(i)
		case start < 0:
			start = i
		}
	}
	flush(len(d.Lines))
	return out
}
