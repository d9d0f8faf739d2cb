package strict

import (
	"path/filepath"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// packageFacts projects a package for the document rules: the contract's
// Tools and policies, the fields of the derived schemas, the host
// runtime's variables, and the error codes the contract records and the
// runtime returns. dir is the package directory; read returns a package
// file's bytes, or ok false.
func packageFacts(name string, in *derive.Inputs, views *derive.Derived, read func(file string) ([]byte, bool)) *facts {
	f := newFacts(in.Contract, in.Export, name, views.Marker())
	if hostruntime.Declared(in) {
		f.hostRuntime = true
		for _, hv := range hostruntime.Variables(in) {
			f.host = append(f.host, hv.Name)
		}
	}
	f.addSchemas(views.SchemaContract)
	f.errorCodes = knownErrorCodes(read)
	return f
}

// knownErrorCodes returns the error codes a document may name: the
// UPPER_SNAKE words of the contract (the source's own codes, which its
// descriptions and evidence record) and the codes the runtime returns (the
// reviewed assets and the library every compiled Function core ends with).
func knownErrorCodes(read func(file string) ([]byte, bool)) map[string]bool {
	codes := map[string]bool{}
	if data, ok := read(contract.ContractFile); ok {
		errorCodesIn(string(data), codes)
	}
	for _, a := range assets.Runtime() {
		if a.Profile() == assets.StrictProfile {
			addRuntimeCodes(a.Bytes(), codes)
		}
	}
	addRuntimeCodes(compile.CoreLibrary(), codes)
	return codes
}

// DocumentDisagreements returns what the package's documents state that
// its contract does not hold: requiredness and policy restatements the
// other way round, stale bounds and static values, error codes and Tools
// the contract and runtime do not know. Each is an error at the document's
// line. It is what a marker must never be refreshed over: the documents
// describe the previous contract until they are corrected. dir is the
// package directory; in and views are its decoded inputs and derived views.
func DocumentDisagreements(dir string, in *derive.Inputs, views *derive.Derived) []diag.Diagnostic {
	pkg, _, err := pkgdir.Open(dir)
	if err != nil || pkg == nil {
		return nil
	}
	read := func(file string) ([]byte, bool) {
		if !pkg.Has(file) {
			return nil, false
		}
		data, err := pkgdir.ReadFile(filepath.Join(pkg.Dir(), filepath.FromSlash(file)), readLimit(file))
		return data, err == nil
	}
	f := packageFacts(filepath.Base(pkg.Dir()), in, views, read)
	var out []diag.Diagnostic
	for _, file := range Documents(f.lang.tag) {
		if data, ok := read(file); ok {
			d := parseDocument(file, data)
			out = append(out, restatements(d, f)...)
			out = append(out, staleStatements(d, f)...)
		}
	}
	return out
}
