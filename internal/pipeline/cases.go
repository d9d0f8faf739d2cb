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
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// LiveCase is verification/cases/live/<capabilityId>.json: the live call
// the operator wants made for one capability, and what the trusted side
// supplies for it.
//
//	{
//	  "name": "<toolName>",
//	  "arguments": {…},
//	  "trusted": {                                  optional
//	    "runtimeContext": {"subjectId": "…"},       claims the Function may read
//	    "protectedValues": {"<binding>": …},        a guarded write's protected values
//	    "expiresAt": "…", "singleUse": true,        only when the source proves them
//	    "headers": {"authorization": {"env": "NAME"}}  credentials for requests that need them
//	  }
//	}
//
// The trusted part never reaches the Tool: the host keeps it, and the
// guard compares the arguments with it.
type LiveCase struct {
	File      string // relative to the state directory
	Name      string
	Arguments *canonjson.Object
	Trusted   Trusted
}

// Trusted is what the trusted side supplies for a live call.
type Trusted struct {
	RuntimeContext  *canonjson.Object
	ProtectedValues *canonjson.Object
	ExpiresAt       canonjson.Value
	SingleUse       bool
	// Headers map a header name to a literal value or to {"env": NAME},
	// a variable of code2skill's own environment.
	Headers *canonjson.Object
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
		c.add("", "a live case is an object {name, arguments, trusted?}, got %s", canonjson.TypeName(doc))
		return nil, c.ds, nil
	}
	lc := &LiveCase{File: rel}
	for _, k := range o.Keys() {
		if !slices.Contains([]string{"name", "arguments", "trusted"}, k) {
			c.add("/"+diag.EscapeToken(k), "unknown member %q; a live case has name, arguments and trusted", k)
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
	if t, ok := o.Get("trusted"); ok {
		readTrusted(c, t, &lc.Trusted)
	}
	if len(c.ds) == 0 {
		if err := validArguments(inputSchema, lc.Arguments); err != "" {
			c.add("/arguments", "the arguments break %s's input schema: %s", cp.ToolName, err)
		}
	}
	if len(c.ds) > 0 {
		return nil, c.ds, nil
	}
	return lc, nil, nil
}

func readTrusted(c *caseReader, v canonjson.Value, t *Trusted) {
	o, ok := v.(*canonjson.Object)
	if !ok {
		c.add("/trusted", "trusted must be an object, got %s", canonjson.TypeName(v))
		return
	}
	objectAt := func(key string) *canonjson.Object {
		v, ok := o.Get(key)
		if !ok {
			return nil
		}
		obj, ok := v.(*canonjson.Object)
		if !ok {
			c.add("/trusted/"+key, "%s must be an object, got %s", key, canonjson.TypeName(v))
		}
		return obj
	}
	for _, k := range o.Keys() {
		switch k {
		case "runtimeContext":
			t.RuntimeContext = objectAt(k)
		case "protectedValues":
			t.ProtectedValues = objectAt(k)
		case "headers":
			t.Headers = objectAt(k)
			if t.Headers != nil {
				for name, h := range t.Headers.All() {
					if _, literal := h.(canonjson.String); literal || envName(h) != "" {
						continue
					}
					c.add("/trusted/headers/"+diag.EscapeToken(name), "a header is a string or {\"env\": \"NAME\"}")
				}
			}
		case "expiresAt":
			t.ExpiresAt, _ = o.Get(k)
			switch t.ExpiresAt.(type) {
			case canonjson.String, canonjson.Number:
			default:
				c.add("/trusted/expiresAt", "expiresAt is an ISO 8601 time or epoch milliseconds")
			}
		case "singleUse":
			b, _ := o.Get(k)
			sb, ok := b.(canonjson.Bool)
			if !ok {
				c.add("/trusted/singleUse", "singleUse is a boolean")
			}
			t.SingleUse = bool(sb)
		default:
			c.add("/trusted/"+diag.EscapeToken(k), "unknown member %q of trusted", k)
		}
	}
}

// envName returns NAME of {"env": "NAME"}, or "".
func envName(v canonjson.Value) string {
	o, ok := v.(*canonjson.Object)
	if !ok || o.Len() != 1 {
		return ""
	}
	n, _ := o.Get("env")
	s, _ := n.(canonjson.String)
	return string(s)
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
