package contractdiff

import (
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// walker compares two documents along the contract's shape and collects
// the changes.
type walker struct {
	changes []Change
	// renamed maps a capability's new ID to its old one.
	renamed map[string]string
}

func newWalker() *walker { return &walker{renamed: map[string]string{}} }

// place is where the walk is, in both documents: a chain of steps from the
// root, rendered into a shape, a description and pointers only when a
// change is recorded there.
type place struct {
	up     *place
	step   step
	shape  *contract.Shape // the shape of the value here; nil inside a schema
	capID  string
	output bool
	depth  int
}

// step is one step of a place: into a member, a list element or a map
// entry.
type step struct {
	kind               stepKind
	name               string // member name or entry key
	noun               string // element or entry
	elem               canonjson.Value
	list               *contract.Shape
	oldIndex, newIndex int
}

type stepKind uint8

const (
	root stepKind = iota
	intoMember
	intoElement
	intoEntry
)

func (p *place) member(key string, s *contract.Shape) place {
	q := place{up: p, step: step{kind: intoMember, name: key}, shape: s, capID: p.capID, output: p.output, depth: p.depth + 1}
	if key == "outputs" && p.depth == 2 && p.up.step.name == "capabilities" {
		q.output = true
	}
	return q
}

// element is the place of a list element; a missing side has index -1.
func (p *place) element(noun string, list *contract.Shape, e canonjson.Value, oldIndex, newIndex int) place {
	q := place{up: p, step: step{kind: intoElement, noun: noun, elem: e, list: list, oldIndex: oldIndex, newIndex: newIndex},
		shape: list.Elem, capID: p.capID, output: p.output, depth: p.depth + 1}
	if p.depth == 1 && p.step.name == "capabilities" {
		q.capID = identity(e, list)
	}
	return q
}

// entry is the place of a map entry (a header, a property).
func (p *place) entry(noun, key string, s *contract.Shape) place {
	return place{up: p, step: step{kind: intoEntry, noun: noun, name: key}, shape: s, capID: p.capID, output: p.output, depth: p.depth + 1}
}

// rendered is a place as a change reports it.
type rendered struct {
	shape, where, oldPtr, newPtr string
	// path is the place by identities: member names, element identities
	// and entry keys, which neither positions nor wording change.
	path []string
}

func (p *place) render() rendered {
	var steps []*step
	for q := p; q != nil && q.step.kind != root; q = q.up {
		steps = append(steps, &q.step)
	}
	var shape, where, oldPtr, newPtr strings.Builder
	path := make([]string, 0, len(steps))
	for i := len(steps) - 1; i >= 0; i-- {
		st := steps[i]
		var part string
		switch st.kind {
		case intoElement:
			path = append(path, identity(st.elem, st.list))
		default:
			path = append(path, st.name)
		}
		switch st.kind {
		case intoMember:
			if shape.Len() > 0 {
				shape.WriteByte('.')
			}
			shape.WriteString(st.name)
			// A list or map is named by its elements: "input "x"", not
			// "inputs › input "x"".
			if i == 0 || steps[i-1].kind == intoMember {
				part = st.name
			}
			oldPtr.WriteString("/" + diag.EscapeToken(st.name))
			newPtr.WriteString("/" + diag.EscapeToken(st.name))
		case intoElement:
			shape.WriteString("[]")
			part = strings.TrimSpace(st.noun + " " + strconv.Quote(label(st.elem, st.list)))
			oldPtr.WriteString("/" + strconv.Itoa(st.oldIndex))
			newPtr.WriteString("/" + strconv.Itoa(st.newIndex))
		case intoEntry:
			shape.WriteString("[]")
			part = st.noun + " " + strconv.Quote(st.name)
			oldPtr.WriteString("/" + diag.EscapeToken(st.name))
			newPtr.WriteString("/" + diag.EscapeToken(st.name))
		}
		if part == "" {
			continue
		}
		if where.Len() > 0 {
			where.WriteString(" › ")
		}
		where.WriteString(part)
	}
	return rendered{shape.String(), where.String(), oldPtr.String(), newPtr.String(), path}
}

// add records a change at p and classifies it.
func (w *walker) add(p *place, kind Kind, before, after canonjson.Value) {
	r := p.render()
	c := Change{Kind: kind, Where: r.where, Shape: r.shape, Pointer: r.newPtr, CapabilityID: p.capID,
		Before: before, After: after, output: p.output, path: r.path}
	if c.Where == "" {
		c.Where, c.Shape = "contract", "contract"
	}
	if kind == Removed {
		c.Pointer, c.InOld = r.oldPtr, true
	}
	rule := classify(&c)
	c.Class, c.Rule, c.Why = rule.Class, rule.ID, rule.Why
	w.changes = append(w.changes, c)
}

// discriminators name, for records of some shapes, the member that decides
// which other members they have: when it changes, the record changed as a
// whole, not member by member.
var discriminators = func() map[*contract.Shape]string {
	out := map[*contract.Shape]string{}
	for path, member := range map[string]string{
		"capabilities.attachments":                          "mode",
		"capabilities.runtimeProtection":                    "mode",
		"capabilities.implementation":                       "kind",
		"capabilities.implementation.steps.bindings.source": "kind",
		"capabilities.inputs.targetRequiredness":            "status",
		"capabilities.inputs.valueDomain":                   "kind",
		"capabilities.outputs.valueDomain":                  "kind",
		"workflows.bindings.actualSource":                   "kind",
		"workflows.bindings.expectedSource":                 "kind",
	} {
		out[shapeAt(path)] = member
	}
	return out
}()

// evidenceShape is the shape of an evidence catalog entry.
var evidenceShape = shapeAt("evidenceCatalog")

// shapeAt follows member names from the contract's shape, stepping into
// list elements on the way.
func shapeAt(path string) *contract.Shape {
	s := contract.ContractShape
	for _, name := range strings.Split(path, ".") {
		m, ok := s.Member(name)
		if !ok {
			panic("contractdiff: no member " + path)
		}
		s = m
		if s.Kind == contract.KindList {
			s = s.Elem
		}
	}
	return s
}

var freeShape = &contract.Shape{Kind: contract.KindValue}

// value compares one value of both documents.
func (w *walker) value(old, new canonjson.Value, s *contract.Shape, p *place) {
	if old == nil && new == nil {
		return
	}
	if s.Kind == contract.KindList {
		oa, _ := old.(canonjson.Array)
		na, _ := new.(canonjson.Array)
		if (old == nil || oa != nil) && (new == nil || na != nil) {
			w.list(oa, na, s, p)
			return
		}
	}
	switch {
	case old == nil:
		w.add(p, Added, nil, new)
		return
	case new == nil:
		w.add(p, Removed, old, nil)
		return
	case canonjson.Equal(old, new):
		return
	}
	o, oOK := old.(*canonjson.Object)
	n, nOK := new.(*canonjson.Object)
	switch {
	case s.Kind == contract.KindSchema:
		w.schema(old, new, p)
	case s.Kind == contract.KindRecord && oOK && nOK:
		w.record(o, n, s, p)
	case s.Kind == contract.KindMap && oOK && nOK:
		for _, k := range unionKeys(o, n) {
			ep := p.entry(s.Noun, k, s.Elem)
			w.value(o.At(k), n.At(k), s.Elem, &ep)
		}
	default:
		w.add(p, Changed, old, new)
	}
}

// record compares two records member by member.
func (w *walker) record(o, n *canonjson.Object, s *contract.Shape, p *place) {
	if d := discriminators[s]; d != "" && !canonjson.Equal(o.At(d), n.At(d)) {
		w.add(p, Changed, o, n)
		return
	}
	for _, m := range s.Members {
		ov, nv := o.At(m.Name), n.At(m.Name)
		if ov == nil && nv == nil {
			continue
		}
		mp := p.member(m.Name, m.Shape)
		if s == evidenceShape && m.Name == "locator" {
			w.locator(ov, nv, &mp)
			continue
		}
		w.value(ov, nv, m.Shape, &mp)
	}
	if hasUnknown(o, s) || hasUnknown(n, s) {
		for _, k := range unionKeys(o, n) {
			if _, known := s.Member(k); !known {
				mp := p.member(k, freeShape)
				w.value(o.At(k), n.At(k), freeShape, &mp)
			}
		}
	}
}

func hasUnknown(o *canonjson.Object, s *contract.Shape) bool {
	for k := range o.All() {
		if _, ok := s.Member(k); !ok {
			return true
		}
	}
	return false
}

// locator compares evidence locators by identity: source path and symbol.
// A line hint that drifted is no change.
func (w *walker) locator(old, new canonjson.Value, p *place) {
	os, _ := old.(canonjson.String)
	ns, _ := new.(canonjson.String)
	if contract.StableLocator(string(os)) == contract.StableLocator(string(ns)) {
		return
	}
	w.add(p, Moved, old, new)
}

// list compares two lists: elements matched by identity, then compared.
func (w *walker) list(o, n canonjson.Array, s *contract.Shape, p *place) {
	if canonjson.Equal(o, n) {
		return
	}
	oldIDs, newIDs := identities(o, s), identities(n, s)
	if hasDuplicates(oldIDs) || hasDuplicates(newIDs) {
		// No identity to match by: compare the lists as multisets of
		// values.
		oldIDs, newIDs = digests(o), digests(n)
	}
	pending := make(map[string][]int, len(oldIDs))
	for i, id := range oldIDs {
		pending[id] = append(pending[id], i)
	}
	match := make([]int, len(n)) // old index of each new element, or -1
	matchedOld := make([]bool, len(o))
	for j, id := range newIDs {
		match[j] = -1
		if q := pending[id]; len(q) > 0 {
			match[j], pending[id] = q[0], q[1:]
			matchedOld[q[0]] = true
		}
	}
	noun := nounOf(s, p)
	for i, e := range o {
		if !matchedOld[i] {
			ep := p.element(noun, s, e, i, -1)
			w.add(&ep, Removed, e, nil)
		}
	}
	order := make([]int, 0, len(n))
	for j, e := range n {
		i := match[j]
		ep := p.element(noun, s, e, i, j)
		if i < 0 {
			w.add(&ep, Added, nil, e)
			continue
		}
		order = append(order, i)
		w.value(o[i], e, s.Elem, &ep)
	}
	if s.Order != contract.Set && !slices.IsSorted(order) {
		w.add(p, Reordered, labels(o, s), labels(n, s))
	}
}

// identities returns what identifies each element of a list.
func identities(a canonjson.Array, s *contract.Shape) []string {
	out := make([]string, len(a))
	for i, e := range a {
		out[i] = identity(e, s)
	}
	return out
}

// identity is what identifies a list element: its key members, a bare
// string itself, or the element's value without its evidence and prose
// (so that a condition whose evidence changed is the same condition).
func identity(e canonjson.Value, s *contract.Shape) string {
	if len(s.Key) > 0 {
		return s.Identity(e)
	}
	switch v := e.(type) {
	case canonjson.String:
		return string(v)
	case *canonjson.Object:
		if v.Has("evidenceRefs") || v.Has("description") {
			c := &canonjson.Object{}
			for k, m := range v.All() {
				if k != "evidenceRefs" && k != "description" {
					c.Set(k, m)
				}
			}
			e = c
		}
	}
	return string(canonjson.DigestForm(e))
}

func digests(a canonjson.Array) []string {
	out := make([]string, len(a))
	for i, e := range a {
		out[i] = string(canonjson.DigestForm(e))
	}
	return out
}

func hasDuplicates(ids []string) bool {
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return true
		}
		seen[id] = true
	}
	return false
}

