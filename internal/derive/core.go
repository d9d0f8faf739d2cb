package derive

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// Core is the Portable Core of one package as a command loaded it: the
// decoded inputs, what reading them and the structural rules found, and
// the derived views. A command loads it once (Load) and hands it to every
// stage that builds on it; the structural rules run and the views are
// derived at most once, on first use, whichever stage asks first.
//
// A Core is safe for concurrent use. What it returns is shared: read it,
// do not change it.
type Core struct {
	*Inputs

	dir  string
	read diag.List
	err  error
	// sums are the SHA-256 of the inputs as read; "" for an input that
	// was absent or unreadable.
	sums map[string]string

	checkOnce sync.Once
	structure diag.List

	deriveOnce sync.Once
	derived    *Derived
}

// loads counts the calls of Load in this process.
var loads atomic.Int64

// Loads returns how many times Load has read a Portable Core in this
// process. The tests of the commands use it to hold each command to one
// load.
func Loads() int64 { return loads.Load() }

// Err is the failure of the tool Load met, or nil.
func (c *Core) Err() error { return c.err }

// Read returns what reading found that keeps views from being derived.
func (c *Core) Read() *diag.List { return clone(&c.read) }

// Structure returns the findings of the structural rules views need
// (Check), judged once.
func (c *Core) Structure() *diag.List {
	c.checkOnce.Do(func() { c.structure = *Check(c.Inputs) })
	return clone(&c.structure)
}

// Findings returns what reading and the structural rules found: with an
// error among them, no view can be derived.
func (c *Core) Findings() *diag.List {
	l := c.Read()
	l.Merge(c.Structure())
	return l
}

// Sound reports whether the Core has neither a reading error nor a
// structural one: its views can be derived.
func (c *Core) Sound() bool { return !c.Findings().HasErrors() }

// Views returns the derived views, derived once. Call it only when Sound.
func (c *Core) Views() *Derived {
	c.deriveOnce.Do(func() { c.derived = Derive(c.Inputs) })
	return c.derived
}

// Changed returns the first input whose bytes in the package differ from
// those the Core was loaded from ("" when none does): a stage that built
// on the Core must not vouch for a package edited since. Reading an input
// that cannot be read counts as a change.
func (c *Core) Changed() (string, error) {
	for _, f := range inputFiles {
		data, err := pkgdir.ReadFile(filepath.Join(c.dir, filepath.FromSlash(f.name)), 0)
		now := ""
		switch {
		case err == nil:
			now = canonjson.SHA256(data)
		case !errors.Is(err, fs.ErrNotExist):
			if _, ok := pkgdir.ReadFinding(f.name, err); !ok {
				return "", fmt.Errorf("reading %s: %w", f.name, err)
			}
		}
		if now != c.sums[f.name] {
			return f.name, nil
		}
	}
	return "", nil
}

func clone(l *diag.List) *diag.List {
	out := &diag.List{}
	out.Merge(l)
	return out
}
