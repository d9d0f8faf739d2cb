package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// A command's help is generated: the synopsis from its name and arguments,
// then its page (the prose of what it does, written once in its file), then
// its flags as they are defined, each with the usage written where it is
// defined, then its exit codes and the help topics it refers to. Nothing of
// the flags is written twice, so the help cannot drift from them.

// flagSet is a command's flags: Go's flag.FlagSet, and what the help shows
// of them: the order they were defined in, the heading each stands under
// and the deprecated spellings still accepted.
type flagSet struct {
	*flag.FlagSet
	order   []string          // flag names, as they were defined
	heading map[string]string // flag name -> its heading ("" for "Flags")
	current string
	// aliases maps a deprecated spelling to the flag it now stands for.
	aliases map[string]string
	// given lists the deprecated spellings the command line used.
	given []string
}

// newFlagSet returns a command's flag set, which reports errors instead
// of exiting.
func newFlagSet(c *command) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(c.name, flag.ContinueOnError), heading: map[string]string{}, aliases: map[string]string{}}
	fs.SetOutput(io.Discard)
	c.flags = fs
	return fs
}

// section starts a heading of the help: the flags defined after it are
// listed under it ("Flags (strict-export-v1)").
func (fs *flagSet) section(heading string) { fs.current = heading }

func (fs *flagSet) defined(name string) {
	fs.order = append(fs.order, name)
	fs.heading[name] = fs.current
}

// The definitions the commands use, each recorded for the help. A usage
// names its value's placeholder in backquotes, as the flag package reads
// it: "write the exchange to `FILE`".

func (fs *flagSet) Bool(name string, value bool, usage string) *bool {
	defer fs.defined(name)
	return fs.FlagSet.Bool(name, value, usage)
}

func (fs *flagSet) BoolVar(p *bool, name string, value bool, usage string) {
	defer fs.defined(name)
	fs.FlagSet.BoolVar(p, name, value, usage)
}

func (fs *flagSet) String(name, value, usage string) *string {
	defer fs.defined(name)
	return fs.FlagSet.String(name, value, usage)
}

func (fs *flagSet) StringVar(p *string, name, value, usage string) {
	defer fs.defined(name)
	fs.FlagSet.StringVar(p, name, value, usage)
}

func (fs *flagSet) Int(name string, value int, usage string) *int {
	defer fs.defined(name)
	return fs.FlagSet.Int(name, value, usage)
}

func (fs *flagSet) Var(value flag.Value, name, usage string) {
	defer fs.defined(name)
	fs.FlagSet.Var(value, name, usage)
}

func (fs *flagSet) Func(name, usage string, fn func(string) error) {
	defer fs.defined(name)
	fs.FlagSet.Func(name, usage, fn)
}

// deprecate keeps old, a former spelling of the flag now named name, working:
// the help lists it under "Deprecated", and a command line that uses it is
// warned on stderr.
func (fs *flagSet) deprecate(old, name string) {
	f := fs.Lookup(name)
	if f == nil {
		panic("deprecate: no flag --" + name)
	}
	fs.FlagSet.Var(aliasValue{f.Value, func() { fs.given = append(fs.given, old) }}, old, "")
	fs.aliases[old] = name
}

// aliasValue sets the value of the flag a deprecated spelling stands for.
type aliasValue struct {
	flag.Value
	used func()
}

func (a aliasValue) Set(s string) error {
	a.used()
	return a.Value.Set(s)
}

