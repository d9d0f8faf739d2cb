package layers

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A Package is what Load found of one directory of Go files.
type Package struct {
	// Path is the import path relative to the module: "internal/sandbox",
	// "" for the module's root package.
	Path  string
	Files []File
}

// A File is one Go file of a package, with what the rules look at.
type File struct {
	// Name is the file's path relative to the module root, slash-separated.
	Name string
	Test bool // a _test.go file
	// Imports are the file's imports, in source order.
	Imports []Ref
	// Starts are its uses of the functions that start a process outside
	// os/exec (os.StartProcess, syscall.ForkExec, …), in source order.
	Starts []Ref
	// JSONDecodes are its uses of encoding/json's decoding (Unmarshal, a
	// Decoder, Valid, Compact, Indent), in source order.
	JSONDecodes []Ref
}

// A Ref is an import path or a qualified function name, and the line
// (1-based) where the file names it.
type Ref struct {
	Name string
	Line int
}

// processStarters are the functions, other than os/exec's, that start a
// child process, by the import path of their package.
var processStarters = map[string][]string{
	"os":                    {"StartProcess"},
	"syscall":               {"Exec", "ForkExec", "StartProcess"},
	"golang.org/x/sys/unix": {"Exec"},
}

// jsonDecoders are encoding/json's names that read JSON text.
var jsonDecoders = map[string][]string{
	"encoding/json": {"Compact", "Decoder", "Indent", "NewDecoder", "Unmarshal", "Valid"},
}

// Load reads the module at root: its module path from go.mod, and every Go
// file below root, whatever its build constraints, so that an import in a
// file built only for another system is checked too. It skips testdata,
// node_modules and directories whose names start with "." or "_", as the
// go command does.
func Load(root string) (module string, pkgs []Package, err error) {
	module, err = modulePath(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", nil, err
	}
	byDir := map[string]*Package{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "node_modules" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !strings.HasSuffix(name, ".go") ||
			strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		f, err := parseFile(fset, path, rel)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		if dir == "." {
			dir = ""
		}
		p := byDir[dir]
		if p == nil {
			p = &Package{Path: dir}
			byDir[dir] = p
		}
		p.Files = append(p.Files, f)
		return nil
	})
	if err != nil {
		return "", nil, err
	}
	for _, p := range byDir {
		pkgs = append(pkgs, *p)
	}
	// WalkDir visits files in lexical order; sort the packages the same way
	// so that findings come out in a stable order.
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path < pkgs[j].Path })
	return module, pkgs, nil
}

func parseFile(fset *token.FileSet, path, rel string) (File, error) {
	af, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return File{}, fmt.Errorf("layers: %w", err)
	}
	f := File{Name: rel, Test: strings.HasSuffix(rel, "_test.go")}
	// The local name of each import whose package has process starters or
	// JSON decoders.
	local := map[string]string{}
	for _, spec := range af.Imports {
		ip, err := strconv.Unquote(spec.Path.Value)
		if err != nil {
			return File{}, fmt.Errorf("layers: %s: bad import %s", rel, spec.Path.Value)
		}
		f.Imports = append(f.Imports, Ref{Name: ip, Line: fset.Position(spec.Pos()).Line})
		_, starts := processStarters[ip]
		_, decodes := jsonDecoders[ip]
		if !starts && !decodes {
			continue
		}
		name := ip[strings.LastIndex(ip, "/")+1:]
		if spec.Name != nil {
			name = spec.Name.Name
		}
		local[name] = ip
	}
	if len(local) == 0 {
		return f, nil
	}
	ast.Inspect(af, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok {
			return true
		}
		ip, ok := local[x.Name]
		if !ok {
			return true
		}
		ref := Ref{Name: ip + "." + sel.Sel.Name, Line: fset.Position(sel.Pos()).Line}
		if slices.Contains(processStarters[ip], sel.Sel.Name) {
			f.Starts = append(f.Starts, ref)
		}
		if slices.Contains(jsonDecoders[ip], sel.Sel.Name) {
			f.JSONDecodes = append(f.JSONDecodes, ref)
		}
		return true
	})
	return f, nil
}

// modulePath returns the module path go.mod declares.
func modulePath(gomod string) (string, error) {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return "", fmt.Errorf("layers: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "module" {
			if m, err := strconv.Unquote(fields[1]); err == nil {
				return m, nil
			}
			return fields[1], nil
		}
	}
	return "", errors.New("layers: " + filepath.ToSlash(gomod) + " declares no module")
}
