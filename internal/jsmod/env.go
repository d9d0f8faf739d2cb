package jsmod

import (
	"cmp"
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"

	"github.com/code2skill/code2skill/internal/credential"
)

// EnvRead is one environment variable a module reads.
type EnvRead struct {
	Name string
	// Pos is where the variable's name is first written in a read: the
	// property of process.env.NAME, the string of process.env["NAME"], the
	// key of a destructuring pattern, or the string a const key names.
	Pos Pos
}

// EnvFallback is an environment read that falls back to a literal http(s)
// URL: a default environment.
type EnvFallback struct {
	Var string // the environment variable
	URL string // the fallback as written in the source (a template keeps its ${…})
	// Pos is where the fallback is written: the URL literal when it is part
	// of the fallback expression, else the read of the variable, else the
	// literal a const names.
	Pos    Pos
	VarPos Pos // where the variable's name is written
	URLPos Pos // where the URL literal starts
}

// EnvReads returns the environment variables the module reads, each once,
// in the order of their first read. It recognises, wherever they occur:
//
//	process.env.NAME   process.env["NAME"]   process.env[`NAME`]   process.env[KEY] (const KEY = "NAME")
//	const { NAME, OTHER: alias, THIRD = "x", ...rest } = process.env
//	const { env } = process; const e = process.env; import { env } from "node:process"
//
// and the same through globalThis.process, optional chaining,
// `import process from "node:process"`, an injectable environment
// (const env = context.env ?? process.env; env.NAME) and the module's own
// helpers: a function that receives the environment and the variable's
// name (endpoint(env, API_BASE_URL, path) reading env[variable]), or
// returns the environment (const { env } = settings(context)); see
// envcall.go. Assignments (process.env.NAME = …) and deletions are not
// reads. Not recognised: reads through a key the module does not fix
// (process.env[name] with a name computed at run time), through let or var
// aliases, through functions of other modules, and presence checks ("NAME"
// in process.env).
func (m *Module) EnvReads() []EnvRead {
	return slices.Clone(m.envFacts().reads)
}

// EnvURLFallbacks returns every environment read that falls back to a
// literal http(s) URL, in source order:
//
//	process.env.NAME || "https://…"        process.env.NAME ?? `http://…`
//	process.env.NAME ? process.env.NAME : "https://…"
//	const { NAME = "https://…" } = process.env
//	process.env.NAME ||= "https://…"
//	const base = process.env.NAME; … base || "https://…"
//
// The URL may also be a template literal whose text starts with the scheme,
// a const bound to a string literal, or a property of a const object
// literal (DEFAULTS.apiBase). An object literal that spreads process.env
// over defaults ({ API_URL: "https://…", ...process.env }) falls back to
// them for every variable read from it. The variable may be transformed on
// the way (process.env.NAME?.trim() || "https://…"). Fallbacks that are
// not http(s) URLs (process.env.TIMEOUT ?? "30"), and URLs under the
// reserved .invalid domain, which never resolve, are not reported.
func (m *Module) EnvURLFallbacks() []EnvFallback {
	return slices.Clone(m.envFacts().fallbacks)
}

type envFacts struct {
	reads     []EnvRead
	fallbacks []EnvFallback
	// secretFallbacks are reads of credential variables falling back to a
	// literal secret (URL holding the literal); see CredentialLiterals.
	secretFallbacks []EnvFallback
}

func (m *Module) envFacts() *envFacts {
	m.envOnce.Do(func() { m.env = analyseEnv(m) })
	return m.env
}

// kind classifies what an expression evaluates to, as far as environment
// reads are concerned.
type kind uint8

const (
	unknown       kind = iota
	globalObject       // globalThis
	processObject      // process
	envObject          // process.env, or the rest of a pattern destructuring it
	envValue           // the value of one variable, possibly trimmed or converted
	stringLit          // a string: literal, template without substitutions, or a const bound to one
	urlTemplate        // a template literal with substitutions whose text starts with http(s)://
	objectLit          // an object literal, possibly spreading process.env over defaults
)

type value struct {
	kind kind
	name string // envValue: the variable; stringLit, urlTemplate: the text
	pos  Pos    // envValue: where the name is written; stringLit, urlTemplate: where the literal starts
	// direct is set when the name or literal is written in the expression
	// itself rather than reached through a const.
	direct bool
	obj    *js.ObjectExpr // objectLit: the literal
}

// isURL reports whether v is a literal http(s) URL a fallback may not use.
func (v value) isURL() bool {
	switch v.kind {
	case stringLit:
		return isHTTPURL(v.name) && !reservedInvalidHost(v.name)
	case urlTemplate:
		return true
	}
	return false
}

