// Package mcpruntime builds mcp-tool/runtime.mjs, the self-contained MCP
// runtime every strict-export-v1 package ships: the reviewed entry
// (assets/strict/mcp-runtime-entry.mjs, which re-exports McpServer,
// StdioServerTransport and z) bundled with esbuild, together with the
// pinned @modelcontextprotocol/sdk and zod it imports and their own
// dependencies, into one ES module that imports nothing but node:
// built-ins. A package carrying it runs with no node_modules at all.
//
// The bundle is built at development time from the repository's own pinned
// install ("npm ci" at the repository root) by go generate in assets/, and
// embedded there (assets.MCPRuntime); compile copies those bytes. Bundle is
// deterministic: the same entry and the same install give the same bytes,
// which a test checks against the embedded copy.
//
// The bundled sources carry no licence comments of their own, so esbuild's
// legal-comment handling would keep nothing. Bundle instead prefixes a
// banner naming every bundled package with its version and licence, taken
// from the package.json and LICENSE file of each package the build read,
// followed by each distinct licence text.
//
// internal/tsclient bundles the official SDK Client with its driver the
// same way (Options.EntryDir, About, Define and Require say how that
// bundle differs).
package mcpruntime

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Options configure one build.
type Options struct {
	// Root is the directory holding node_modules, from which the entry's
	// imports resolve (the repository root).
	Root string
	// Entry is the source of the entry module.
	Entry []byte
	// EntryDir is the directory the entry's relative imports resolve
	// from; "" means Root.
	EntryDir string
	// Sourcefile names the entry in messages; "" means
	// mcp-runtime-entry.mjs.
	Sourcefile string
	// About opens the banner: what the bundle is, in a sentence that
	// fits before "in one self-contained ES module"; "" means the strict
	// packages' runtime.
	About string
	// Define replaces global identifiers with JSON values, as esbuild's
	// define does: facts of the build the entry reports, such as the
	// version of the package it bundles.
	Define map[string]string
	// Require gives the bundle a CommonJS require (node's createRequire),
	// for bundled CommonJS packages that require node: built-ins, which an
	// ES module otherwise cannot.
	Require bool
}

// runtimeAbout is the banner's opening for mcp-tool/runtime.mjs.
const runtimeAbout = "mcp-tool/runtime.mjs: the official MCP TypeScript SDK server and zod"

// Package is one npm package the bundle contains.
type Package struct {
	Name    string
	Version string
	License string // the SPDX expression of its package.json
	Text    string // its licence file
}

// Bundle builds the runtime and returns its bytes (banner included) and the
// packages it contains, sorted by name.
func Bundle(opts Options) ([]byte, []Package, error) {
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, nil, err
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules")); err != nil {
		return nil, nil, fmt.Errorf("bundling the MCP runtime: no node_modules in %s (run \"npm ci\" there): %w", root, err)
	}
	resolveDir, sourcefile, about := cmp.Or(opts.EntryDir, root), cmp.Or(opts.Sourcefile, "mcp-runtime-entry.mjs"), cmp.Or(opts.About, runtimeAbout)
	if resolveDir, err = filepath.Abs(resolveDir); err != nil {
		return nil, nil, err
	}
	res := api.Build(api.BuildOptions{
		Stdin: &api.StdinOptions{
			Contents:   string(opts.Entry),
			ResolveDir: resolveDir,
			Sourcefile: sourcefile,
		},
		Define:            opts.Define,
		Banner:            jsBanner(opts.Require),
		AbsWorkingDir:     root,
		Bundle:            true,
		Platform:          api.PlatformNode,
		Format:            api.FormatESModule,
		Engines:           []api.Engine{{Name: api.EngineNode, Version: "20"}},
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LegalComments:     api.LegalCommentsEndOfFile,
		Charset:           api.CharsetUTF8,
		Metafile:          true,
		Outfile:           "runtime.mjs",
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		return nil, nil, fmt.Errorf("bundling %s: %s", sourcefile, res.Errors[0].Text)
	}
	if len(res.OutputFiles) != 1 {
		return nil, nil, fmt.Errorf("bundling %s: esbuild wrote %d files, want 1", sourcefile, len(res.OutputFiles))
	}
	pkgs, err := packages(root, res.Metafile)
	if err != nil {
		return nil, nil, err
	}
	var b bytes.Buffer
	b.WriteString(banner(about, pkgs))
	b.Write(res.OutputFiles[0].Contents)
	return b.Bytes(), pkgs, nil
}

