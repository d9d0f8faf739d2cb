// Command genclient writes internal/tsclient/client.mjs, the driver
// bundled with the official MCP TypeScript SDK Client of the repository's
// pinned npm install. tsclient runs it through go generate:
//
//	npm ci --ignore-scripts --no-audit --no-fund   # at the repository root
//	go generate ./internal/tsclient
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/tsclient"
)

func main() {
	root := flag.String("root", "../..", "the repository root, which holds the pinned node_modules")
	out := flag.String("out", "client.mjs", "the file to write")
	flag.Parse()
	js, err := tsclient.Build(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genclient:", err)
		os.Exit(1)
	}
	if err := atomicfile.WriteFile(*out, js, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "genclient:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "genclient: wrote %s (%d bytes)\n", *out, len(js))
}