// constBinding records how a const-declared variable gets its value: from
// init, then through the keys of a destructuring pattern.
type constBinding struct {
	init js.IExpr
	path []patternKey
}

type patternKey struct {
	name string
	pos  Pos
	ok   bool // false for a key the module does not fix (computed, array index)
	rest bool // the rest element of an object pattern
}

type envAnalysis struct {
	m      *Module
	consts map[*js.Var]constBinding
	memo   map[*js.Var]value
	busy   map[*js.Var]bool
	writes map[js.IExpr]bool // member expressions (*js.DotExpr, *js.IndexExpr) assigned to or deleted
	depth  int               // of eval's recursion, see maxEvalDepth
	facts  envFacts

	// Calls of the module's own functions (see envcall.go).
	funcs     map[*js.Var]*function // function declarations by name
	lambdas   map[js.INode]*function
	params    map[*js.Var]value // parameter bindings of the call being analysed
	instances map[instanceKey]value
	active    map[*function]bool
	callDepth int
	scope     int // identifies the call being analysed; 0 at the top level
}

func analyseEnv(m *Module) *envFacts {
	a := &envAnalysis{
		m:      m,
		consts: map[*js.Var]constBinding{},
		memo:   map[*js.Var]value{},
		busy:   map[*js.Var]bool{},
		writes: map[js.IExpr]bool{},

		funcs:     map[*js.Var]*function{},
		lambdas:   map[js.INode]*function{},
		instances: map[instanceKey]value{},
		active:    map[*function]bool{},
	}
	Inspect(m.ast, func(n js.INode) bool {
		a.collectFunction(n)
		if d, ok := n.(*js.VarDecl); ok && d.TokenType == js.ConstToken {
			for _, el := range d.List {
				if el.Default != nil {
					a.bindConst(el.Binding, el.Default, nil)
				}
			}
		}
		return true
	})
	Inspect(m.ast, a.visit)
	a.facts.reads = firstReads(a.facts.reads)
	a.facts.fallbacks = sortFallbacks(a.facts.fallbacks)
	return &a.facts
}

// bindConst records the variables a const declaration binds.
func (a *envAnalysis) bindConst(b js.IBinding, init js.IExpr, path []patternKey) {
	switch b := b.(type) {
	case *js.Var:
		a.consts[b] = constBinding{init, path}
	case *js.BindingObject:
		for _, item := range b.List {
			key := a.patternKey(item)
			a.bindConst(item.Value.Binding, init, append(slices.Clip(path), key))
		}
		if b.Rest != nil {
			a.consts[b.Rest] = constBinding{init, append(slices.Clip(path), patternKey{ok: true, rest: true})}
		}
	case *js.BindingArray:
		for _, el := range b.List {
			a.bindConst(el.Binding, init, append(slices.Clip(path), patternKey{}))
		}
	}
}

// patternKey returns the property a destructuring item reads.
func (a *envAnalysis) patternKey(item js.BindingObjectItem) patternKey {
	if item.Key == nil {
		return patternKey{}
	}
	if item.Key.Computed != nil {
		if v := a.eval(item.Key.Computed); v.kind == stringLit {
			return patternKey{name: v.name, pos: v.pos, ok: true}
		}
		return patternKey{}
	}
	lit := item.Key.Literal
	if lit.TokenType == js.StringToken {
		s, ok := stringValue(lit.Data)
		return patternKey{name: s, pos: a.m.pos(lit.Data), ok: ok}
	}
	key := patternKey{name: string(lit.Data), pos: a.m.pos(lit.Data), ok: true}
	if v, ok := item.Value.Binding.(*js.Var); ok && !key.pos.IsValid() {
		// The tree copies the key of a shorthand item ({ NAME }); the
		// variable it declares is the same token.
		key.pos = a.m.pos(v.Data)
	}
	return key
}

