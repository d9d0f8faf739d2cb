// Command code2skill scaffolds, derives, validates, probes and finalizes
// packages that turn an application feature into Agent Skills, Functions and
// a stdio MCP server. Run "code2skill --help" for the subcommands.
package main

import (
	"os"

	"github.com/code2skill/code2skill/internal/cli"
)

func main() {
	os.Exit(cli.Main())
}
