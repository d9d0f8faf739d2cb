package compile

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/hostruntime"
)

// program is everything the generated modules are written from, decided
// before a line is written: which capabilities compile, and how.
type program struct {
	contract *contract.Contract
	dryRun   string // the dry-run environment variable
	caps     []*capPlan
	// hostBinding is mcp-tool/host-runtime.json; nil when the export
	// profile declares no host runtime.
	hostBinding []byte
	// sections are the byte ranges of each capability's own code in the
	// generated modules, by module path, as the writers produced them.
	sections map[string][]section
}

// section is one capability's own code in a generated module: the bytes
// [start, end) of that module.
type section struct {
	capabilityID string
	start, end   int
}

// capPlan is how one capability compiles, or why it cannot.
type capPlan struct {
	cap     *contract.Capability
	entry   *canonjson.Object // its entry in the schema contract
	doc     ToolDoc
	reasons []string // why it requires review; empty when it compiles

	static      []staticOutput // local implementations
	steps       []*stepPlan    // http implementations, in order
	outputStep  int            // index into steps
	workflowID  string         // deterministic-workflow writes
	pathInputs  []string       // inputs bound into a URL path
	attachments []string       // inputs the Host resolves into content

	// The rules checked on input that satisfies the schema.
	requiredWhen  []inputRule
	forbiddenWhen []inputRule
	constraints   []inputRule
}

// staticOutput is one member of a local implementation's fixed data.
type staticOutput struct {
	name  string
	value canonjson.Value
}

// stepPlan is one HTTP request of a capability.
type stepPlan struct {
	step     *contract.Step
	n        int                          // 1-based, names request<n> and response<n>
	path     map[string]*contract.Binding // placeholder -> its binding
	bindings []*contract.Binding          // query, header, body and multipart bindings, in contract order
	// outcomeKnown says whether a rejected status proves the call's
	// outcome: no earlier step of the call used a method that writes.
	outcomeKnown bool
}

// plan decides how every capability compiles and reports each reason one
// cannot.
func plan(in *Inputs, list *diag.List) *program {
	// The canonical contract: the runtime must not depend on the order of
	// what carries no meaning in the contract file.
	c := in.Core.Contract.Canonical()
	p := &program{contract: c, dryRun: in.Core.Export.DryRunVariable()}
	var limits []diag.Diagnostic
	p.hostBinding, limits = hostruntime.Binding(in.Core)
	list.Add(limits...)
	entries, _ := member(derive.SchemaContract(c), "capabilities").(canonjson.Array)
	for i := range c.Capabilities {
		cp := &capPlan{cap: &c.Capabilities[i]}
		if i < len(entries) {
			cp.entry, _ = entries[i].(*canonjson.Object)
		}
		pl := &planner{list: list, cp: cp, contract: c}
		pl.toolDoc(in.ToolDocs)
		pl.names()
		pl.schemas()
		pl.conditionalRules()
		pl.constraints()
		switch cp.cap.Implementation.Kind {
		case contract.ImplementationLocal:
			pl.local()
		case contract.ImplementationHTTP:
			pl.http()
		}
		pl.workflow()
		p.caps = append(p.caps, cp)
	}
	unknownDocs(c, in.ToolDocs, list)
	return p
}

// planner plans one capability.
type planner struct {
	list     *diag.List
	cp       *capPlan
	contract *contract.Contract
}

// refuse records a reason the capability cannot compile: a finding at a
// place of the contract (or of the tool docs), and the reason line of the
// report.
func (pl *planner) refuse(rule *diag.Rule, file, pointer, format string, args ...any) {
	why := fmt.Sprintf(format, args...)
	pl.list.Add(rule.New(file, "capability %q requires review: %s", pl.cp.cap.ID, why).AtPointer(pointer))
	pl.cp.reasons = append(pl.cp.reasons, why)
}

func (pl *planner) refuseContract(rule *diag.Rule, pointer, format string, args ...any) {
	pl.refuse(rule, contract.ContractFile, pointer, format, args...)
}

// toolDoc takes the capability's authored title and description.
func (pl *planner) toolDoc(docs ToolDocs) {
	tool := pl.cp.cap.ToolName
	doc, ok := docs[tool]
	switch {
	case docs == nil:
		pl.refuse(RuleToolDocsMissing, ToolDocsFile, "", "%s is absent, so Tool %q has no authored title and description", ToolDocsFile, tool)
	case !ok:
		pl.refuse(RuleToolDocsMissing, ToolDocsFile, "", "Tool %q has no entry with an authored title and description", tool)
	default:
		var missing []string
		if strings.TrimSpace(doc.Title) == "" {
			missing = append(missing, "title")
		}
		if strings.TrimSpace(doc.Description) == "" {
			missing = append(missing, "description")
		}
		if len(missing) > 0 {
			pl.refuse(RuleToolDocsMissing, ToolDocsFile, doc.At, "Tool %q has no authored %s", tool, strings.Join(missing, " or "))
		}
	}
	pl.cp.doc = doc
}

