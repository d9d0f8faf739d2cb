package pipeline

import (
	"errors"
	"fmt"
	"io/fs"

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
// when there is none.
func (p *Pipeline) readLiveCase(cp *contract.Capability, inputSchema []byte) (*LiveCase, []diag.Diagnostic, error) {
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
	c := &caseReader{file: rel}
	doc, err := canonjson.Decode(data)
	if err != nil {
		c.add("", "not JSON: %v", err)
		return nil, c.ds, nil
	}
	o, ok := doc.(*canonjson.Object)
	if !ok {
		c.add("", "a live case is an object {name, arguments}, got %s", canonjson.TypeName(doc))
		return nil, c.ds, nil
	}
	lc := &LiveCase{File: rel}
	for _, k := range o.Keys() {
		switch k {
		case "name", "arguments":
		case "trusted":
			c.add("/trusted", "a live case no longer has a trusted part: the host runtime takes credentials and base URLs from its variables (--env, --runtime-origin) and records protected values in the session; pass issued values with {%q: {\"capabilityId\", \"path\"}}", livecall.ReferenceKey)
		default:
			c.add("/"+diag.EscapeToken(k), "unknown member %q; a live case has name and arguments", k)
		}
	}
	if name, _ := o.Get("name"); name != canonjson.String(cp.ToolName) {
		c.add("/name", "the live case of %s must call its Tool %q", cp.ID, cp.ToolName)
	}
	lc.Name = cp.ToolName
	switch args, ok := o.Get("arguments"); {
	case !ok:
		lc.Arguments = &canonjson.Object{}
	default:
		if lc.Arguments, ok = args.(*canonjson.Object); !ok {
			c.add("/arguments", "arguments must be an object, got %s", canonjson.TypeName(args))
		}
	}
	if lc.Arguments != nil {
		refs, err := livecall.References(lc.Arguments)
		if err != nil {
			c.add("/arguments", "%v", err)
		}
		lc.References = refs
	}
	if len(c.ds) == 0 && len(lc.References) == 0 {
		if err := validArguments(inputSchema, lc.Arguments); err != "" {
			c.add("/arguments", "the arguments break %s's input schema: %s", cp.ToolName, err)
		}
	}
	if len(c.ds) > 0 {
		return nil, c.ds, nil
	}
	return lc, nil, nil
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
