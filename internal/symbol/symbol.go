// Package symbol finds where a source file declares a named symbol, so
// that an evidence locator ("screen.go:28#Screen.Open") can be checked
// against the code it points at: the symbol identifies the evidence, the
// line is only a hint of where the declaration was.
//
// Go files are parsed (go/parser): a symbol is a function, a method
// (Type.Method), a type, a struct field or interface method (Type.Field),
// a constant or a variable, and a file that parses either declares it or
// does not. Other languages are read by a language-neutral reading of
// declarations: a keyword that declares (function, def, class, const,
// fn, ...), a method, property or assignment at the start of a line, a
// function assigned to a name. A qualified symbol (Screen.Open,
// Client::send, Page#render) is looked up inside its container's
// declaration first. A declaration spans from its line to the end of its
// block: matching braces (strings and comments skipped), or the indented
// block after a line ending in a colon.
//
// The reading is pure and bounded: no file system, no process, and files
// are scanned once per symbol.
package symbol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
)

// Span is the lines of one declaration, 1-based and inclusive.
type Span struct{ Start, End int }

// Contains reports whether line lies in the span.
func (s Span) Contains(line int) bool { return s.Start <= line && line <= s.End }

// Status says what Locate found.
type Status uint8

const (
	// Declared: the file declares the symbol; Spans says where.
	Declared Status = iota + 1
	// Missing: the file certainly does not declare it (a Go file that
	// parses and declares no such name, or a file in which the name does
	// not occur at all).
	Missing
	// Unrecognised: the name occurs, but no declaration of it was
	// recognised; where it is declared, if here, is not known.
	Unrecognised
	// NotASymbol: the locator's symbol part is not a (qualified)
	// identifier but a localisation rationale, which names no
	// declaration.
	NotASymbol
)

// Result is what Locate found.
type Result struct {
	Status Status
	// Spans are the declarations of the symbol, in file order (Declared).
	Spans []Span
}

// identifier is one segment of a symbol.
var identifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// segments splits a qualified symbol at ".", "::" or "#"; nil when a
// segment is not an identifier.
func segments(symbol string) []string {
	parts := strings.Split(strings.NewReplacer("::", ".", "#", ".").Replace(symbol), ".")
	for _, p := range parts {
		if !identifier.MatchString(p) {
			return nil
		}
	}
	return parts
}

// Locate finds the declarations of symbol in the file named path (used for
// its extension) with content src.
func Locate(path string, src []byte, symbol string) Result {
	segs := segments(symbol)
	if segs == nil {
		return Result{Status: NotASymbol}
	}
	if strings.HasSuffix(path, ".go") {
		if r, ok := locateGo(src, segs); ok {
			return r
		}
	}
	return locateText(src, segs)
}

// locateGo finds a symbol in Go source; ok is false when the file does not
// parse (then the text reading decides).
func locateGo(src []byte, segs []string) (Result, bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return Result{}, false
	}
	var spans []Span
	add := func(from, to token.Pos) {
		spans = append(spans, Span{fset.Position(from).Line, fset.Position(to).Line})
	}
	name, container := segs[len(segs)-1], ""
	if len(segs) == 2 {
		container = segs[0]
	} else if len(segs) > 2 {
		return Result{Status: Missing}, true
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.Name != name {
				continue
			}
			recv := receiverType(d)
			if recv == container {
				add(d.Pos(), d.End())
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if container == "" && s.Name.Name == name {
						from := s.Pos()
						if len(d.Specs) == 1 {
							from = d.Pos()
						}
						add(from, s.End())
					}
					if container == s.Name.Name {
						for _, fld := range members(s.Type) {
							for _, n := range fld.Names {
								if n.Name == name {
									add(fld.Pos(), fld.End())
								}
							}
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if container == "" && n.Name == name {
							from := s.Pos()
							if len(d.Specs) == 1 {
								from = d.Pos()
							}
							add(from, s.End())
						}
					}
				}
			}
		}
	}
	if len(spans) == 0 {
		return Result{Status: Missing}, true
	}
	return Result{Status: Declared, Spans: spans}, true
}

// receiverType names a method's receiver type ("" for a function).
func receiverType(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return ""
	}
	t := d.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// members returns the fields of a struct type or the methods of an
// interface type.
func members(t ast.Expr) []*ast.Field {
	switch x := t.(type) {
	case *ast.StructType:
		return x.Fields.List
	case *ast.InterfaceType:
		return x.Methods.List
	}
	return nil
}