// unknownDocs warns about tool-docs entries that describe no Tool.
func unknownDocs(c *contract.Contract, docs ToolDocs, list *diag.List) {
	var names []string
	for name := range docs {
		if !slices.ContainsFunc(c.Capabilities, func(cp contract.Capability) bool { return cp.ToolName == name }) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		list.Add(RuleToolDocsUnknown.New(ToolDocsFile, "the contract declares no Tool %q; this entry is not used", name).AtPointer(docs[name].At))
	}
}

// names refuses a Function export that would collide with a name the
// generated modules declare or use.
func (pl *planner) names() {
	if fe := pl.cp.cap.FunctionExport; slices.Contains(reservedNames, fe) {
		pl.refuseContract(RuleNameReserved, ptr(pl.cp.cap.At, "functionExport"),
			"functionExport %q is a name the generated modules use; rename the export", fe)
	}
}

// local plans a local implementation: only a fully static one compiles.
func (pl *planner) local() {
	cp := pl.cp
	for i := range cp.cap.Outputs {
		o := &cp.cap.Outputs[i]
		d := o.ValueDomain
		if len(o.Path) != 1 || o.Path[0] == "*" || d == nil || d.Kind != contract.DomainStatic || len(d.Values) != 1 {
			pl.refuseContract(RuleLocalNotStatic, o.At,
				"local output %s is not one static value at a single-segment path; code cannot compute it from the contract",
				strings.Join(o.Path, "."))
			continue
		}
		cp.static = append(cp.static, staticOutput{o.Path[0], d.Values[0]})
	}
	if len(cp.cap.Outputs) == 0 {
		pl.refuseContract(RuleLocalNotStatic, ptr(cp.cap.At, "outputs"), "a local implementation without outputs has nothing to return")
	}
}

// placeholderRE matches a {name} placeholder of a URL template.
var placeholderRE = regexp.MustCompile(`\{([^{}/?#]*)\}`)

// scalarTypes are the input types a URL path segment can carry.
var scalarTypes = []string{"string", "integer", "number", "boolean"}

// http plans the HTTP steps.
func (pl *planner) http() {
	cp := pl.cp
	im := &cp.cap.Implementation
	writes := false
	for i := range im.Steps {
		s := &im.Steps[i]
		sp := &stepPlan{step: s, n: i + 1, path: map[string]*contract.Binding{}, outcomeKnown: !writes}
		if s.ID == im.OutputStepID {
			cp.outputStep = i
		}
		if s.Method != "GET" && s.Method != "HEAD" {
			writes = true
		}
		placeholders := pl.placeholders(s)
		for j := range s.Bindings {
			b := &s.Bindings[j]
			switch b.Location {
			case "path":
				pl.pathBinding(sp, b, placeholders)
			case "header", "multipart":
				if len(b.Path) != 1 {
					pl.refuseContract(RuleBindingTarget, ptr(b.At, "path"),
						"a %s binding names one field, not the path %s", b.Location, strings.Join(b.Path, "."))
					continue
				}
				sp.bindings = append(sp.bindings, b)
			default: // query, body
				sp.bindings = append(sp.bindings, b)
			}
			if b.Source.Kind == contract.SourceHostResolvedAttachment && !slices.Contains(cp.attachments, b.Source.InputName) {
				cp.attachments = append(cp.attachments, b.Source.InputName)
			}
		}
		for _, name := range placeholders {
			if sp.path[name] == nil {
				pl.refuseContract(RuleURLTemplate, ptr(s.At, "url"), "the URL placeholder {%s} has no path binding", name)
			}
		}
		pl.overlaps(sp)
		cp.steps = append(cp.steps, sp)
	}
}

// placeholders returns the {names} of a step URL, in order, after checking
// that they sit in its path and that no brace stands alone.
func (pl *planner) placeholders(s *contract.Step) []string {
	u := s.URL
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	pathStart := strings.IndexByte(rest, '/')
	pathEnd := strings.IndexAny(rest, "?#")
	if pathEnd < 0 {
		pathEnd = len(rest)
	}
	var names []string
	for _, m := range placeholderRE.FindAllStringSubmatchIndex(rest, -1) {
		name := rest[m[2]:m[3]]
		switch {
		case name == "":
			pl.refuseContract(RuleURLTemplate, ptr(s.At, "url"), "the URL %q has an empty placeholder {}", u)
		case pathStart < 0 || m[0] < pathStart || m[1] > pathEnd:
			pl.refuseContract(RuleURLTemplate, ptr(s.At, "url"), "the placeholder {%s} of %q is not in the URL's path", name, u)
		case slices.Contains(names, name):
			pl.refuseContract(RuleURLTemplate, ptr(s.At, "url"), "the placeholder {%s} appears twice in %q", name, u)
		default:
			names = append(names, name)
		}
	}
	if stray := placeholderRE.ReplaceAllString(rest, ""); strings.ContainsAny(stray, "{}") {
		pl.refuseContract(RuleURLTemplate, ptr(s.At, "url"), "the URL %q has a brace that opens or closes no {placeholder}", u)
	}
	return names
}

