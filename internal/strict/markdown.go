package strict

import "github.com/code2skill/code2skill/internal/markdown"

// document is a Markdown document of the package, read by the markdown
// package's scanner.
type document struct {
	file string
	*markdown.Document
}

type (
	heading = markdown.Heading
	block   = markdown.Block
)

// parseDocument reads a document of the package.
func parseDocument(file string, data []byte) *document {
	return &document{file: file, Document: markdown.Parse(data)}
}

// lineOf returns the 1-based line number of a line index, for findings.
func lineOf(i int) int { return i + 1 }
