package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/hostverify"
)

// TestDocumentedCommandsExist guards the promise that every command and flag
// the README, a page of docs/ or a Producer Skill tells a reader to use
// exists: each "code2skill <command> [subcommand] [--flag]…" written as code
// (an inline code span or a line of a fenced block) in README.md, under
// docs/ or under skills/ must name a command whose --help succeeds and
// lists every flag used with it.
//
// It fails, listing each missing command or flag with its file and line,
// whenever documentation runs ahead of the binary; the fix is to build the
// command or to stop naming it, never to weaken this test.
func TestDocumentedCommandsExist(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	uses, err := documentedUses(repo)
	if err != nil {
		t.Fatal(err)
	}
	if len(uses) == 0 {
		t.Fatal("found no documented command at all: the extraction is broken")
	}
	helps := map[string]*string{} // command -> its --help, nil when it has none
	for _, u := range uses {
		help, seen := helps[u.command]
		if !seen {
			help = commandHelp(u.command)
			helps[u.command] = help
		}
		if help == nil {
			t.Errorf("%s:%d: code2skill %s: no such command (code2skill %s --help fails)", u.file, u.line, u.command, u.command)
			continue
		}
		for _, f := range u.flags {
			if !listsFlag(*help, f) {
				t.Errorf("%s:%d: code2skill %s %s: code2skill %s --help does not list %s", u.file, u.line, u.command, f, u.command, f)
			}
		}
	}
}

// A documented use of a command.
type commandUse struct {
	file    string // slash-separated, relative to the repository
	line    int
	command string
	flags   []string // "--name", in order of appearance
}

var (
	// An invocation: "code2skill" as a word (after a path such as ./cmd/
	// too), a space, then the command and its arguments.
	invocation  = regexp.MustCompile(`(?:^|[\s/$("'])code2skill +(.*)`)
	commandWord = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	flagWord    = regexp.MustCompile(`(?:^|[\s\[(|])(--[a-z][a-z0-9-]*)`)
	// Where a shell line stops being this command: a comment, a pipe, a
	// list operator.
	commandEnd = regexp.MustCompile(` #| \| |;|&&|\|\|`)
	// names are proper names that start with "code2skill " and are not
	// invocations: the host reports name as the one that verified.
	names = []string{hostverify.HostName}
)

// documentedUses returns every documented use of a command in README.md
// and the Markdown files under docs/ and skills/.
func documentedUses(repo string) ([]commandUse, error) {
	files := []string{"README.md"}
	for _, dir := range []string{"docs", "skills"} {
		err := filepath.WalkDir(filepath.Join(repo, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || (dir == "docs" && !strings.HasSuffix(p, ".md")) {
				return err
			}
			if d.Name() == "commands.md" && dir == "docs" {
				// The help itself, whose prose is no invocation;
				// TestHelpIsGenerated holds it true.
				return nil
			}
			rel, err := filepath.Rel(repo, p)
			files = append(files, filepath.ToSlash(rel))
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	var uses []commandUse
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		uses = append(uses, usesIn(f, string(data))...)
	}
	return uses, nil
}

// usesIn finds the commands written as code in one file: every line of a
// fenced block, and every inline code span elsewhere. Prose ("code2skill is
// a toolchain") is not an invocation.
func usesIn(file, text string) []commandUse {
	var uses []commandUse
	fence := ""
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if f := fenceOpener(trimmed); f != "" && (fence == "" || strings.HasPrefix(trimmed, fence)) {
			if fence == "" {
				fence = f
			} else {
				fence = ""
			}
			continue
		}
		segments := []string{line}
		if fence == "" {
			segments = codeSpansOf(line)
		}
		for _, s := range segments {
			for _, name := range names {
				s = strings.ReplaceAll(s, name, "")
			}
			for _, m := range invocation.FindAllStringSubmatch(s, -1) {
				if u, ok := parseUse(m[1]); ok {
					u.file, u.line = file, i+1
					uses = append(uses, u)
				}
			}
		}
	}
	return uses
}

// parseUse reads "<command> <arguments>" after "code2skill ".
func parseUse(rest string) (commandUse, bool) {
	if loc := commandEnd.FindStringIndex(rest); loc != nil {
		rest = rest[:loc[0]]
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 || !commandWord.MatchString(fields[0]) {
		return commandUse{}, false // a placeholder such as <command>
	}
	u := commandUse{command: fields[0]}
	if c := lookup(fields[0]); c != nil && len(fields) > 1 {
		for _, sub := range c.subs {
			if sub.leaf() == fields[1] {
				u.command = sub.name
			}
		}
	}
	for _, m := range flagWord.FindAllStringSubmatch(rest, -1) {
		u.flags = append(u.flags, m[1])
	}
	return u, true
}

func fenceOpener(line string) string {
	for _, c := range []string{"```", "~~~"} {
		if strings.HasPrefix(line, c) {
			return c
		}
	}
	return ""
}

// codeSpansOf returns the contents of a line's inline code spans.
func codeSpansOf(line string) []string {
	var out []string
	for {
		start := strings.IndexByte(line, '`')
		if start < 0 {
			return out
		}
		end := strings.IndexByte(line[start+1:], '`')
		if end < 0 {
			return out
		}
		out = append(out, line[start+1:start+1+end])
		line = line[start+1+end+1:]
	}
}

// commandHelp returns what "code2skill <command> --help" prints, or nil
// when it fails.
func commandHelp(command string) *string {
	var out bytes.Buffer
	stdio := &Stdio{In: strings.NewReader(""), Out: &out, Err: io.Discard}
	if Run(context.Background(), append(strings.Fields(command), "--help"), stdio) != ExitPassed || out.Len() == 0 {
		return nil
	}
	s := out.String()
	return &s
}

// listsFlag reports whether help names the flag as a whole word: --source
// is not listed by --source-map alone.
func listsFlag(help, flag string) bool {
	for i := 0; ; {
		j := strings.Index(help[i:], flag)
		if j < 0 {
			return false
		}
		end := i + j + len(flag)
		if end == len(help) || !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789-", rune(help[end])) {
			return true
		}
		i = end
	}
}

// The extraction itself: what counts as a documented use, and what not.
func TestUsesIn(t *testing.T) {
	text := "code2skill is a toolchain; run `code2skill validate <pkg> --pre-finalize [--source-map ID=PATH]...`.\n" +
		"```sh\n" +
		"$ go run ./cmd/code2skill derive pkg   # writes --views\n" +
		"code2skill probe pkg --offline | tee out.txt --not-a-flag\n" +
		"code2skill <command> --help\n" +
		"```\n" +
		"Outside code: code2skill compile --report.\n"
	var got []string
	for _, u := range usesIn("x.md", text) {
		got = append(got, fmt.Sprintf("%d %s %s", u.line, u.command, strings.Join(u.flags, " ")))
	}
	want := []string{"1 validate --pre-finalize --source-map", "3 derive ", "4 probe --offline"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if listsFlag("  --source-map ID=PATH", "--source") || !listsFlag("[--source-root D]", "--source-root") {
		t.Error("listsFlag does not match whole flags")
	}
}