// pathBinding plans a binding into the URL path: one segment naming a
// placeholder, fed by a required scalar input or an earlier response.
func (pl *planner) pathBinding(sp *stepPlan, b *contract.Binding, placeholders []string) {
	if len(b.Path) != 1 {
		pl.refuseContract(RuleBindingTarget, ptr(b.At, "path"),
			"a path binding names one {placeholder}, not the path %s", strings.Join(b.Path, "."))
		return
	}
	name := b.Path[0]
	switch {
	case !slices.Contains(placeholders, name):
		pl.refuseContract(RuleURLTemplate, ptr(b.At, "path", 0), "the URL %q has no placeholder {%s}", sp.step.URL, name)
		return
	case sp.path[name] != nil:
		pl.refuseContract(RuleBindingTarget, ptr(b.At, "path", 0), "two bindings fill the placeholder {%s}", name)
		return
	}
	switch src := b.Source; src.Kind {
	case contract.SourceInput:
		in, ok := pl.cp.cap.Input(src.InputName)
		if !ok {
			return // reported by derive
		}
		if !in.Required {
			pl.refuseContract(RuleURLTemplate, ptr(b.At, "source", "inputName"),
				"input %q fills the URL path segment {%s} but is not required; an omitted value has no URL", in.Name, name)
			return
		}
		if !slices.Contains(scalarTypes, in.Type) {
			pl.refuseContract(RuleURLTemplate, ptr(b.At, "source", "inputName"),
				"input %q of type %s cannot be one URL path segment {%s}", in.Name, in.Type, name)
			return
		}
		if !slices.Contains(pl.cp.pathInputs, in.Name) {
			pl.cp.pathInputs = append(pl.cp.pathInputs, in.Name)
		}
	case contract.SourceHostResolvedAttachment:
		pl.refuseContract(RuleBindingTarget, ptr(b.At, "location"), "attachment content cannot be the URL path segment {%s}", name)
		return
	}
	sp.path[name] = b
}

// overlaps refuses two bindings of a step that write the same place: equal
// paths, or one path inside the other, at the same location (header names
// compare without case).
func (pl *planner) overlaps(sp *stepPlan) {
	for i, a := range sp.bindings {
		for _, b := range sp.bindings[:i] {
			if a.Location != b.Location {
				continue
			}
			pa, pb := a.Path, b.Path
			if a.Location == "header" {
				pa, pb = lower(pa), lower(pb)
			}
			n := min(len(pa), len(pb))
			if slices.Equal(pa[:n], pb[:n]) {
				pl.refuseContract(RuleBindingTarget, ptr(a.At, "path"),
					"this %s binding writes %s, where another binding of step %q writes %s",
					a.Location, strings.Join(a.Path, "."), sp.step.ID, strings.Join(b.Path, "."))
			}
		}
	}
}

func lower(path []string) []string {
	out := make([]string, len(path))
	for i, s := range path {
		out[i] = strings.ToLower(s)
	}
	return out
}

// workflow plans the guard of a deterministic-workflow write: the workflow
// its protection names must have it as its entry.
func (pl *planner) workflow() {
	p := pl.cp.cap.RuntimeProtection
	if p == nil || p.Mode != contract.ProtectionDeterministicWorkflow || p.WorkflowID == "" {
		return
	}
	w, ok := pl.contract.Workflow(p.WorkflowID)
	if !ok {
		return // reported by derive
	}
	if w.EntryCapabilityID != pl.cp.cap.ID {
		pl.refuseContract(RuleWorkflow, ptr(w.At, "entryCapabilityId"),
			"its protection names workflow %q, whose entry is %q: the guard cannot protect a write the workflow does not enter through",
			w.ID, w.EntryCapabilityID)
		return
	}
	pl.cp.workflowID = w.ID
}

// ptr extends a JSON Pointer.
func ptr(base string, tokens ...any) string { return base + diag.Pointer(tokens...) }

// member returns o's member key, or nil.
func member(o *canonjson.Object, key string) canonjson.Value {
	v, _ := o.Get(key)
	return v
}
