package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/golden"
)

// TestCommandReference keeps docs/commands.md, the command reference,
// equal to the help: each command's, each subcommand's and each topic's,
// as "code2skill help" prints it. After changing a command, a flag or a
// topic, rewrite the page with
// CODE2SKILL_UPDATE=1 go test ./internal/cli -run '^TestCommandReference$'.
func TestCommandReference(t *testing.T) {
	golden.Check(t, "../../docs/commands.md", commandReference(t))
}

// commandReference renders the reference: an index, then the help of the
// program, of every command and subcommand, and of every topic, each under
// a heading of its own.
func commandReference(t *testing.T) []byte {
	help := func(args ...string) string {
		var out bytes.Buffer
		stdio := &Stdio{In: strings.NewReader(""), Out: &out, Err: io.Discard, Progress: io.Discard}
		if code := Run(context.Background(), append([]string{"help"}, args...), stdio); code != ExitPassed {
			t.Fatalf("code2skill help %s: exit %d", strings.Join(args, " "), code)
		}
		return out.String()
	}
	block := func(b *strings.Builder, text string) {
		fmt.Fprintf(b, "\n```text\n%s```\n", text)
	}
	anchor := func(s string) string { return strings.ReplaceAll(s, " ", "-") }

	var b strings.Builder
	b.WriteString("# code2skill commands\n\n")
	b.WriteString("Every command's help as `code2skill help <command>` prints it, and the help topics the commands\n")
	b.WriteString("refer to. The help is generated from the commands' definitions (each flag's usage is written\n")
	b.WriteString("where the flag is defined), and so is this page: `CODE2SKILL_UPDATE=1 go test ./internal/cli\n")
	b.WriteString("-run '^TestCommandReference$'` rewrites it. The [README](../README.md) shows the flows the\n")
	b.WriteString("commands make up.\n\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "- [`code2skill %s`](#%s): %s\n", c.name, anchor("code2skill "+c.name), c.summary)
		for _, s := range c.subs {
			fmt.Fprintf(&b, "  - [`code2skill %s`](#%s): %s\n", s.name, anchor("code2skill "+s.name), s.summary)
		}
	}
	b.WriteString("- Topics:")
	for i, tp := range topics() {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(&b, "%s [%s](#%s)", sep, tp.name, anchor(tp.name))
	}
	b.WriteString("\n\n## code2skill\n")
	block(&b, help())
	for _, c := range commands() {
		fmt.Fprintf(&b, "\n## code2skill %s\n", c.name)
		block(&b, help(c.name))
		for _, s := range c.subs {
			fmt.Fprintf(&b, "\n### code2skill %s\n", s.name)
			block(&b, help(strings.Fields(s.name)...))
		}
	}
	b.WriteString("\n## Topics\n")
	for _, tp := range topics() {
		fmt.Fprintf(&b, "\n### %s\n", tp.name)
		block(&b, help(tp.name))
	}
	return []byte(b.String())
}
