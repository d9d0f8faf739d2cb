package strict

import (
	"bytes"
	"errors"
	"io/fs"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// A package whose export profile declares hostRuntime carries the reviewed
// host runtime a stdio host starts, byte for byte, and the binding that
// says what it does per Tool, exactly as compile derives it: what a host
// runs is what was reviewed and what the contract says.
var (
	RuleHostRuntimeAsset   = diag.Register("STRICT_HOST_RUNTIME_ASSET", diag.Error, "portable-host-runtime.mjs differs from the reviewed asset")
	RuleHostRuntimeBinding = diag.Register("STRICT_HOST_RUNTIME_BINDING", diag.Error, "mcp-tool/host-runtime.json is not what compile derives from the contract and the export profile's hostRuntime")
)

// hostRuntimeFiles are the files a package with a host runtime carries.
var hostRuntimeFiles = []string{hostruntime.RuntimeFile, hostruntime.BindingFile}

// checkHostRuntime judges the host runtime files that are present; a
// missing one is the files stage's to report. The binding's limits
// (workflows the runtime cannot record) are warnings on the contract.
func checkHostRuntime(pkg *pkgdir.Package, in *derive.Inputs) []diag.Diagnostic {
	if !hostruntime.Declared(in) {
		return nil
	}
	var out []diag.Diagnostic
	read := func(file string) []byte {
		data, err := pkg.ReadFile(file)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			if d, ok := pkgdir.ReadFinding(file, err); ok {
				out = append(out, d)
			}
		}
		return data
	}
	if data := read(hostruntime.RuntimeFile); data != nil && !assets.HostRuntime.Matches(data) {
		out = append(out, RuleHostRuntimeAsset.New(hostruntime.RuntimeFile,
			"differs from the reviewed portable-host-runtime.mjs (SHA-256 %s); copy the asset unchanged", assets.HostRuntime.SHA256()))
	}
	want, limits := hostruntime.Binding(in)
	out = append(out, limits...)
	if data := read(hostruntime.BindingFile); data != nil && !bytes.Equal(data, want) {
		out = append(out, RuleHostRuntimeBinding.New(hostruntime.BindingFile,
			"differs from what compile derives from the contract and the export profile's hostRuntime; run code2skill compile"))
	}
	return out
}
