package layers

import (
	"fmt"
	"path"
	"strings"
)

// TestSupportSection is the name of the Layout section of the test-support
// packages.
const TestSupportSection = "test support"

// CheckLayout checks a Layout listing against r and pkgs: sections headed
// "[name]", the floors' from the top down and then TestSupportSection
// (other sections may follow), each line an entry whose first field names
// a directory ("internal/cli/") or a Go file ("embed.go", its directory's
// package) and then says what it holds. Every package must be named in its
// floor's section, by itself or by a directory above it there, and an
// entry that names a package must be in that package's section. It returns
// one message per discrepancy.
func CheckLayout(r Rules, layout string, pkgs []Package) []string {
	var out []string
	sectionOf := map[string]string{} // package -> the section it belongs in
	var want []string
	for i := len(r.Floors) - 1; i >= 0; i-- {
		want = append(want, r.Floors[i].Name)
		for _, p := range r.Floors[i].Packages {
			sectionOf[p] = r.Floors[i].Name
		}
	}
	want = append(want, TestSupportSection)
	for _, p := range r.TestSupport {
		sectionOf[p] = TestSupportSection
	}
	isPackage := map[string]bool{}
	for _, p := range pkgs {
		isPackage[p.Path] = true
	}

	var sections []string
	entries := map[string][]string{} // section -> the directories it names
	section := ""
	for _, line := range strings.Split(layout, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if name, ok := strings.CutPrefix(line, "["); ok && strings.HasSuffix(name, "]") {
			section = strings.TrimSuffix(name, "]")
			sections = append(sections, section)
			continue
		}
		entry := fields[0]
		dir := strings.TrimSuffix(entry, "/")
		if strings.HasSuffix(entry, ".go") {
			dir = path.Dir(entry)
		}
		if dir == "." {
			dir = ""
		}
		entries[section] = append(entries[section], dir)
		if !isPackage[dir] {
			continue
		}
		if s, ok := sectionOf[dir]; ok && s != section {
			out = append(out, fmt.Sprintf("%s is listed under [%s]; it stands on %s", entry, section, s))
		}
	}
	if len(sections) < len(want) || strings.Join(sections[:len(want)], "|") != strings.Join(want, "|") {
		out = append(out, fmt.Sprintf("sections are [%s]; want [%s] first", strings.Join(sections, "] ["), strings.Join(want, "] [")))
	}
	for _, p := range pkgs {
		s, ok := sectionOf[p.Path]
		if !ok {
			continue // Check reports it
		}
		if !named(p.Path, entries[s]) {
			out = append(out, fmt.Sprintf("%s is not listed under [%s]", display(p.Path), s))
		}
	}
	return out
}

// named reports whether one of dirs is pkg or a directory above it.
func named(pkg string, dirs []string) bool {
	for _, d := range dirs {
		if d == pkg || (d != "" && strings.HasPrefix(pkg, d+"/")) {
			return true
		}
	}
	return false
}
