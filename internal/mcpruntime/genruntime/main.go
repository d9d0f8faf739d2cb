// Command genruntime writes the self-contained MCP runtime of strict
// packages, assets/strict/runtime.mjs, from the reviewed entry and the
// repository's pinned npm install. assets runs it through go generate:
//
//	npm ci --ignore-scripts --no-audit --no-fund   # at the repository root
//	go generate ./assets
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/mcpruntime"
)

func main() {
	root := flag.String("root", "..", "the directory holding the pinned node_modules")
	out := flag.String("out", "strict/runtime.mjs", "the file to write")
	flag.Parse()
	js, pkgs, err := mcpruntime.Bundle(mcpruntime.Options{Root: *root, Entry: assets.RuntimeEntry.Bytes()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "genruntime:", err)
		os.Exit(1)
	}
	if err := atomicfile.WriteFile(*out, js, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genruntime:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genruntime: wrote %s (%d bytes, %d packages)\n", *out, len(js), len(pkgs))
}
