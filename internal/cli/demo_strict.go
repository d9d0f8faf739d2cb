package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"time"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/owned"
	"github.com/code2skill/code2skill/internal/pipeline"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

const defaultStrictDemoDir = "code2skill-strict-demo"

// strictSample is a fictional sample application the strict demo runs on:
// the strict package a Producer authored for one of its features, the
// application's source (the authorised roots the package's topology names,
// relative to Source), and its backend, which the demo serves in-process.
type strictSample struct {
	// Name is the package directory's name (its Skill's name).
	Name string
	// Package holds the authored package: the Portable Core inputs, the
	// tool docs and the four documents.
	Package fs.FS
	// Source holds the application's source tree; each topology source's
	// root is a directory in it.
	Source fs.FS
	// Backend serves the application's API.
	Backend func() http.Handler
	// Origin is the allowed runtime origin of the contract the backend
	// stands for; the demo binds it to the loopback port it serves on.
	Origin string
	// BaseURLVariable, when the package declares one, names the variable
	// that carries the backend's base URL to the package instead.
	BaseURLVariable string
	// Writes are the write capabilities the demo authorises for its one
	// runtime verification.
	Writes []string
	// LiveCases are the live cases, by capability ID, as the operator
	// would write them into the state directory.
	LiveCases map[string][]byte
	// Env are further values for variables the package declares
	// (credentials the sample backend accepts, fictional).
	Env map[string]string
	// HostVerify runs host verification too: the package carries a host
	// runtime, and its Host profile is one a standard stdio host running
	// it can meet.
	HostVerify bool
}

// strictSampleApp returns the sample application the demo runs on: the
// bundled one (demo_strict_sample.go). It is a variable so that tests can
// run the demo on a sample of their own.
var strictSampleApp = equipmentLendingSample

// runStrictDemo writes the sample application and its strict package under
// dir, serves the sample backend on a loopback port in-process, runs the
// pipeline with runtime and host verification enabled and the sample's
// writes authorised for this one run (the host env holding the backend's
// address and the member's token, as a host's MCP configuration would),
// stops the backend and prints the per-capability verification.
func runStrictDemo(ctx context.Context, stdio *Stdio, c *command, format *formatFlag, dir string, force bool) int {
	sample := strictSampleApp()
	pkgDir := filepath.Join(dir, sample.Name)
	srcDir := filepath.Join(dir, "source")
	files, err := strictSampleFiles(sample)
	if err != nil {
		fmt.Fprintf(stdio.Err, "code2skill demo --strict: %v\n", err)
		return ExitFailure
	}
	var conflict *owned.ConflictError
	switch err := owned.Write(dir, demoManifest, files, force); {
	case errors.Is(err, owned.ErrNotEmpty):
		return usageError(stdio, c, "%s exists and is not empty; choose another directory, or pass --force to refresh a previous demo there", dir)
	case errors.As(err, &conflict):
		return usageError(stdio, c, "%v; nothing was written", err)
	case err != nil:
		fmt.Fprintf(stdio.Err, "code2skill demo --strict: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintf(stdio.Err, "wrote the sample application's source to %s and its strict package to %s\n", srcDir, pkgDir)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(stdio.Err, "code2skill demo --strict: serving the sample backend: %v\n", err)
		return ExitFailure
	}
	srv := &http.Server{Handler: sample.Backend(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdio.Err, "serving the sample backend on %s for this run\n", base)
	stop := func() {
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shut)
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stdio.Err, "code2skill demo --strict: the sample backend stopped: %v\n", err)
		}
		fmt.Fprintln(stdio.Err, "stopped the sample backend")
	}

	key, err := (&evidenceKeyFlag{}).load(true)
	if err != nil {
		stop()
		return keyFailure(stdio, c, err)
	}
	p := &pipeline.Pipeline{Dir: pkgDir, Steps: pipelineSteps(), Version: buildIdentity(), Progress: stdio.Err, Key: key}
	pc := &pipelineCommand{c: c, stdio: stdio, format: format, p: p, sub: "run"}
	srcMaps, err := sourceMaps(pkgDir, srcDir)
	if err != nil {
		stop()
		return pc.fail(err)
	}
	if _, err := p.Init(pipeline.InitOptions{SourceMaps: srcMaps}); err != nil {
		stop()
		return pc.fail(err)
	}
	cases := sample.LiveCases
	var caseFiles []atomicfile.File
	for _, id := range sortedIDs(cases) {
		caseFiles = append(caseFiles, atomicfile.File{Path: pipeline.LiveCasesDir + "/" + id + ".json", Data: cases[id], Perm: 0o644})
	}
	if err := atomicfile.WriteAll(pipeline.DefaultStateDir(pkgDir), caseFiles); err != nil {
		stop()
		return pc.fail(err)
	}
	opts := pipeline.RunOptions{EnableRuntimeVerify: true, AuthorizeWrites: sample.Writes, Env: map[string]string{}}
	if sample.HostVerify {
		opts.EnableHostVerify, opts.HostEnv = true, map[string]string{}
	}
	for k, v := range sample.Env {
		opts.Env[k] = v
		if opts.HostEnv != nil {
			opts.HostEnv[k] = v
		}
	}
	if sample.BaseURLVariable != "" {
		opts.Env[sample.BaseURLVariable] = base
		if opts.HostEnv != nil {
			opts.HostEnv[sample.BaseURLVariable] = base
		}
	} else {
		opts.Origins = map[string]string{sample.Origin: base}
	}
	rep, err := p.Run(ctx, opts)
	stop()
	if rep == nil {
		return pc.fail(err)
	}
	code := pc.printPipeline(rep, err)
	if err != nil {
		pc.fail(err)
		return ExitFailure
	}
	return code
}

// strictSampleFiles are the files the strict demo writes: the source tree
// under source/ and the authored package under <name>/. They are written
// all at once, and --force replaces only these (unless changed since):
// what the pipeline derived, compiled and recorded beside them stays.
func strictSampleFiles(sample *strictSample) ([]atomicfile.File, error) {
	var files []atomicfile.File
	for _, tree := range []struct {
		prefix string
		fsys   fs.FS
	}{{"source", sample.Source}, {sample.Name, sample.Package}} {
		err := fs.WalkDir(tree.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(tree.fsys, p)
			files = append(files, atomicfile.File{Path: tree.prefix + "/" + p, Data: data, Perm: 0o644})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("reading the sample application: %w", err)
		}
	}
	return files, nil
}

// sourceMaps maps every source of the package's topology to its root
// under srcDir.
func sourceMaps(pkgDir, srcDir string) (map[string]string, error) {
	data, err := pkgdir.ReadFile(filepath.Join(pkgDir, contract.TopologyFile), 0)
	if err != nil {
		return nil, err
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", contract.TopologyFile, err)
	}
	abs, err := filepath.Abs(srcDir)
	if err != nil {
		return nil, err
	}
	maps := map[string]string{}
	sources, _ := canonjson.Resolve(doc, "/sources")
	list, _ := sources.(canonjson.Array)
	for _, s := range list {
		id, _ := canonjson.Resolve(s, "/sourceId")
		root, _ := canonjson.Resolve(s, "/root")
		idStr, _ := id.(canonjson.String)
		rootStr, _ := root.(canonjson.String)
		if idStr != "" && rootStr != "" {
			maps[string(idStr)] = filepath.Join(abs, filepath.FromSlash(string(rootStr)))
		}
	}
	return maps, nil
}

func sortedIDs(m map[string][]byte) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}
