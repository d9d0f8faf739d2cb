package examples

import (
	"embed"
	"io/fs"
	"path"
)

// The Go twin lives in a directory the go command ignores (its leading
// underscore), and its go.mod is stored as go.mod.txt: a go.mod would make
// the directory a module of its own, which go:embed refuses to reach into.
//
//go:embed all:_seed-library-go
var goFiles embed.FS

// SeedLibraryGoName is the directory name of the Go twin of seed-library.
const SeedLibraryGoName = "seed-library-go"

const (
	goTwinDir    = "_seed-library-go"
	storedGoMod  = "go.mod.txt"
	writtenGoMod = "go.mod"
)

// SeedLibraryGo returns the Go twin of the seed-library example: the same
// Skills and Tools as a core-export-v1 package of the go-stdio runtime
// profile (a Go module pinning the official Go MCP SDK, a Function core
// package, a stdio server built from mcp-tool, go test tests with a fake
// HTTP transport). Its go.mod is at go.mod, as a package has it.
func SeedLibraryGo() fs.FS {
	sub, err := fs.Sub(goFiles, goTwinDir)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return goModFS{sub}
}

// goModFS shows the stored go.mod.txt at the root as go.mod.
type goModFS struct{ inner fs.FS }

func (f goModFS) name(name string) string {
	switch name {
	case writtenGoMod:
		return storedGoMod
	case storedGoMod:
		return "\x00" // hidden: only go.mod names it
	}
	return name
}

func (f goModFS) Open(name string) (fs.File, error) {
	file, err := f.inner.Open(f.name(name))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return file, nil
}

func (f goModFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(f.inner, name)
	if err != nil || path.Clean(name) != "." {
		return entries, err
	}
	for i, e := range entries {
		if e.Name() == storedGoMod {
			entries[i] = renamed{e, writtenGoMod}
		}
	}
	return entries, nil
}

// renamed is a directory entry under another name.
type renamed struct {
	fs.DirEntry
	as string
}

func (r renamed) Name() string { return r.as }
