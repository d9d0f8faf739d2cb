package derive

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// A legacy package has no canonical contract: it was authored bundle-first,
// and capability-bundle.json is its input rather than a view. Its views are
// the two derived from the bundle alone, the mirror in function-core/ and
// the draft; the other eight derive from the Portable Core it lacks.
//
//	if legacy, err := derive.IsLegacy(dir); err == nil && legacy {
//		b, findings, err := derive.ReadLegacy(dir)
//		if findings.Merge(derive.CheckBundle(b)); !findings.HasErrors() {
//			views := derive.LegacyViews(b) // the mirror and the draft
//		}
//	}

// IsLegacy reports whether the package in dir is a legacy package: nothing
// is at canonical-contract.json, and something is at capability-bundle.json.
// Anything at the contract's path, even a directory or a link, makes the
// package a vNext one, whose reading then reports what is wrong with it.
func IsLegacy(dir string) (bool, error) {
	for _, f := range []struct {
		name   string
		exists bool // what the file's presence must be for a legacy package
	}{{contract.ContractFile, false}, {BundleFile, true}} {
		_, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f.name)))
		switch {
		case err == nil:
			if !f.exists {
				return false, nil
			}
		case errors.Is(err, fs.ErrNotExist):
			if f.exists {
				return false, nil
			}
		default:
			return false, fmt.Errorf("looking for %s: %w", f.name, err)
		}
	}
	return true, nil
}

// legacyIgnored are the Portable Core inputs other than the contract: a
// legacy package does not read them.
var legacyIgnored = []string{contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile}

// ReadLegacy reads and decodes the capability bundle of the legacy package
// in dir. The bundle is nil when it could not be read or is not JSON.
//
// Every finding of decoding is returned, including those a vNext package
// defers to check-contract (unknown fields, values outside the vocabularies
// the draft does not branch on): a legacy package has no contract for
// check-contract to judge, so derive is the only judge of its bundle. A
// Portable Core input that is present but not read is a warning. err is for
// failures of the tool, as with Load.
func ReadLegacy(dir string) (*contract.Bundle, *diag.List, error) {
	var list diag.List
	for _, name := range legacyIgnored {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			list.Add(RuleLegacyIgnoredInput.New(name,
				"%s is not read: without %s the package is a legacy one, derived from %s alone",
				name, contract.ContractFile, BundleFile))
		}
	}
	data, err := pkgdir.ReadFile(filepath.Join(dir, filepath.FromSlash(BundleFile)), 0)
	if err != nil {
		if d, ok := pkgdir.ReadFinding(BundleFile, err); ok {
			list.Add(d)
			return nil, &list, nil
		}
		return nil, &list, fmt.Errorf("reading %s: %w", BundleFile, err)
	}
	b, l := DecodeBundle(data)
	list.Merge(l)
	return b, &list, nil
}

// DecodeBundle decodes a legacy package's capability bundle from its bytes
// and returns it with what ReadLegacy reports about it: every finding of
// decoding, deferred ones included.
func DecodeBundle(data []byte) (*contract.Bundle, *diag.List) {
	b, l := contract.DecodeBundle(BundleFile, data)
	if b != nil {
		l.Merge(&b.Deferred)
	}
	return b, l
}

// LegacyViews derives the views of a legacy package from its bundle:
// function-core/capability-bundle.json, the bundle re-encoded by the one
// encoder every view uses (equal as JSON to the bundle, and byte-equal to it
// when derive wrote it), and capability-draft.json, built by the same code
// as a vNext package's draft. Call it only when CheckBundle reports no
// error.
func LegacyViews(b *contract.Bundle) []View {
	return []View{
		{FunctionBundleFile, canonjson.Encode(b.Raw)},
		{DraftFile, canonjson.Encode(draft(b.RecordingID, b.Capabilities, b.Handoffs))},
	}
}
