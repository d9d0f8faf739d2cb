package cli

import (
	"bytes"
	"context"
	"flag"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// leafCommands returns every command that runs: the commands without
// subcommands, and the subcommands.
func leafCommands() []*command {
	var out []*command
	for _, c := range commands() {
		if len(c.subs) == 0 {
			out = append(out, c)
		}
		out = append(out, c.subs...)
	}
	return out
}

// runHelpOf runs c (a command from leafCommands or commands) with --help
// and returns what it printed; c.flags then holds its flags.
func runHelpOf(t *testing.T, c *command) string {
	t.Helper()
	var out, errOut bytes.Buffer
	stdio := &Stdio{In: strings.NewReader(""), Out: &out, Err: &errOut, Progress: io.Discard}
	if code := c.dispatch(context.Background(), stdio, []string{"--help"}); code != ExitPassed || errOut.Len() > 0 {
		t.Fatalf("code2skill %s --help: exit %d, stderr %q", c.name, code, errOut.String())
	}
	return out.String()
}

// helpOf is what "code2skill help <c's name>" prints.
func helpOf(t *testing.T, c *command) string {
	t.Helper()
	var out bytes.Buffer
	stdio := &Stdio{In: strings.NewReader(""), Out: &out, Err: io.Discard, Progress: io.Discard}
	if code := Run(context.Background(), append([]string{"help"}, strings.Fields(c.name)...), stdio); code != ExitPassed {
		t.Fatalf("code2skill help %s: exit %d", c.name, code)
	}
	return out.String()
}

var (
	// A flag named in prose: --name, not inside a longer word.
	flagMention = regexp.MustCompile(`(?:^|[^a-z0-9-])--([a-z][a-z0-9-]*)`)
	// A hand-written flag table: an indented flag, maybe its value, then
	// a column gap and its description.
	flagRow = regexp.MustCompile(`(?m)^\s+--[a-z][a-z0-9-]*(?: \S+)?\s{2,}\S`)
)

// TestHelpIsGenerated holds every command's help to what it is made of: the
// synopsis, the page, and every flag the command defines, each with a usage
// written where it is defined and a placeholder for its value. No page
// lists flags by hand, and every flag a page, a synopsis or a topic names
// exists.
func TestHelpIsGenerated(t *testing.T) {
	all := map[string]bool{}
	for _, c := range leafCommands() {
		help := runHelpOf(t, c)
		if help != helpOf(t, c) {
			t.Errorf("code2skill %s --help and code2skill help %s differ", c.name, c.name)
		}
		if !strings.HasPrefix(help, "Usage: code2skill "+c.name) {
			t.Errorf("code2skill %s --help does not start with its synopsis:\n%s", c.name, help)
		}
		for _, text := range []string{c.about, c.exits} {
			if row := flagRow.FindString(text); row != "" {
				t.Errorf("code2skill %s: the page lists a flag by hand (%q); define its usage with the flag", c.name, strings.TrimSpace(row))
			}
		}
		fs := c.flags
		if fs == nil {
			t.Errorf("code2skill %s --help printed no flags of a flag set", c.name)
			continue
		}
		fs.VisitAll(func(f *flag.Flag) {
			all[f.Name] = true
			if _, alias := fs.aliases[f.Name]; alias {
				if !strings.Contains(help, "--"+f.Name+" ") && !strings.Contains(help, "--"+f.Name+"\n") {
					t.Errorf("code2skill %s: the help does not list the deprecated --%s", c.name, f.Name)
				}
				return
			}
			if !slices.Contains(fs.order, f.Name) {
				t.Errorf("code2skill %s: --%s is defined on the flag.FlagSet itself, so the help does not know it", c.name, f.Name)
				return
			}
			placeholder, usage := flag.UnquoteUsage(f)
			if strings.TrimSpace(usage) == "" {
				t.Errorf("code2skill %s: --%s has no usage", c.name, f.Name)
			}
			if placeholder == "value" {
				t.Errorf("code2skill %s: --%s takes a value, but its usage names no `PLACEHOLDER`", c.name, f.Name)
			}
			if !strings.Contains(help, "  "+flagLabel(f.Name, placeholder)) {
				t.Errorf("code2skill %s: the help does not list --%s", c.name, f.Name)
			}
		})
		for _, text := range []string{c.args, c.about, c.exits} {
			for _, name := range ownFlagMentions(t, text) {
				if fs.Lookup(name) == nil {
					t.Errorf("code2skill %s: its help names --%s, which it does not have", c.name, name)
				}
			}
		}
	}
	// The pages of commands with subcommands, and the topics, may name the
	// flag of any command.
	var texts []string
	for _, c := range commands() {
		if len(c.subs) > 0 {
			texts = append(texts, c.about)
		}
	}
	for _, tp := range topics() {
		texts = append(texts, tp.page)
	}
	for _, text := range texts {
		for _, name := range ownFlagMentions(t, text) {
			if !all[name] {
				t.Errorf("a page or topic names --%s, which no command has", name)
			}
		}
	}
}

// foreignFlags are flags of other programs the pages name.
var foreignFlags = []string{
	"ignore-scripts", // npm ci --ignore-scripts
	"test",           // node --test, go test
}

// ownFlagMentions returns the flags a page names as its own command's:
// a flag after "code2skill <command>" on the same line is that command's,
// and is checked against its help here.
func ownFlagMentions(t *testing.T, text string) []string {
	t.Helper()
	var own []string
	for _, line := range strings.Split(text, "\n") {
		if loc := invocation.FindStringSubmatchIndex(line); loc != nil {
			if u, ok := parseUse(line[loc[2]:loc[3]]); ok {
				help := commandHelp(u.command)
				for _, f := range u.flags {
					if help == nil || !listsFlag(*help, f) {
						t.Errorf("a page names code2skill %s %s, which does not exist", u.command, f)
					}
				}
			}
			line = line[:loc[0]]
		}
		for _, m := range flagMention.FindAllStringSubmatch(line, -1) {
			if !slices.Contains(foreignFlags, m[1]) {
				own = append(own, m[1])
			}
		}
	}
	return own
}

// TestOneMeaningPerFlag: a flag name means one thing in every command that
// has it, so it has one usage. --format's values differ by command, its
// meaning does not.
func TestOneMeaningPerFlag(t *testing.T) {
	usages := map[string]string{}
	where := map[string]string{}
	for _, c := range leafCommands() {
		runHelpOf(t, c)
		for _, name := range c.flags.order {
			usage := c.flags.Lookup(name).Usage
			if name == "format" {
				placeholder, _ := flag.UnquoteUsage(c.flags.Lookup(name))
				if want := formatUsage(strings.Split(placeholder, "|")...); usage != want {
					t.Errorf("code2skill %s: --format's usage is %q, not formatUsage's %q", c.name, usage, want)
				}
				continue
			}
			if old, ok := usages[name]; ok && old != usage {
				t.Errorf("--%s means one thing in %s (%q) and another in %s (%q)", name, where[name], old, c.name, usage)
				continue
			}
			usages[name], where[name] = usage, c.name
		}
	}
}

// runCLI runs code2skill with args and returns the exit code and stderr.
func runCLI(args ...string) (int, string) {
	var errOut bytes.Buffer
	stdio := &Stdio{In: strings.NewReader(""), Out: io.Discard, Err: &errOut, Progress: io.Discard}
	code := Run(context.Background(), args, stdio)
	return code, errOut.String()
}

// TestUsageErrorsAreShort: a usage error says what is wrong, the synopsis
// and where the help is, in at most five lines, for every command.
func TestUsageErrorsAreShort(t *testing.T) {
	type invocation struct {
		args []string
		want string // in stderr
	}
	var cases []invocation
	for _, c := range leafCommands() {
		words := strings.Fields(c.name)
		cases = append(cases,
			invocation{append(slices.Clone(words), "--no-such-flag"), "code2skill help " + c.name},
			invocation{append(slices.Clone(words), "a", "b", "c", "d"), "code2skill help " + c.name})
	}
	cases = append(cases,
		invocation{[]string{"valdate", "pkg"}, `did you mean "validate"?`},
		invocation{[]string{"pipeline", "rn", "pkg"}, `did you mean "run"?`},
		invocation{[]string{"skills", "instal"}, `did you mean "install"?`},
		invocation{[]string{"pipeline"}, "name a subcommand"},
		invocation{[]string{"help", "sandbx"}, `did you mean "sandbox"?`},
		invocation{[]string{"probe", "pkg", "--ofline"}, "did you mean --offline?"},
		invocation{[]string{"validate", "pkg", "--skip-test"}, "did you mean --skip-tests?"},
	)
	for _, inv := range cases {
		code, stderr := runCLI(inv.args...)
		if code != ExitUsage {
			t.Errorf("code2skill %s: exit %d, want %d (stderr %q)", strings.Join(inv.args, " "), code, ExitUsage, stderr)
			continue
		}
		if n := strings.Count(stderr, "\n"); n > 5 {
			t.Errorf("code2skill %s: the usage error takes %d lines, more than 5:\n%s", strings.Join(inv.args, " "), n, stderr)
		}
		if !strings.Contains(stderr, inv.want) {
			t.Errorf("code2skill %s: stderr %q lacks %q", strings.Join(inv.args, " "), stderr, inv.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	for word, want := range map[string]string{
		"valdate":         "validate",
		"vaildate":        "validate",
		"check-contracts": "check-contract",
		"probe":           "probe",
		"x":               "",
		"deploy":          "",
		"rule":            "rules",
	} {
		if got := suggest(word, commandNames()); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
	if got := suggest("tiemout", []string{"timeout", "format"}); got != "timeout" {
		t.Errorf("suggest(tiemout) = %q, want timeout", got)
	}
}
