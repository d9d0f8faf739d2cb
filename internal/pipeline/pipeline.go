// Package pipeline runs the strict flow of a package as ordered, resumable,
// content-addressed stages, and remembers between runs what passed:
//
//	analyze         the Portable Core inputs are read and judged, evidence
//	                resolved against the authorised sources
//	generate        compile writes the runtime, derive the views, and the
//	                documents' markers are refreshed
//	verify          the strict validator (pre-finalization), the offline
//	                probe and the behaviour vectors, each a check record
//	runtime-verify  authorised live calls through the package's own host
//	                runtime (only when the run enables it)
//	host-verify     the Host-phase checks under the declared Host profile,
//	                code2skill playing the reference MCP host (only when the
//	                run enables it)
//	finalize        the verification report built from the records, then
//	                finalize writes the final files
//
// Each stage is a value defined in a file of its own (stage.go lists them
// in order): its fingerprint inputs, its work, and for an optional stage
// the flag that enables it.
//
// A stage re-runs only when its inputs changed: its fingerprint hashes the
// files it reads (the authoring inputs, the package tree, the authorised
// source trees, the records it builds on) and the code2skill version, and a
// completed stage whose fingerprint and outputs are unchanged is skipped.
// --rerun re-runs every selected stage; --only runs some stages, provided
// every stage upstream of them is completed and fresh. A failed stage stops
// the run and invalidates every completed stage downstream of it.
//
// The state lives in a sidecar directory outside the package (by default
// <pkg>.producer-state next to it): run-state.json, the case files the
// operator writes, the check records and their evidence, the live evidence
// and the reports. Every write is atomic, so a crash leaves the previous
// state or the new one; a stage found "running" when the state is loaded
// was interrupted and is marked failed. Timestamps come from an injected
// clock and appear only in the state, never in package files.
//
// Every check record and the finalization the state remembers are tagged
// with the evidence key (internal/attest), which lives outside the package
// and the state directory: records that do not verify, that a stage other
// than the one running their phase wrote, or that are about another
// version of the package, are refused by finalize; a finalization that
// does not verify, or whose final files changed since, is never shown as a
// decision.
//
// Authorisation is per run: runtime-verify and host-verify run only when
// the run enables them, and a write capability is called only when the run
// authorises that capability. Neither is ever read back from the state. Live inputs and
// results are sanitised (credentials, tokens, cookies) before they are
// persisted and hashed.
//
// Nothing here starts a process: the stages reach node only through Steps.
package pipeline

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/code2skill/code2skill/internal/attest"
)

// StateDirSuffix names the default state directory: <pkg><suffix> beside
// the package.
const StateDirSuffix = ".producer-state"

// Pipeline is the strict flow of one package.
type Pipeline struct {
	// Dir is the package directory as the user named it; StateDir the
	// state directory.
	Dir, StateDir string
	Steps         Steps
	// Version identifies the code2skill build (version, Go version, VCS
	// revision); every fingerprint includes it, so a new build re-runs
	// every stage.
	Version string
	// Now is the clock; timestamps appear only in the state.
	Now func() time.Time
	// Getenv reads code2skill's own environment (the values of variables
	// the package declares, credentials a live case names).
	Getenv func(string) string
	// Progress receives one line per stage with its duration; nil for none.
	Progress io.Writer
	// Key is the evidence key. Every check record and the finalization the
	// pipeline stores are tagged with it, and are relied on only while
	// their tag verifies: a record written or edited by hand, or tagged on
	// another machine, counts for nothing. Run needs a key; Status without
	// one shows no decision.
	Key *attest.Key

	abs      string // the package, absolute and free of symbolic links
	stateAbs string // the state directory, absolute
}

// UsageError is a request the pipeline refuses: a flag combination that
// makes no sense, a stage that cannot run yet, a package not initialized.
// The command line exits with its usage code.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// DefaultStateDir returns the default state directory of the package dir:
// <dir>.producer-state beside it.
func DefaultStateDir(dir string) string {
	clean := filepath.Clean(dir)
	return filepath.Join(filepath.Dir(clean), filepath.Base(clean)+StateDirSuffix)
}

// FeatureID returns the feature ID of the package: its directory name as
// the user named it (not where a link leads), the name its Skill installs
// under.
func (p *Pipeline) FeatureID() string {
	if abs, err := filepath.Abs(p.Dir); err == nil {
		return filepath.Base(abs)
	}
	return filepath.Base(p.abs)
}

// resolve makes the package and state paths absolute and checks that the
// state directory stays outside the package (and the package outside it):
// the package must remain portable, and the state must never be hashed as
// package content.
func (p *Pipeline) resolve() error {
	if p.Now == nil {
		p.Now = time.Now
	}
	if p.Getenv == nil {
		p.Getenv = os.Getenv
	}
	if p.StateDir == "" {
		p.StateDir = DefaultStateDir(p.Dir)
	}
	abs, err := absolute(p.Dir)
	if err != nil {
		return err
	}
	stateAbs, err := absolute(p.StateDir)
	if err != nil {
		return err
	}
	if within(stateAbs, abs) {
		return usagef("the state directory %s is inside the package; it must stay outside the portable package", p.StateDir)
	}
	if within(abs, stateAbs) {
		return usagef("the package %s is inside the state directory %s", p.Dir, p.StateDir)
	}
	if p.Key != nil && p.Key.Path != "" {
		keyAbs, err := absolute(p.Key.Path)
		if err != nil {
			return err
		}
		if within(keyAbs, abs) || within(keyAbs, stateAbs) {
			return usagef("the evidence key %s lies inside the package or its state directory; keep it where neither is (the default is in your configuration directory)", p.Key.Path)
		}
	}
	p.abs, p.stateAbs = abs, stateAbs
	return nil
}

// absolute returns path absolute and, as far as it exists, free of symbolic
// links, so that containment checks compare real locations.
func absolute(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	// Resolve the longest existing prefix; the rest does not exist yet.
	rest := ""
	for cur := abs; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest), nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// now returns the clock's time in the state's form: UTC, milliseconds, Z.
func (p *Pipeline) now() string { return stamp(p.Now()) }

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// statePath returns the absolute path of a file of the state directory.
func (p *Pipeline) statePath(rel string) string {
	return filepath.Join(p.stateAbs, filepath.FromSlash(rel))
}

// pkgPath returns the absolute path of a file of the package.
func (p *Pipeline) pkgPath(rel string) string {
	return filepath.Join(p.abs, filepath.FromSlash(rel))
}

func (p *Pipeline) progress(format string, args ...any) {
	if p.Progress != nil {
		fmt.Fprintf(p.Progress, format+"\n", args...)
	}
}
