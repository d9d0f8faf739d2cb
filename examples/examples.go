// Package examples holds the bundled example packages, embedded so that
// "code2skill demo" can write one anywhere. The business in them is
// fictional.
package examples

import (
	"embed"
	"io/fs"
)

// The patterns list what a package ships; node_modules, which may exist
// here after npm ci, is deliberately not among them.
//
//go:embed seed-library/*.json seed-library/*.md seed-library/*.mjs
//go:embed seed-library/function-core seed-library/mcp-tool seed-library/skills seed-library/tests
var files embed.FS

// SeedLibraryName is the directory name of the seed-library example.
const SeedLibraryName = "seed-library"

// SeedLibrary returns the seed-library example: a core-export-v1 package with
// one Skill per goal (find seed varieties, reserve seed packets), an HTTP read
// Tool and a write Tool that honours dry-run, base URLs from per-service
// environment variables, and offline tests that mock fetch.
func SeedLibrary() fs.FS {
	sub, err := fs.Sub(files, SeedLibraryName)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}
