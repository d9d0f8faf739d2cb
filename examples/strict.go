package examples

import (
	"embed"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/examples/equipment-lending/app/client"
)

// The strict sample is a fictional application, a community workshop's
// equipment lending desk, and the strict-export-v1 package a Producer would
// author for its borrowing feature:
//
//	equipment-lending/app/server   the desk's backend (Go, net/http, JSON)
//	equipment-lending/app/client   the borrowing screen's requests
//	equipment-lending/package      the authored package inputs
//	equipment-lending/package-en   the same package declared in English
//	equipment-lending/live-cases   the live calls of its Tools
//
// The package inputs are what a Producer writes by hand: the Portable Core
// (source topology, canonical contract, Host and export profiles), the Tool
// prose of authoring/tool-docs.json, and the four documents. Everything
// else (derived views, compiled runtime, verification) is produced by
// code2skill from them.
var (
	//go:embed equipment-lending/package
	strictPackage embed.FS
	//go:embed equipment-lending/app
	strictSource embed.FS
	//go:embed equipment-lending/live-cases
	strictLiveCases embed.FS
	//go:embed equipment-lending/package-en
	strictPackageEnglish embed.FS
)

// StrictSampleName is the name of the strict sample's package. Its Skill is
// named after it, so the package must be written to a directory of this
// name.
const StrictSampleName = "equipment-lending"

// Facts of the strict sample that a runner needs.
const (
	// StrictSampleOrigin is the only origin of the contract's requests:
	// the desk's default address, as its client declares it
	// (client.DefaultBaseURL). A desk served elsewhere, such as on a free
	// loopback port, is reached through StrictSampleBaseURLVariable: the
	// Host's dispatcher sends each request for this origin to that base
	// URL, with method, path, query, headers and body unchanged.
	StrictSampleOrigin = client.DefaultBaseURL
	// StrictSampleBaseURLVariable names the desk's base URL for the
	// Host's dispatcher (scheme, host and port).
	StrictSampleBaseURLVariable = client.BaseURLVariable
	// StrictSampleTokenVariable holds the member's bearer token, which
	// the Host's dispatcher sends with every request
	// (Authorization: Bearer …). Tools never see it.
	StrictSampleTokenVariable = client.TokenVariable
	// StrictSampleWrite is the capability ID of the sample's loan, the
	// write guarded by a deterministic workflow (StrictSampleWorkflow),
	// which a runtime verification must be authorised to call.
	StrictSampleWrite = "create-equipment-loan"
	// StrictSampleWorkflow is the ID of the deterministic workflow that
	// guards StrictSampleWrite.
	StrictSampleWorkflow = "create-equipment-loan"
	// StrictSampleConfirmedWrite is the capability ID of the sample's
	// return, the write the member must confirm (through elicitation, in
	// the host runtime).
	StrictSampleConfirmedWrite = "return-equipment-loan"
	// StrictSampleRemoval is the capability ID of the sample's removal of a
	// returned loan: the backend answers 204 without a body, and the
	// member's confirmation is the deployer's policy, which no source
	// enforces.
	StrictSampleRemoval = "remove-returned-loan"
)

// StrictSampleWrites returns the capability IDs of the sample's writes,
// which a runtime or host verification must be authorised to call.
func StrictSampleWrites() []string {
	return []string{StrictSampleWrite, StrictSampleConfirmedWrite, StrictSampleRemoval}
}

// StrictSample returns the authored inputs of the strict sample package:
// source-topology.json, canonical-contract.json, export-profile.json,
// host-profile.json, authoring/tool-docs.json, SKILL.md, MCP.zh-CN.md,
// MCP-SETUP.md and references/feature-context.md. Write them to a
// directory named StrictSampleName, then derive and compile it.
func StrictSample() fs.FS {
	return sub(strictPackage, StrictSampleName+"/package")
}

// StrictSampleEnglish returns the authored inputs of the strict sample
// declared in English (documentationLanguage "en"): the Portable Core of
// StrictSample, with its export profile, Tool prose and documents written
// in English, the MCP document named MCP.en.md instead of MCP.zh-CN.md.
func StrictSampleEnglish() fs.FS {
	return overlay{base: StrictSample(), top: sub(strictPackageEnglish, StrictSampleName+"/package-en"),
		hidden: map[string]bool{"MCP.zh-CN.md": true}}
}

// StrictSampleSource returns the sample application's source tree, the
// sources the package's topology authorises: app/server and app/client,
// relative to the tree's root (give that root as --source-root, or map each
// source ID to its directory with --source-map).
func StrictSampleSource() fs.FS {
	return sub(strictSource, StrictSampleName)
}

// StrictSampleLiveCases returns the live calls of the sample's Tools, one
// file per capability (<capabilityId>.json, {"name", "arguments"}). The
// reads hold against the desk's seeded inventory; each write passes on
// what an earlier call of the run returned ({"$result": …}): the loan
// redeems the quote the session was issued, the return ends that loan.
func StrictSampleLiveCases() fs.FS {
	return sub(strictLiveCases, StrictSampleName+"/live-cases")
}

func sub(fsys fs.FS, dir string) fs.FS {
	s, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return s
}

// overlay is the files of top over those of base, without the hidden ones.
type overlay struct {
	base, top fs.FS
	hidden    map[string]bool
}

func (o overlay) Open(name string) (fs.File, error) {
	if o.hidden[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if f, err := o.top.Open(name); err == nil {
		if st, err := f.Stat(); err == nil && !st.IsDir() {
			return f, nil
		}
		f.Close()
	}
	return o.base.Open(name)
}

// ReadDir lists a directory of both trees, top first, without the hidden
// files.
func (o overlay) ReadDir(name string) ([]fs.DirEntry, error) {
	seen := map[string]bool{}
	var out []fs.DirEntry
	for _, fsys := range []fs.FS{o.top, o.base} {
		es, err := fs.ReadDir(fsys, name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		for _, e := range es {
			p := path.Join(name, e.Name())
			if name == "." {
				p = e.Name()
			}
			if !seen[e.Name()] && !o.hidden[p] {
				seen[e.Name()] = true
				out = append(out, e)
			}
		}
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}
