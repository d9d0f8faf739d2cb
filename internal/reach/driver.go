package reach

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/sandbox"
)

// driverSource is the node recorder (driver.cjs), preloaded into the
// server with node --require.
//
//go:embed driver.cjs
var driverSource []byte

// goRecorderSource is the Go recorder (gorecorder.go), compiled into a
// go-stdio server with go build -overlay.
//
//go:embed gorecorder.go
var goRecorderSource []byte

// GoRecorderFile is where the overlay puts the Go recorder: a file of the
// server's package main, relative to the package root.
const GoRecorderFile = "mcp-tool/zz_code2skill_reach.go"

// WriteGoRecorder writes the Go recorder, without the build constraint
// that keeps it out of code2skill's own build, and the overlay that adds
// it to a go-stdio server's package main (go build -overlay Path), to a
// new temporary directory. The caller removes it with Remove.
func WriteGoRecorder() (*Driver, error) {
	src, ok := bytes.CutPrefix(goRecorderSource, []byte("//go:build ignore\n"))
	if !ok {
		return nil, fmt.Errorf("writing the request recorder: the embedded Go recorder lost its build constraint")
	}
	return writeRecorder(func(dir string) (string, error) {
		rec := filepath.Join(dir, "recorder.go")
		overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.FromSlash(GoRecorderFile): rec}})
		p := filepath.Join(dir, "overlay.json")
		return p, errors.Join(os.WriteFile(rec, src, 0o444), os.WriteFile(p, overlay, 0o444))
	})
}

// Driver is the recorder written to a directory of its own, for the
// sandbox to show the server read-only.
type Driver struct {
	dir string
	// Path is the recorder's file (node) or its overlay (Go), absolute and
	// free of symbolic links.
	Path string
}

// WriteDriver writes the node recorder to a new temporary directory. The
// caller removes it with Remove once the server has stopped.
func WriteDriver() (*Driver, error) {
	return writeRecorder(func(dir string) (string, error) {
		p := filepath.Join(dir, "reach-driver.cjs")
		return p, os.WriteFile(p, driverSource, 0o444)
	})
}

// writeRecorder makes a new temporary directory, free of symbolic links,
// and has write fill it, returning the file the Driver's Path names.
func writeRecorder(write func(dir string) (string, error)) (*Driver, error) {
	dir, err := os.MkdirTemp("", "code2skill-reach-")
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the request recorder: %w", err)
	}
	p, err := write(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("writing the request recorder: %w", err)
	}
	return &Driver{dir: dir, Path: p}, nil
}

// Bind shows the recorder's directory to a confined server, read-only.
func (d *Driver) Bind() sandbox.Bind { return sandbox.Bind{Source: d.dir} }

// Remove deletes the recorder's directory.
func (d *Driver) Remove() { os.RemoveAll(d.dir) }
