package strict

import (
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contamination"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// generated checks, after finalization, that the Function core, the MCP
// adapter and the assets compile copies are byte for byte what compile
// generates now from the Portable Core and authoring/tool-docs.json: a
// runtime edited by hand after it was compiled, verified and finalized is
// not the runtime the evidence is about. Before finalization the flow
// compiles again anyway, and hand-written runtimes may still be judged by
// the runtime rules.
func (v *validator) generated(in *derive.Inputs, sound bool) {
	switch {
	case v.opts.PreFinalize:
		v.skip(StageGenerated, "checked in final mode")
		return
	case !sound:
		v.skip(StageGenerated, unsound)
		return
	}
	var ds []diag.Diagnostic
	var toolDocs []byte
	if data, ok := v.read(compile.ToolDocsFile, pkgdir.MaxInputSize, &ds); ok {
		toolDocs = data
	}
	ds = append(ds, compile.Verify(in, toolDocs, func(p string) ([]byte, bool) {
		return v.read(p, pkgdir.MaxInputSize, &ds)
	})...)
	v.record(StageGenerated, "", ds)
}

// contamination runs the contamination gate over every file of the
// package: no secret file, credential, home-directory or machine path,
// private host, and, with the sources located, nothing of the sources the
// contract does not declare, their secrets included. The gate runs here
// rather than being trusted from the manifest's sanitized: true, which
// anyone can write.
func (v *validator) contamination(in *derive.Inputs) {
	if in.Contract == nil {
		v.skip(StageContamination, unsound)
		return
	}
	scanner, ds := contamination.NewScanner(contamination.Options{
		Contract: in.Contract, Export: in.Export, Topology: in.Topology, Sources: v.opts.Sources,
		MachinePaths: contamination.MachinePaths(v.dir, v.pkg.Dir()),
	})
	found, err := scanner.ScanPackage(v.pkg, nil)
	if err != nil {
		v.fail(err)
		return
	}
	note := ""
	if scanner.SourcesScanned() == nil {
		note = "sources not scanned: no --source-root or --source-map"
	}
	v.record(StageContamination, note, append(ds, found...))
}