// label names a list element for people: its identity, or its value.
func label(e canonjson.Value, s *contract.Shape) string {
	if str, ok := e.(canonjson.String); ok {
		return string(str)
	}
	o, ok := e.(*canonjson.Object)
	if !ok || len(s.Key) == 0 {
		return short(e)
	}
	var parts []string
	for _, k := range s.Key {
		switch v := o.At(k).(type) {
		case canonjson.String:
			parts = append(parts, string(v))
		case nil:
		default:
			parts = append(parts, short(v))
		}
	}
	sep := "/"
	if len(s.Key) == 2 && strings.HasPrefix(s.Key[0], "from") {
		sep = " → "
	}
	return strings.Join(parts, sep)
}

func labels(a canonjson.Array, s *contract.Shape) canonjson.Value {
	out := make(canonjson.Array, len(a))
	for i, e := range a {
		out[i] = canonjson.String(label(e, s))
	}
	return out
}

// short renders a value on one line, at most 80 characters.
func short(v canonjson.Value) string {
	if p, ok := v.(canonjson.Array); ok && len(canonjson.StringsOf(p)) == len(p) && len(p) > 0 {
		return strings.Join(canonjson.StringsOf(p), ".")
	}
	s := string(canonjson.DigestForm(v))
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// nounOf names one element of the list at p: its shape's noun, or the
// list's own name ("requiredWhen", "evidenceRefs").
func nounOf(s *contract.Shape, p *place) string {
	if s.Elem != nil && s.Elem.Noun != "" {
		return s.Elem.Noun
	}
	return p.step.name
}

// unionKeys returns the keys of o and then those only n has, sorted.
func unionKeys(o, n *canonjson.Object) []string {
	keys := o.Keys()
	var extra []string
	for k := range n.All() {
		if !o.Has(k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	return append(keys, extra...)
}