// IsBoolFlag lets a deprecated spelling of a boolean flag go without a
// value, as the flag itself does.
func (a aliasValue) IsBoolFlag() bool {
	b, ok := a.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// warnDeprecated tells the user which deprecated spellings the command line
// used, and what to write instead.
func (fs *flagSet) warnDeprecated(stdio *Stdio, c *command) {
	for _, old := range fs.given {
		fmt.Fprintf(stdio.Err, "code2skill %s: --%s is deprecated: write --%s\n", c.name, old, fs.aliases[old])
	}
}

// synopsis is the command's usage line.
func (c *command) synopsis() string {
	s := "code2skill " + c.name
	if len(c.subs) > 0 {
		s += " <subcommand>"
	}
	if c.args != "" {
		s += " " + c.args
	}
	if c.flags != nil && len(c.flags.order) > 0 || len(c.subs) > 0 {
		s += " [flags]"
	}
	return s
}

// help renders the command's help; fs holds its flags, nil for a command
// that has subcommands instead.
func (c *command) help(fs *flagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s\n", c.synopsis())
	if about := strings.TrimSpace(c.about); about != "" {
		fmt.Fprintf(&b, "\n%s\n", about)
	}
	if len(c.subs) > 0 {
		b.WriteString("\nSubcommands:\n")
		width := 0
		for _, s := range c.subs {
			width = max(width, len(s.leaf()))
		}
		for _, s := range c.subs {
			fmt.Fprintf(&b, "  %-*s  %s\n", width, s.leaf(), s.summary)
		}
		fmt.Fprintf(&b, "\nRun \"code2skill help %s <subcommand>\" for a subcommand's flags.\n", c.name)
	}
	if fs != nil {
		writeFlags(&b, fs)
	}
	b.WriteString("\n")
	if c.exits != "" {
		b.WriteString(c.exits)
	} else {
		b.WriteString(exitCodesHelp)
	}
	if len(c.topics) > 0 {
		fmt.Fprintf(&b, "\nSee also: code2skill help %s.\n", strings.Join(c.topics, ", code2skill help "))
	}
	return b.String()
}

// leaf is the last word of a command's name: "run" of "pipeline run".
func (c *command) leaf() string { return c.name[strings.LastIndexByte(c.name, ' ')+1:] }

// Layout of the flag lists: the usage starts in column usageColumn and
// lines end before lineWidth.
const (
	usageColumn = 26
	lineWidth   = 80
)

// writeFlags lists the flags under their headings, in the order they were
// defined, then the deprecated spellings.
func writeFlags(b *strings.Builder, fs *flagSet) {
	var headings []string
	for _, name := range fs.order {
		if h := fs.heading[name]; len(headings) == 0 || headings[len(headings)-1] != h {
			headings = append(headings, h)
		}
	}
	for _, h := range headings {
		title := "Flags"
		if h != "" {
			title = h
		}
		fmt.Fprintf(b, "\n%s:\n", title)
		for _, name := range fs.order {
			if fs.heading[name] != h {
				continue
			}
			f := fs.Lookup(name)
			placeholder, usage := flag.UnquoteUsage(f)
			if def := shownDefault(f); def != "" {
				usage += " (default " + def + ")"
			}
			writeFlag(b, flagLabel(name, placeholder), usage)
		}
	}
	if len(fs.aliases) == 0 {
		return
	}
	b.WriteString("\nDeprecated:\n")
	fs.VisitAll(func(f *flag.Flag) {
		name, ok := fs.aliases[f.Name]
		if !ok {
			return
		}
		placeholder, _ := flag.UnquoteUsage(fs.Lookup(name))
		writeFlag(b, flagLabel(f.Name, placeholder), "the former spelling of --"+name)
	})
}

func flagLabel(name, placeholder string) string {
	if placeholder == "" {
		return "--" + name
	}
	return "--" + name + " " + placeholder
}

// shownDefault is a flag's default as the help shows it: nothing for an
// empty or false one.
func shownDefault(f *flag.Flag) string {
	switch f.DefValue {
	case "", "false", "[]":
		return ""
	}
	return f.DefValue
}

// writeFlag writes one flag: its label, and its usage wrapped beside it
// (below it when the label is too long).
func writeFlag(b *strings.Builder, label, usage string) {
	line := "  " + label
	if len(line)+2 > usageColumn {
		b.WriteString(line + "\n")
		line = ""
	}
	indent := strings.Repeat(" ", usageColumn)
	for i, l := range wrap(usage, lineWidth-usageColumn) {
		if i == 0 && line != "" {
			fmt.Fprintf(b, "%-*s%s\n", usageColumn, line, l)
			continue
		}
		b.WriteString(indent + l + "\n")
	}
}

// wrap breaks text into lines of at most width bytes, between words.
func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		switch {
		case line == "":
			line = w
		case len(line)+1+len(w) > width:
			lines = append(lines, line)
			line = w
		default:
			line += " " + w
		}
	}
	return append(lines, line)
}

// usageError prints a usage error in a few lines (what is wrong, the
// synopsis, where the help is) and returns ExitUsage.
func usageError(stdio *Stdio, c *command, format string, args ...any) int {
	fmt.Fprintf(stdio.Err, "code2skill %s: %s\nUsage: %s\nRun \"code2skill help %s\" for its flags and what they do.\n",
		c.name, fmt.Sprintf(format, args...), c.synopsis(), c.name)
	return ExitUsage
}
