package reach

import (
	_ "embed"
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

// Driver is the recorder written to a directory of its own, for the
// sandbox to show the server read-only.
type Driver struct {
	dir string
	// Path is the recorder's file, absolute and free of symbolic links.
	Path string
}

// WriteDriver writes the node recorder to a new temporary directory. The
// caller removes it with Remove once the server has stopped.
func WriteDriver() (*Driver, error) {
	dir, err := os.MkdirTemp("", "code2skill-reach-")
	if err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the request recorder: %w", err)
	}
	p := filepath.Join(dir, "reach-driver.cjs")
	if err := os.WriteFile(p, driverSource, 0o444); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("writing the request recorder: %w", err)
	}
	return &Driver{dir: dir, Path: p}, nil
}

// Bind shows the recorder's directory to a confined server, read-only.
func (d *Driver) Bind() sandbox.Bind { return sandbox.Bind{Source: d.dir} }

// Remove deletes the recorder's directory.
func (d *Driver) Remove() { os.RemoveAll(d.dir) }