// visit records the reads and fallbacks at one node of the tree.
func (a *envAnalysis) visit(n js.INode) bool {
	switch n := n.(type) {
	case *js.BinaryExpr:
		switch n.Op {
		case js.EqToken:
			a.markWrite(n.X)
		case js.OrToken, js.NullishToken:
			url := a.eval(n.Y)
			for _, v := range a.envOperands(n.X) {
				a.fallbackTo(v, url)
			}
		case js.OrEqToken, js.NullishEqToken:
			if v := a.eval(n.X); v.kind == envValue {
				a.fallbackTo(v, a.eval(n.Y))
			}
		}
	case *js.UnaryExpr:
		if n.Op == js.DeleteToken {
			a.markWrite(n.X)
		}
	case *js.CondExpr:
		x, y := a.eval(n.X), a.eval(n.Y)
		switch {
		case x.kind == envValue && y.isURL():
			a.fallback(x, y)
		case y.kind == envValue && x.isURL():
			a.fallback(y, x)
		}
	case *js.DotExpr:
		a.memberRead(n)
	case *js.IndexExpr:
		a.memberRead(n)
	case *js.CallExpr:
		// A helper called with the environment or a variable's name reads
		// it: analyse the helper's body with those arguments.
		a.callLocal(n, true)
	case *js.BindingElement:
		// A pattern with an initializer (a declaration, or a parameter's
		// default) reads the properties it names.
		if obj, ok := n.Binding.(*js.BindingObject); ok && n.Default != nil {
			a.destructure(obj, a.eval(n.Default))
		}
	}
	return true
}

// markWrite notes that a member expression is assigned to or deleted, so
// that visiting it does not count as a read.
func (a *envAnalysis) markWrite(e js.IExpr) {
	switch e := Unparen(e).(type) {
	case *js.DotExpr:
		a.writes[e] = true
	case *js.IndexExpr:
		a.writes[e] = true
	}
}

// memberRead records a read written as a member expression.
func (a *envAnalysis) memberRead(e js.IExpr) {
	if a.writes[e] {
		return
	}
	// Only a property read on an environment object evaluates to an
	// environment value; conversions (calls) and consts are other nodes.
	if v := a.eval(e); v.kind == envValue {
		a.read(v)
	}
}

// destructure records the reads, and the fallbacks in defaults, of an
// object pattern applied to src.
func (a *envAnalysis) destructure(obj *js.BindingObject, src value) {
	if src.kind != globalObject && src.kind != processObject && src.kind != envObject && src.kind != objectLit {
		return
	}
	for _, item := range obj.List {
		key := a.patternKey(item)
		if !key.ok {
			continue
		}
		v := a.member(src, key.name, key.pos)
		v.direct = true // the key is written in the pattern
		if v.kind == envValue {
			a.read(v)
			if def := a.eval(item.Value.Default); item.Value.Default != nil && def.isURL() {
				a.fallback(v, def)
			}
		}
		if inner, ok := item.Value.Binding.(*js.BindingObject); ok {
			a.destructure(inner, v)
		}
	}
}

// envOperands returns the environment values on the left of a || or ??
// fallback, looking through chains: in A || B || "https://…" both A and B
// fall back to the URL.
func (a *envAnalysis) envOperands(e js.IExpr) []value {
	if b, ok := Unparen(e).(*js.BinaryExpr); ok && (b.Op == js.OrToken || b.Op == js.NullishToken) {
		return append(a.envOperands(b.X), a.envOperands(b.Y)...)
	}
	if v := a.eval(e); v.kind == envValue {
		return []value{v}
	}
	return nil
}

func (a *envAnalysis) read(v value) {
	a.facts.reads = append(a.facts.reads, EnvRead{Name: v.name, Pos: v.pos})
}

// fallbackTo records what an environment read falls back to when it
// matters: a URL (a default environment) or, for a credential variable, a
// literal secret (a hard-coded credential).
func (a *envAnalysis) fallbackTo(v, alt value) {
	switch {
	case alt.isURL():
		a.fallback(v, alt)
	case alt.kind == stringLit && alt.direct && credential.Name(v.name) && credential.Secret(v.name, alt.name):
		a.facts.secretFallbacks = append(a.facts.secretFallbacks, EnvFallback{Var: v.name, URL: alt.name, Pos: alt.pos, VarPos: v.pos, URLPos: alt.pos})
	}
}

func (a *envAnalysis) fallback(v, url value) {
	f := EnvFallback{Var: v.name, URL: url.name, VarPos: v.pos, URLPos: url.pos}
	switch {
	case url.direct || !v.direct:
		f.Pos = url.pos
	default:
		f.Pos = v.pos
	}
	a.facts.fallbacks = append(a.facts.fallbacks, f)
}

// maxEvalDepth bounds eval's recursion. An environment read is a few
// steps deep (globalThis.process.env.NAME.trim(), or a const naming one);
// the bound keeps long member chains and const chains linear to analyse
// instead of quadratic, and the stack small.
const maxEvalDepth = 64

