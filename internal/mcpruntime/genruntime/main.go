// Command genruntime writes the self-contained bundles code2skill embeds,
// from their reviewed entries and the repository's pinned npm install:
// the MCP runtime of strict packages (assets/strict/runtime.mjs, through
// go generate in assets/) and, with -client, the TypeScript SDK Client
// host verification drives (internal/tsclient/client.mjs, through go
// generate in internal/tsclient):
//
//	npm ci --ignore-scripts --no-audit --no-fund   # at the repository root
//	go generate ./assets ./internal/tsclient
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/mcpruntime"
	"github.com/code2skill/code2skill/internal/tsclient"
)

func main() {
	root := flag.String("root", "..", "the directory holding the pinned node_modules")
	out := flag.String("out", "strict/runtime.mjs", "the file to write")
	client := flag.Bool("client", false, "write the TypeScript SDK Client's bundle instead of the strict runtime")
	flag.Parse()
	var js []byte
	var err error
	if *client {
		js, err = tsclient.Build(*root)
	} else {
		js, _, err = mcpruntime.Bundle(mcpruntime.Options{Root: *root, Entry: assets.RuntimeEntry.Bytes()})
	}
	if err == nil {
		err = atomicfile.WriteFile(*out, js, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genruntime:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genruntime: wrote %s (%d bytes)\n", *out, len(js))
}
