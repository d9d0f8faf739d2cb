package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/livecall"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// LiveCase is verification/cases/live/<capabilityId>.json: the live call
// the operator wants made for one capability.
//
//	{
//	  "name": "<toolName>",
//	  "arguments": {…}
//	}
//
// A value the run issues (a grant, an identifier) is not written into the
// case: an argument {"$result": {"capabilityId": "<id>", "path": [...]}}
// stands for what that capability's call returned earlier in the same
// session (livecall.Resolve). Credentials, addresses and protected values
// are never part of a case: the host runtime takes the first two from its
// environment variables and records the last in the session.
type LiveCase struct {
	File      string // relative to the state directory
	Name      string
	Arguments *canonjson.Object
	// References are the arguments' references to earlier results.
	References []livecall.Reference
}

// caseReader collects the findings about one live case file.
type caseReader struct {
	file string
	ds   []diag.Diagnostic
}

func (c *caseReader) add(pointer, format string, args ...any) {
	c.ds = append(c.ds, RuleLiveCase.New(c.file, format, args...).AtPointer(pointer))
}

// readLiveCase reads the live case of a capability; nil without findings
// when there is none. c is the contract, whose order is the order of the
// calls: a reference names a capability called before cp.
func (p *Pipeline) readLiveCase(c *contract.Contract, cp *contract.Capability, inputSchema []byte) (*LiveCase, []diag.Diagnostic, error) {
	rel := LiveCasesDir + "/" + cp.ID + ".json"
	data, err := readRegular(p.statePath(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil
	case err != nil:
		if d, ok := pkgdir.ReadFinding(rel, err); ok {
			return nil, []diag.Diagnostic{d}, nil
		}
		return nil, nil, err
	}
	cr := &caseReader{file: rel}
	doc, err := canonjson.Decode(data)
	if err != nil {
		cr.add("", "not JSON: %v", err)
		return nil, cr.ds, nil
	}
	o, ok := doc.(*canonjson.Object)
	if !ok {
		cr.add("", "a live case is an object {name, arguments}, got %s", canonjson.TypeName(doc))
		return nil, cr.ds, nil
	}
	lc := &LiveCase{File: rel}
	for _, k := range o.Keys() {
		switch k {
		case "name", "arguments":
		case "trusted":
			cr.add("/trusted", "a live case no longer has a trusted part: the host runtime takes credentials and base URLs from its variables (--env, --runtime-origin) and records protected values in the session; pass issued values with {%q: {\"capabilityId\", \"path\"}}", livecall.ReferenceKey)
		default:
			cr.add("/"+diag.EscapeToken(k), "unknown member %q; a live case has name and arguments", k)
		}
	}
	if name, _ := o.Get("name"); name != canonjson.String(cp.ToolName) {
		cr.add("/name", "the live case of %s must call its Tool %q", cp.ID, cp.ToolName)
	}
	lc.Name = cp.ToolName
	switch args, ok := o.Get("arguments"); {
	case !ok:
		lc.Arguments = &canonjson.Object{}
	default:
		if lc.Arguments, ok = args.(*canonjson.Object); !ok {
			cr.add("/arguments", "arguments must be an object, got %s", canonjson.TypeName(args))
		}
	}
	if lc.Arguments != nil {
		refs, err := livecall.References(lc.Arguments)
		if err != nil {
			cr.add("/arguments", "%v", err)
		}
		lc.References = refs
		cr.ds = append(cr.ds, checkReferences(rel, c, cp, refs)...)
	}
	if len(cr.ds) == 0 && len(lc.References) == 0 {
		if err := validArguments(inputSchema, lc.Arguments); err != "" {
			cr.add("/arguments", "the arguments break %s's input schema: %s", cp.ToolName, err)
		}
	}
	if len(cr.ds) > 0 {
		return nil, cr.ds, nil
	}
	return lc, nil, nil
}

// checkReferences judges a case's references against the order of the
// calls: each names a capability of the contract called before cp, and a
// pointer is a JSON Pointer.
func checkReferences(file string, c *contract.Contract, cp *contract.Capability, refs []livecall.Reference) []diag.Diagnostic {
	var ds []diag.Diagnostic
	self := slices.IndexFunc(c.Capabilities, func(x contract.Capability) bool { return x.ID == cp.ID })
	for _, ref := range refs {
		at := "/arguments" + ref.At + "/" + diag.EscapeToken(livecall.ReferenceKey)
		i := slices.IndexFunc(c.Capabilities, func(x contract.Capability) bool { return x.ID == ref.CapabilityID })
		switch {
		case i < 0:
			ds = append(ds, RuleLiveReference.New(file, "the reference names %s, which is no capability of the contract, so no live case of it is called", ref.CapabilityID).AtPointer(at+"/capabilityId"))
		case i >= self:
			ds = append(ds, RuleLiveReference.New(file, "the reference names %s, which is called %s: live calls are made in contract order, and a case passes on only the result of an earlier one", ref.CapabilityID, map[bool]string{true: "by this very case", false: "after " + cp.ID}[i == self]).AtPointer(at+"/capabilityId"))
		}
		if ref.HasPointer {
			if err := livecall.ValidPointer(ref.Pointer); err != nil {
				ds = append(ds, RuleLiveReference.New(file, "the reference's pointer is not a JSON Pointer: %v", err).AtPointer(at+"/pointer"))
			}
		}
	}
	return ds
}

// validArguments checks arguments against a derived input schema and
// returns the first violation, or "".
func validArguments(schema []byte, args *canonjson.Object) string {
	s, err := jsonschema.Compile(schema)
	if err != nil {
		return fmt.Sprintf("the input schema does not compile: %v", err)
	}
	vs, err := s.Validate(canonjson.DigestForm(args))
	if err != nil {
		return err.Error()
	}
	if len(vs) > 0 {
		return vs[0].String()
	}
	return ""
}