// eval works out what an expression evaluates to. It follows const
// bindings, property reads on process, process.env and globalThis, and the
// conversions a module applies to a variable before using it (a method
// call on it, String(it), a non-URL fallback such as it ?? "").
func (a *envAnalysis) eval(e js.IExpr) value {
	if a.depth >= maxEvalDepth {
		return value{}
	}
	a.depth++
	defer func() { a.depth-- }()
	switch e := Unparen(e).(type) {
	case *js.Var:
		return a.evalVar(e)
	case *js.LiteralExpr, js.LiteralExpr:
		lit, _ := Literal(e)
		if lit.TokenType == js.StringToken {
			if s, ok := stringValue(lit.Data); ok {
				return value{kind: stringLit, name: s, pos: a.m.pos(lit.Data), direct: true}
			}
		}
	case *js.TemplateExpr:
		return a.template(e)
	case *js.ObjectExpr:
		return value{kind: objectLit, obj: e, direct: true}
	case *js.DotExpr:
		if lit, ok := Literal(e.Y); ok {
			return a.member(a.eval(e.X), string(lit.Data), a.m.pos(lit.Data))
		}
	case *js.IndexExpr:
		if key := a.eval(e.Y); key.kind == stringLit {
			v := a.member(a.eval(e.X), key.name, key.pos)
			v.direct = v.direct && key.direct
			return v
		}
	case *js.CallExpr:
		return a.call(e)
	case *js.BinaryExpr:
		if e.Op == js.OrToken || e.Op == js.NullishToken {
			x, y := a.eval(e.X), a.eval(e.Y)
			switch {
			case x.kind == envValue && !y.isURL():
				return x
			case x.kind == envObject || y.kind == envObject:
				// An injectable environment, context.env ?? process.env:
				// it may be process.env, so what is read from it is read
				// from the environment.
				return value{kind: envObject}
			}
		}
	case *js.CondExpr:
		x, y := a.eval(e.X), a.eval(e.Y)
		switch {
		case x.kind == envValue && !y.isURL():
			return x
		case y.kind == envValue && !x.isURL():
			return y
		}
	}
	return value{}
}

// call evaluates a call of one of the module's functions to what it returns
// (see envcall.go), and value.method(…) and String(value) on an environment
// value to that value: trimming or converting a variable still reads it.
func (a *envAnalysis) call(e *js.CallExpr) value {
	if v, local := a.callLocal(e, false); local {
		return v
	}
	switch callee := Unparen(e.X).(type) {
	case *js.DotExpr:
		if v := a.eval(callee.X); v.kind == envValue {
			return v
		}
	case *js.Var:
		if r := root(callee); r.Decl == js.NoDecl && string(r.Data) == "String" && len(e.Args.List) == 1 {
			if v := a.eval(e.Args.List[0].Value); v.kind == envValue {
				return v
			}
		}
	}
	return value{}
}

// member evaluates reading the property name of obj.
func (a *envAnalysis) member(obj value, name string, pos Pos) value {
	switch {
	case obj.kind == globalObject && name == "process":
		return value{kind: processObject}
	case obj.kind == processObject && name == "env":
		return value{kind: envObject}
	case obj.kind == envObject:
		return value{kind: envValue, name: name, pos: pos, direct: true}
	case obj.kind == objectLit:
		return a.objectMember(obj, name, pos)
	}
	return value{}
}

// objectMember evaluates reading the property name of an object literal.
// A literal that spreads process.env over defaults,
//
//	{ API_URL: "https://…", ...process.env }
//
// reads the variable, and its default for it is a fallback.
func (a *envAnalysis) objectMember(obj value, name string, pos Pos) value {
	def, defAt, spreadAt := js.IExpr(nil), -1, -1
	var spreadDef value // the member of an object literal spread before process.env
	for i, p := range obj.obj.List {
		switch {
		case p.Spread:
			switch sv := a.eval(p.Value); sv.kind {
			case envObject:
				spreadAt = i
			case objectLit:
				// { ...DEFAULTS, ...process.env }: DEFAULTS' members are
				// defaults like literal members.
				if m := a.objectMember(sv, name, pos); m.kind != unknown {
					spreadDef, def, defAt = m, nil, i
				}
			}
		case p.Name != nil && a.propertyName(p.Name) == name:
			def, defAt = p.Value, i
		case p.Name == nil && p.Init == nil:
			if v, ok := p.Value.(*js.Var); ok && string(v.Data) == name { // shorthand { name }
				def, defAt = v, i
			}
		}
	}
	switch {
	case spreadAt > defAt:
		v := value{kind: envValue, name: name, pos: pos, direct: true}
		if url := a.eval(def); def != nil && url.isURL() {
			a.fallback(v, url)
		} else if def == nil && spreadDef.isURL() {
			a.fallback(v, spreadDef)
		}
		return v
	case defAt >= 0 && def == nil:
		spreadDef.direct = false
		return spreadDef
	case defAt >= 0:
		v := a.eval(def)
		v.direct = v.direct && obj.direct // a const object's literals are written elsewhere
		return v
	}
	return value{}
}

