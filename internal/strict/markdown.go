package strict

import (
	"regexp"
	"strings"
)

// document is a Markdown document read line by line: enough structure for
// the document rules (ATX headings, their sections, paragraphs and fenced
// code blocks), no rendering.
type document struct {
	file     string
	text     string
	lines    []string // without line terminators
	fenced   []bool   // the line belongs to a fenced code block (fences included)
	headings []heading
}

// heading is an ATX heading outside code blocks.
type heading struct {
	level int
	title string // without the #s, trimmed
	line  int    // 0-based index into lines
}

// block is a range of lines [start, end).
type block struct{ start, end int }

var (
	atxHeading   = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)
	closingMarks = regexp.MustCompile(`[ \t]+#+$`)
)

// parseDocument splits a document into lines and finds its headings and
// code blocks.
func parseDocument(file string, data []byte) *document {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	d := &document{file: file, text: text, lines: strings.Split(text, "\n")}
	d.fenced = make([]bool, len(d.lines))
	fence := ""
	for i, line := range d.lines {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			d.fenced[i] = true
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
			continue
		}
		if len(line)-len(trimmed) <= 3 {
			if f := fenceOpener(trimmed); f != "" {
				fence = f
				d.fenced[i] = true
				continue
			}
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			title := strings.TrimSpace(closingMarks.ReplaceAllString(m[2], ""))
			if strings.Trim(title, "#") == "" {
				title = ""
			}
			d.headings = append(d.headings, heading{level: len(m[1]), title: title, line: i})
		}
	}
	return d
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

// section returns the block of the i-th heading: its line and every line up
// to the next heading of the same or a higher level.
func (d *document) section(i int) block {
	h := d.headings[i]
	end := len(d.lines)
	for _, next := range d.headings[i+1:] {
		if next.level <= h.level {
			end = next.line
			break
		}
	}
	return block{h.line, end}
}

// body returns the text of a block without its first line (the heading).
func (d *document) body(b block) string {
	if b.end <= b.start+1 {
		return ""
	}
	return strings.Join(d.lines[b.start+1:b.end], "\n")
}

// textOf returns the text of a block, heading included.
func (d *document) textOf(b block) string { return strings.Join(d.lines[b.start:b.end], "\n") }

// findHeading returns the index of the first heading of the given level
// whose title satisfies match, or -1.
func (d *document) findHeading(level int, match func(title string) bool) int {
	for i, h := range d.headings {
		if h.level == level && match(h.title) {
			return i
		}
	}
	return -1
}

// paragraphs returns the paragraphs outside code blocks: runs of non-blank
// lines, broken by blank lines and headings.
func (d *document) paragraphs() []block {
	var out []block
	start := -1
	isHeading := make(map[int]bool, len(d.headings))
	for _, h := range d.headings {
		isHeading[h.line] = true
	}
	flush := func(end int) {
		if start >= 0 {
			out = append(out, block{start, end})
			start = -1
		}
	}
	for i, line := range d.lines {
		switch {
		case d.fenced[i] || isHeading[i] || strings.TrimSpace(line) == "":
			flush(i)
		case start < 0:
			start = i
		}
	}
	flush(len(d.lines))
	return out
}

// lineOf returns the 1-based line number of a line index, for findings.
func lineOf(i int) int { return i + 1 }
