package derive

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// inputFiles are the Portable Core inputs, in the order they are read.
// export-profile.json is optional and no view depends on it.
var inputFiles = []struct {
	name     string
	required bool
}{
	{contract.ContractFile, true},
	{contract.TopologyFile, true},
	{contract.HostProfileFile, true},
	{contract.ExportProfileFile, false},
}

// Load reads and decodes the Portable Core inputs of the package in dir:
// canonical-contract.json, source-topology.json and host-profile.json
// (required) and export-profile.json (optional). Every command that judges
// or builds from the Portable Core starts here, once.
//
// The Core's Read findings are those that keep views from being derived:
// inputs that are absent, not regular files, too large, malformed or of the
// wrong shape. An input that is missing or unreadable is nil in it.
// Everything else reading noticed (the export profile's problems, format
// findings views do not depend on) is kept in Inputs.Deferred for
// check-contract. err is for failures of the tool (a file that exists but
// cannot be read); the Core is returned with it, and Err says it again to
// the stages the Core is handed to.
func Load(dir string) (*Core, error) {
	loads.Add(1)
	var optional diag.List
	var errs []error
	files := map[string][]byte{}
	unreadable := map[string]bool{}
	core := &Core{dir: dir}
	for _, f := range inputFiles {
		data, err := pkgdir.ReadFile(filepath.Join(dir, filepath.FromSlash(f.name)), 0)
		switch {
		case err == nil:
			files[f.name] = data
			continue
		case errors.Is(err, fs.ErrNotExist):
			continue // decode reports a missing required input
		}
		unreadable[f.name] = true
		if d, ok := pkgdir.ReadFinding(f.name, err); ok {
			if f.required {
				core.read.Add(d)
			} else {
				optional.Add(d) // no view needs it: check-contract's
			}
		} else {
			errs = append(errs, fmt.Errorf("reading %s: %w", f.name, err))
		}
	}
	in, l := decode(files, unreadable)
	core.read.Merge(l)
	in.Deferred.Merge(&optional)
	core.Inputs, core.sums, core.err = in, sums(files), errors.Join(errs...)
	return core, core.err
}

// sums returns the SHA-256 of each input's bytes.
func sums(files map[string][]byte) map[string]string {
	out := make(map[string]string, len(files))
	for name, data := range files {
		out[name] = canonjson.SHA256(data)
	}
	return out
}

// Decode decodes the Portable Core inputs from their bytes: files maps an
// input's file name to its content; an input without an entry is absent.
// It returns the inputs and reading findings Load returns for the same
// files.
func Decode(files map[string][]byte) (*Inputs, *diag.List) {
	return decode(files, nil)
}

// decode decodes files; the inputs named in unreadable could not be read
// (already reported) and are not reported missing.
func decode(files map[string][]byte, unreadable map[string]bool) (*Inputs, *diag.List) {
	var list diag.List
	in := &Inputs{}
	for _, f := range inputFiles {
		data, ok := files[f.name]
		if !ok {
			if f.required && !unreadable[f.name] {
				list.Add(contractcheck.RuleInputMissing.New(f.name, "%s is required", f.name))
			}
			continue
		}
		switch f.name {
		case contract.ContractFile:
			c, l := contract.DecodeContract(f.name, data)
			list.Merge(l)
			if c != nil {
				in.Contract = c
				in.Deferred.Merge(&c.Deferred)
			}
		case contract.TopologyFile:
			t, l := contract.DecodeTopology(f.name, data)
			list.Merge(l)
			if t != nil {
				in.Topology = t
				in.Deferred.Merge(&t.Deferred)
			}
		case contract.HostProfileFile:
			h, l := contract.DecodeHostProfile(f.name, data)
			list.Merge(l)
			if h != nil {
				in.Host = h
				in.Deferred.Merge(&h.Deferred)
			}
		case contract.ExportProfileFile:
			// No view depends on the export profile: all its findings are
			// check-contract's.
			p, l := contract.DecodeExportProfile(f.name, data)
			in.Deferred.Merge(l)
			if p != nil {
				in.Export = p
				in.Deferred.Merge(&p.Deferred)
			}
		}
	}
	return in, &list
}