// packages lists the npm packages whose files the build read, from the
// metafile's inputs, with what their package.json and licence file say.
func packages(root, metafile string) ([]Package, error) {
	var meta struct {
		Inputs map[string]json.RawMessage `json:"inputs"`
	}
	if err := canonjson.Unmarshal([]byte(metafile), &meta); err != nil {
		return nil, fmt.Errorf("reading esbuild's metafile: %w", err)
	}
	var dirs []string // package directories, relative to root
	for input := range meta.Inputs {
		if dir, ok := packageDir(input); ok && !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	var out []Package
	for _, dir := range dirs {
		p, err := readPackage(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(out, func(q Package) bool { return q.Name == p.Name && q.Version == p.Version }); i < 0 {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b Package) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Version, b.Version))
	})
	return out, nil
}

// packageDir returns the package directory of a metafile input path such as
// node_modules/@scope/name/dist/x.js: the innermost node_modules entry.
func packageDir(input string) (string, bool) {
	input = filepath.ToSlash(input)
	i := strings.LastIndex(input, "node_modules/")
	if i < 0 {
		return "", false
	}
	rest := strings.Split(input[i+len("node_modules/"):], "/")
	n := 1
	if strings.HasPrefix(rest[0], "@") {
		n = 2
	}
	if len(rest) <= n {
		return "", false
	}
	return path.Join(input[:i+len("node_modules")], path.Join(rest[:n]...)), true
}

// licenceFiles are the names a package's licence file goes by, in the order
// they are looked for.
var licenceFiles = []string{"LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "LICENCE.md", "license", "license.md"}

func readPackage(dir string) (Package, error) {
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return Package{}, fmt.Errorf("reading a bundled package's manifest: %w", err)
	}
	var pj struct {
		Name    string          `json:"name"`
		Version string          `json:"version"`
		License json.RawMessage `json:"license"`
	}
	if err := canonjson.Unmarshal(data, &pj); err != nil {
		return Package{}, fmt.Errorf("reading %s: %w", filepath.Join(dir, "package.json"), err)
	}
	p := Package{Name: pj.Name, Version: pj.Version}
	if err := canonjson.Unmarshal(pj.License, &p.License); err != nil || p.Name == "" || p.Version == "" || p.License == "" {
		return Package{}, fmt.Errorf("%s: a bundled package must name itself, its version and its licence", filepath.Join(dir, "package.json"))
	}
	for _, name := range licenceFiles {
		text, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			p.Text = strings.TrimSpace(strings.ReplaceAll(string(text), "\r\n", "\n"))
			return p, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return Package{}, err
		}
	}
	return Package{}, fmt.Errorf("%s %s carries no licence file; its licence text cannot be kept", p.Name, p.Version)
}

// jsBanner is the code the bundle starts with: a CommonJS require when
// asked for.
func jsBanner(require bool) map[string]string {
	if !require {
		return nil
	}
	return map[string]string{"js": "import { createRequire as __code2skillRequire } from 'node:module';\nconst require = __code2skillRequire(import.meta.url);"}
}

// banner is the comment the bundle starts with: what the file is, the
// packages it holds, and every distinct licence text.
func banner(about string, pkgs []Package) string {
	var b strings.Builder
	b.WriteString("/*!\n")
	b.WriteString(" * " + about + " in one\n")
	b.WriteString(" * self-contained ES module (no imports but node: built-ins), bundled and\n")
	b.WriteString(" * minified by code2skill with esbuild from these packages:\n *\n")
	for _, p := range pkgs {
		fmt.Fprintf(&b, " *   %s %s (%s)\n", p.Name, p.Version, p.License)
	}
	b.WriteString(" *\n * Generated; do not edit. Their licences follow.\n")
	// Packages sharing one licence text (the same copyright notice) print
	// it once, under all their names.
	var texts []string
	owners := map[string][]string{}
	for _, p := range pkgs {
		if _, ok := owners[p.Text]; !ok {
			texts = append(texts, p.Text)
		}
		owners[p.Text] = append(owners[p.Text], p.Name+" "+p.Version)
	}
	for _, text := range texts {
		fmt.Fprintf(&b, " *\n * ---- %s ----\n *\n", strings.Join(owners[text], ", "))
		for _, line := range strings.Split(text, "\n") {
			// A licence must not end the comment early.
			line = strings.ReplaceAll(line, "*/", "* /")
			if line == "" {
				b.WriteString(" *\n")
			} else {
				b.WriteString(" * " + line + "\n")
			}
		}
	}
	b.WriteString(" */\n")
	return b.String()
}
