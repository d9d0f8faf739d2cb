package pipeline

import (
	"bytes"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/attest"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/hostruntime"
	"github.com/code2skill/code2skill/internal/livecall"
)

// Scope digests say which capabilities and workflows a change of the
// package touches, so that a change re-verifies at runtime and on the Host
// only what it touched. A capability's digest covers exactly:
//
//   - its entry in the canonical contract and each workflow it belongs to;
//   - its own compiled code: its entry in the Function core's table, its
//     Function and its Tool registration (compile.Slices), which carry its
//     authored title and description;
//   - its live case, and the digests of the capabilities whose results
//     the case passes on (livecall references);
//   - what every scope shares: the contract without its capabilities and
//     workflows, the export and Host profiles, the compiled runtime
//     without the capabilities' own code, every other package file a
//     server may load, and the code2skill build.
//
// A workflow's digest covers its contract entry and its members' digests.
// Host scopes add MCP-SETUP.md, which registers the server with a host.
// Documents, derived views, the source topology and the final files are
// not part of any digest: a live call never reads them.

// scopeMode is how the compiled code entered the digests: sliced when the
// runtime on disk is what compile produces from the package's inputs;
// otherwise the runtime on disk is shared as a whole.
const (
	scopeSliced = "sliced"
	scopeWhole  = "whole-runtime"
)

// scopeDigests returns the digest of each capability and workflow
// (attest.CapabilityScope, attest.WorkflowScope) for phase (PhaseRuntime
// or PhaseHost); nil when the package cannot be read or compiled as it is,
// when no earlier check can be kept.
func (r *runner) scopeDigests(phase string) (map[string]string, error) {
	p := r.p
	if err := r.core.Err(); err != nil {
		return nil, err
	}
	in := r.core.Inputs
	if !r.core.Sound() || in.Contract == nil || in.Contract.Raw == nil {
		return nil, nil
	}
	comp, err := r.compilation()
	if err != nil {
		return nil, err
	}
	if comp.res == nil {
		return nil, nil
	}
	res, compiled := comp.res, comp.files
	mode, runtimeShared, err := r.runtimeDigest(res, compiled)
	if err != nil {
		return nil, err
	}
	doc, _ := contract.CanonicalDocument(in.Contract.Raw)
	root, ok := doc.(*canonjson.Object)
	if !ok {
		return nil, nil
	}
	sharedContract := canonjson.Clone(root).(*canonjson.Object)
	sharedContract.Delete("capabilities")
	sharedContract.Delete("workflows")
	shared := []string{
		"code2skill " + stringDigest(p.Version),
		"phase " + phase,
		"contract " + canonjson.Digest(sharedContract),
		"runtime " + mode + " " + runtimeShared,
	}
	profiles := []string{contract.ExportProfileFile, contract.HostProfileFile}
	if phase == PhaseHost {
		profiles = append(profiles, "MCP-SETUP.md")
	}
	for _, f := range profiles {
		d, err := fileDigest(p.pkgPath(f))
		if err != nil {
			return nil, err
		}
		shared = append(shared, "file "+f+" "+d)
	}
	others, err := r.otherFiles(compiled)
	if err != nil {
		return nil, err
	}
	shared = append(shared, "other-files "+others)

	entries := map[string]canonjson.Value{}
	for _, group := range []struct{ member, id string }{{"capabilities", "/capabilityId"}, {"workflows", "/workflowId"}} {
		arr, _ := root.At(group.member).(canonjson.Array)
		for _, e := range arr {
			id, _ := canonjson.Resolve(e, group.id)
			if s, ok := id.(canonjson.String); ok {
				entries[group.member+"/"+string(s)] = e
			}
		}
	}
	out := map[string]string{attest.PackageScope: stringDigest(strings.Join(shared, "\n"))}
	for _, cp := range in.Contract.Capabilities {
		lines := slices.Clone(shared)
		lines = append(lines, "capability "+digestOf(entries["capabilities/"+cp.ID]))
		if mode == scopeSliced {
			lines = append(lines, "code "+res.Slices.Capabilities[cp.ID])
		}
		for _, w := range in.Contract.Workflows {
			if slices.Contains(w.CapabilityIDs, cp.ID) || w.EntryCapabilityID == cp.ID {
				lines = append(lines, "workflow "+w.ID+" "+digestOf(entries["workflows/"+w.ID]))
			}
		}
		caseFile := p.statePath(LiveCasesDir + "/" + cp.ID + ".json")
		d, err := fileDigest(caseFile)
		if err != nil {
			return nil, err
		}
		lines = append(lines, "live-case "+d)
		for _, ref := range caseReferences(caseFile) {
			target, ok := out[attest.CapabilityScope(ref)]
			if !ok {
				target = "not-earlier"
			}
			lines = append(lines, "passes-on "+ref+" "+target)
		}
		out[attest.CapabilityScope(cp.ID)] = stringDigest(strings.Join(lines, "\n"))
	}
	for _, w := range in.Contract.Workflows {
		lines := slices.Clone(shared)
		lines = append(lines, "workflow "+digestOf(entries["workflows/"+w.ID]))
		for _, id := range append([]string{w.EntryCapabilityID}, w.CapabilityIDs...) {
			lines = append(lines, "member "+id+" "+out[attest.CapabilityScope(id)])
		}
		out[attest.WorkflowScope(w.ID)] = stringDigest(strings.Join(lines, "\n"))
	}
	return out, nil
}