// propertyName returns the name of a non-computed or string-valued
// property name, or "".
func (a *envAnalysis) propertyName(n *js.PropertyName) string {
	if n.Computed != nil {
		if v := a.eval(n.Computed); v.kind == stringLit {
			return v.name
		}
		return ""
	}
	if n.Literal.TokenType == js.StringToken {
		s, _ := stringValue(n.Literal.Data)
		return s
	}
	return string(n.Literal.Data)
}

// evalVar evaluates a variable reference: a global, an import from
// node:process, or a const.
func (a *envAnalysis) evalVar(v *js.Var) value {
	r := root(v)
	if r.Decl == js.NoDecl {
		name := string(r.Data)
		if imp, ok := a.m.imports[name]; ok {
			if imp.module != "node:process" && imp.module != "process" {
				return value{}
			}
			switch imp.name {
			case "default", "*":
				return value{kind: processObject}
			case "env":
				return value{kind: envObject}
			}
			return value{}
		}
		switch name {
		case "process":
			return value{kind: processObject}
		case "globalThis", "global":
			return value{kind: globalObject}
		}
		return value{}
	}
	if v, ok := a.params[r]; ok {
		return v
	}
	b, ok := a.consts[r]
	if !ok {
		return value{}
	}
	if v, ok := a.memo[r]; ok {
		return v
	}
	if a.busy[r] { // const a = a: a reference error at run time
		return value{}
	}
	a.busy[r] = true
	val := a.eval(b.init)
	for _, k := range b.path {
		switch {
		case !k.ok:
			val = value{}
		case k.rest:
			if val.kind == envValue {
				val = value{}
			}
		default:
			val = a.member(val, k.name, k.pos)
		}
	}
	val.direct = false
	delete(a.busy, r)
	a.memo[r] = val
	return val
}

// template evaluates a template literal: its text when it has no
// substitutions, or the source text when it starts with an http(s) scheme.
func (a *envAnalysis) template(t *js.TemplateExpr) value {
	if t.Tag != nil {
		return value{}
	}
	if len(t.List) == 0 {
		if s, ok := templateValue(t.Tail); ok {
			return value{kind: stringLit, name: s, pos: a.m.pos(t.Tail), direct: true}
		}
		return value{}
	}
	head := t.List[0].Value // "`text${"
	if len(head) < 3 {
		return value{}
	}
	s, ok := cook(head[1 : len(head)-2])
	if !ok {
		return value{}
	}
	if !isHTTPURL(s) {
		// `${CONFIG.API_HOST}/api`: a template that starts with a URL
		// held by a const (or a const object's property) is a URL too.
		if s != "" {
			return value{}
		}
		if first := a.eval(t.List[0].Expr); !first.isURL() {
			return value{}
		}
	}
	start, ok1 := subsliceOffset(a.m.src, head)
	end, ok2 := subsliceOffset(a.m.src, t.Tail)
	if !ok1 || !ok2 || end < start {
		return value{}
	}
	text := string(a.m.src[start : end+len(t.Tail)])
	text = strings.TrimSuffix(strings.TrimPrefix(text, "`"), "`")
	return value{kind: urlTemplate, name: text, pos: a.m.lines.pos(start), direct: true}
}

// firstReads keeps the first read of each variable, in source order.
func firstReads(reads []EnvRead) []EnvRead {
	slices.SortStableFunc(reads, func(x, y EnvRead) int {
		return cmp.Or(comparePos(x.Pos, y.Pos), strings.Compare(x.Name, y.Name))
	})
	seen := map[string]bool{}
	out := reads[:0]
	for _, r := range reads {
		if !seen[r.Name] {
			seen[r.Name] = true
			out = append(out, r)
		}
	}
	return out
}

func sortFallbacks(fs []EnvFallback) []EnvFallback {
	slices.SortStableFunc(fs, func(x, y EnvFallback) int {
		return cmp.Or(comparePos(x.Pos, y.Pos), strings.Compare(x.Var, y.Var), strings.Compare(x.URL, y.URL))
	})
	return slices.Compact(fs)
}

// comparePos orders positions in source order, unknown positions last.
func comparePos(x, y Pos) int {
	if x.IsValid() != y.IsValid() {
		if x.IsValid() {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(x.Line, y.Line), cmp.Compare(x.Column, y.Column))
}
