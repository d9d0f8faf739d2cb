package layers

import (
	"fmt"
	"sort"
	"strings"
)

// A Violation is one breach of the rules: where it is (a file and line, or
// a package when the package as a whole breaks them) and what it is.
type Violation struct {
	Where   string // "internal/sandbox/run.go", or a package
	Line    int    // 1-based; 0 when Where is a package
	Message string
}

func (v Violation) String() string {
	if v.Line == 0 {
		return v.Where + ": " + v.Message
	}
	return fmt.Sprintf("%s:%d: %s", v.Where, v.Line, v.Message)
}

// The place of a package in the rules.
type place struct {
	floor int // index into Rules.Floors; -1 for test support
	name  string
}

const testSupportFloor = -1

// Check returns every breach of r in pkgs, the packages of module, in file
// and line order.
func Check(r Rules, module string, pkgs []Package) []Violation {
	var out []Violation
	places := map[string]place{}
	add := func(pkg string, pl place) {
		if old, ok := places[pkg]; ok {
			out = append(out, Violation{Where: display(pkg),
				Message: fmt.Sprintf("listed twice, on %s and on %s", old.name, pl.name)})
			return
		}
		places[pkg] = pl
	}
	for i, f := range r.Floors {
		for _, p := range f.Packages {
			add(p, place{floor: i, name: fmt.Sprintf("floor %q", f.Name)})
		}
	}
	for _, p := range r.TestSupport {
		add(p, place{floor: testSupportFloor, name: "test support"})
	}

	present := map[string]bool{}
	for _, p := range pkgs {
		present[p.Path] = true
		if _, ok := places[p.Path]; !ok {
			out = append(out, Violation{Where: display(p.Path),
				Message: "stands on no floor: place it in internal/layers/floors.go (and docs/layout.md)"})
		}
	}
	for p, pl := range places {
		if !present[p] {
			out = append(out, Violation{Where: display(p),
				Message: fmt.Sprintf("is listed on %s but no such package exists", pl.name)})
		}
	}

	for _, p := range pkgs {
		from, placed := places[p.Path]
		for _, f := range p.Files {
			if f.Test {
				continue
			}
			for _, imp := range f.Imports {
				if placed {
					if v, bad := checkImport(r, module, p.Path, from, imp, places); bad {
						v.Where, v.Line = f.Name, imp.Line
						out = append(out, v)
					}
				}
				if imp.Name == "os/exec" && !mayStart(r, p.Path) {
					out = append(out, Violation{Where: f.Name, Line: imp.Line,
						Message: fmt.Sprintf("%s imports os/exec: only %s starts child processes", display(p.Path), r.ProcessStarter)})
				}
			}
			if r.JSONCodec != "" && p.Path != r.JSONCodec && r.JSONExceptions[p.Path] == "" && r.JSONExceptions[f.Name] == "" {
				for _, d := range f.JSONDecodes {
					out = append(out, Violation{Where: f.Name, Line: d.Line,
						Message: fmt.Sprintf("%s uses %s: only %s decodes JSON", display(p.Path), d.Name, r.JSONCodec)})
				}
			}
			if mayStart(r, p.Path) {
				continue
			}
			for _, s := range f.Starts {
				out = append(out, Violation{Where: f.Name, Line: s.Line,
					Message: fmt.Sprintf("%s calls %s: only %s starts child processes", display(p.Path), s.Name, r.ProcessStarter)})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Where != out[j].Where {
			return out[i].Where < out[j].Where
		}
		return out[i].Line < out[j].Line
	})
	return out
}

// checkImport judges one import of a package placed at from.
func checkImport(r Rules, module, pkg string, from place, imp Ref, places map[string]place) (Violation, bool) {
	target, ok := relative(module, imp.Name)
	if !ok {
		return Violation{}, false
	}
	to, ok := places[target]
	if !ok {
		// The imported package is reported as standing on no floor (or
		// does not exist, which the build reports).
		return Violation{}, false
	}
	switch {
	case to.floor == testSupportFloor && from.floor != testSupportFloor:
		return Violation{Message: fmt.Sprintf("%s (%s) imports %s, which is test support: only tests import it",
			display(pkg), from.name, display(target))}, true
	case from.floor != testSupportFloor && to.floor > from.floor:
		return Violation{Message: fmt.Sprintf("%s (%s) imports %s, which stands above it on %s: an import goes only to its own floor or one below",
			display(pkg), from.name, display(target), to.name)}, true
	}
	return Violation{}, false
}

func mayStart(r Rules, pkg string) bool {
	if pkg == r.ProcessStarter {
		return true
	}
	_, ok := r.ProcessExceptions[pkg]
	return ok
}

// relative returns an import path of module relative to it.
func relative(module, ip string) (string, bool) {
	if ip == module {
		return "", true
	}
	rest, ok := strings.CutPrefix(ip, module+"/")
	return rest, ok
}

// display names a package in a message; the root package by its role.
func display(pkg string) string {
	if pkg == "" {
		return "the module's root package"
	}
	return pkg
}