func digestOf(v canonjson.Value) string {
	if v == nil {
		return digestMissing
	}
	return canonjson.Digest(v)
}

// runtimeDigest digests the compiled runtime as the scopes share it. When
// every file compile produces is on disk as compile produced it, the
// capabilities' own code is left to their digests (scopeSliced);
// otherwise the runtime on disk, whatever made it, is shared as a whole.
// Both phases share it until a stage runs.
func (r *runner) runtimeDigest(res *compile.Result, compiled map[string][]byte) (mode, digest string, err error) {
	d, err := r.cached("scope:runtime", func() (string, error) {
		mode, digest, err := readRuntimeDigest(r.p, res, compiled)
		return mode + " " + digest, err
	})
	mode, digest, _ = strings.Cut(d, " ")
	return mode, digest, err
}

func readRuntimeDigest(p *Pipeline, res *compile.Result, compiled map[string][]byte) (mode, digest string, err error) {
	sliced := res.Compiled() && res.Slices != nil
	for path, want := range compiled {
		got, err := readRegular(p.pkgPath(path))
		if err != nil || !bytes.Equal(got, want) {
			sliced = false
			break
		}
	}
	if sliced {
		return scopeSliced, res.Slices.Shared, nil
	}
	var lines []string
	for _, f := range runtimeFiles {
		d, err := fileDigest(p.pkgPath(f))
		if err != nil {
			return "", "", err
		}
		lines = append(lines, f+" "+d)
	}
	return scopeWhole, stringDigest(strings.Join(lines, "\n")), nil
}

// runtimeFiles are the files compile may produce.
var runtimeFiles = []string{compile.FunctionCoreFile, compile.AdapterFile, compile.RuntimeFile, compile.NormalizerFile,
	compile.DispatcherFile, compile.GuardFile, hostruntime.BindingFile, hostruntime.RuntimeFile}

// otherFiles digests the package files no scope digest covers otherwise
// and a server may load: everything but the Portable Core's files, the
// authored Tool prose, the compiled runtime, the derived views, the
// documents (Markdown) and the final files.
func (r *runner) otherFiles(compiled map[string][]byte) (string, error) {
	skip := slices.Concat(authoringFiles, []string{toolDocsFile, compile.ReportFile}, runtimeFiles, finalFiles, derive.ViewPaths)
	for path := range compiled {
		skip = append(skip, path)
	}
	return r.cached("scope:other-files", func() (string, error) {
		return treeDigest(r.p.abs, nil, func(rel string) bool {
			return slices.Contains(skip, rel) || strings.HasSuffix(rel, ".md")
		})
	})
}

// caseReferences returns the capabilities whose results a live case file
// passes on, in order; none when it cannot be read (its digest covers it).
func caseReferences(path string) []string {
	data, err := readRegular(path)
	if err != nil {
		return nil
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		return nil
	}
	args, _ := canonjson.Resolve(doc, "/arguments")
	o, ok := args.(*canonjson.Object)
	if !ok {
		return nil
	}
	refs, _ := livecall.References(o)
	var out []string
	for _, ref := range refs {
		if !slices.Contains(out, ref.CapabilityID) {
			out = append(out, ref.CapabilityID)
		}
	}
	return out
}
