package derive

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// ReadInputs reads and decodes the Portable Core inputs of the package in
// dir: canonical-contract.json, source-topology.json and host-profile.json
// (required) and export-profile.json (optional). Every command that judges
// or builds from the Portable Core starts here.
//
// Problems with the inputs themselves (absent, not a regular file, too
// large, malformed, wrong shape) are findings; an input that is missing or
// broken is nil in the result. err is for failures of the tool (a file that
// exists but cannot be read); its findings are still returned.
func ReadInputs(dir string) (*Inputs, *diag.List, error) {
	r := &inputReader{dir: dir}
	in := &Inputs{
		Contract: readInput(r, contract.ContractFile, true, contract.DecodeContract),
		Topology: readInput(r, contract.TopologyFile, true, contract.DecodeTopology),
		Host:     readInput(r, contract.HostProfileFile, true, contract.DecodeHostProfile),
		Export:   readInput(r, contract.ExportProfileFile, false, contract.DecodeExportProfile),
	}
	return in, &r.list, errors.Join(r.errs...)
}

type inputReader struct {
	dir  string
	list diag.List
	errs []error
}

// readInput reads and decodes one input, adding its findings to r.
func readInput[T any](r *inputReader, name string, required bool, decode func(string, []byte) (*T, *diag.List)) *T {
	data, err := pkgdir.ReadFile(filepath.Join(r.dir, filepath.FromSlash(name)), 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if required {
				r.list.Add(RuleInputMissing.New(name, "%s is required", name))
			}
		} else if d, ok := pkgdir.ReadFinding(name, err); ok {
			r.list.Add(d)
		} else {
			r.errs = append(r.errs, fmt.Errorf("reading %s: %w", name, err))
		}
		return nil
	}
	v, l := decode(name, data)
	r.list.Merge(l)
	return v
}
