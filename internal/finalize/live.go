package finalize

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsonschema"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/verdict"
)

// Rules about live evidence: the Tool calls a real MCP client made and their
// results.
var (
	RuleLiveFormat      = diag.Register("LIVE_FORMAT", diag.Error, "a live evidence file is not an entry, a list of entries or {\"capabilities\": [...]} of {capabilityId, input|result}")
	RuleLiveUnknown     = diag.Register("LIVE_UNKNOWN", diag.Error, "live evidence names a capability the contract does not declare")
	RuleLiveDuplicate   = diag.Register("LIVE_DUPLICATE", diag.Error, "live evidence gives a capability two inputs or two results")
	RuleLiveUnpaired    = diag.Register("LIVE_UNPAIRED", diag.Error, "a capability has a live input without a result, or a result without an input")
	RuleLiveTool        = diag.Register("LIVE_TOOL", diag.Error, "a live input is not a tools/call of the capability's own Tool")
	RuleLiveInputSchema = diag.Register("LIVE_INPUT_SCHEMA", diag.Error, "a live input's arguments do not satisfy the capability's input schema")
	RuleLiveResult      = diag.Register("LIVE_RESULT", diag.Error, "a live result is not a successful MCP Tool result with structuredContent.data and a matching text block")
	RuleLiveOutput      = diag.Register("LIVE_OUTPUT", diag.Error, "a live result breaks the capability's output contract: output schema, required output paths or forbidden keys")
	RuleLiveSanitized   = diag.Register("LIVE_NOT_SANITIZED", diag.Error, "live evidence holds a credential, token or cookie; redact it before finalizing")
)

// LivePair is one --live-input file and its --live-result file.
type LivePair struct {
	Input, Result string
}

// toolSchemas are the capabilities' input and output schemas, from the
// derived schema contract, compiled when first needed: only capabilities
// with live evidence need them.
type toolSchemas struct {
	doc      canonjson.Value // function-core/schema-contract.json
	compiled map[string]*jsonschema.Schema
}

func newToolSchemas(views *derive.Derived) *toolSchemas {
	return &toolSchemas{doc: views.SchemaContract, compiled: map[string]*jsonschema.Schema{}}
}

// schema returns the compiled inputSchema or outputSchema (key) of a
// capability.
func (ts *toolSchemas) schema(id, key string) (*jsonschema.Schema, error) {
	if s, ok := ts.compiled[id+"/"+key]; ok {
		return s, nil
	}
	caps, _ := canonjson.Resolve(ts.doc, "/capabilities")
	list, _ := caps.(canonjson.Array)
	for _, c := range list {
		o, _ := c.(*canonjson.Object)
		if cid, _ := o.Get("capabilityId"); cid != canonjson.String(id) {
			continue
		}
		raw, _ := o.Get(key)
		s, err := jsonschema.Compile(canonjson.Encode(raw))
		if err != nil {
			return nil, fmt.Errorf("%s of %s: %w", key, id, err)
		}
		ts.compiled[id+"/"+key] = s
		return s, nil
	}
	return nil, fmt.Errorf("the schema contract has no %s of %s", key, id)
}

// liveEntry is one capability's live input or result.
type liveEntry struct {
	file, at string // where the payload is
	payload  canonjson.Value
}

// liveReader reads live evidence.
type liveReader struct {
	c       *contract.Contract
	schemas *toolSchemas
	list    diag.List
	errs    []error
}

// readLive reads the live pairs and returns the live evidence of each
// capability: the digests of its Tool call and result, as given.
func readLive(c *contract.Contract, schemas *toolSchemas, pairs []LivePair) (map[string]verdict.Live, *diag.List, error) {
	r := &liveReader{c: c, schemas: schemas}
	inputs, results := map[string]liveEntry{}, map[string]liveEntry{}
	for _, p := range pairs {
		r.readFile(p.Input, "input", inputs)
		r.readFile(p.Result, "result", results)
	}
	live := map[string]verdict.Live{}
	for _, id := range sortedKeys(inputs) {
		in := inputs[id]
		res, ok := results[id]
		if !ok {
			r.add(RuleLiveUnpaired, in.file, in.at, "capability %q has a live input but no live result", id)
			continue
		}
		cp, _ := c.Capability(id)
		okIn := r.checkInput(cp, in)
		okRes := r.checkResult(cp, res)
		if okIn && okRes {
			live[id] = verdict.Live{InputHash: canonjson.Digest(in.payload), ResultHash: canonjson.Digest(res.payload)}
		}
	}
	for _, id := range sortedKeys(results) {
		if _, ok := inputs[id]; !ok {
			res := results[id]
			r.add(RuleLiveUnpaired, res.file, res.at, "capability %q has a live result but no live input", id)
		}
	}
	return live, &r.list, errors.Join(r.errs...)
}

// JudgeLiveResult judges one live result of a capability the way finalize
// will judge it as live evidence: a successful Tool result whose
// structuredContent meets the capability's output contract (output schema,
// required output paths present and not null, no forbidden key). views are
// the contract's derived views. The findings point into file at "/result",
// where a live result file holds the payload; none means finalize will
// accept the result. A runtime verification that judges its calls with it
// never records as passed a call that finalize then refuses.
func JudgeLiveResult(c *contract.Contract, views *derive.Derived, capabilityID, file string, result canonjson.Value) (*diag.List, error) {
	cp, ok := c.Capability(capabilityID)
	if !ok {
		return nil, fmt.Errorf("the contract has no capability %q", capabilityID)
	}
	r := &liveReader{c: c, schemas: newToolSchemas(views)}
	r.checkResult(cp, liveEntry{file: file, at: "/result", payload: result})
	return &r.list, errors.Join(r.errs...)
}

func (r *liveReader) add(rule *diag.Rule, file, at, format string, args ...any) {
	r.list.Add(rule.New(file, format, args...).AtPointer(at))
}

// readFile reads one live evidence file into entries by capability ID; side
// is "input" or "result".
func (r *liveReader) readFile(name, side string, into map[string]liveEntry) {
	file := filepath.ToSlash(name)
	data, err := pkgdir.ReadFile(name, 0)
	if err != nil {
		if d, ok := pkgdir.ReadFinding(file, err); ok {
			r.list.Add(d)
		} else {
			r.errs = append(r.errs, fmt.Errorf("reading %s: %w", file, err))
		}
		return
	}
	doc, err := canonjson.Decode(data)
	if err != nil {
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			r.list.Add(se.Diagnostic(file))
		}
		return
	}
	var entries canonjson.Array
	base := ""
	switch v := doc.(type) {
	case canonjson.Array:
		entries = v
	case *canonjson.Object:
		if list, ok := v.Get("capabilities"); ok && !v.Has("capabilityId") {
			a, ok := list.(canonjson.Array)
			if !ok {
				r.add(RuleLiveFormat, file, "/capabilities", "capabilities must be a list of entries, got %s", canonjson.TypeName(list))
				return
			}
			entries, base = a, "/capabilities"
		} else {
			entries, base = canonjson.Array{v}, "-"
		}
	default:
		r.add(RuleLiveFormat, file, "", "want an entry, a list of entries or {\"capabilities\": [...]}, got %s", canonjson.TypeName(doc))
		return
	}
	for i, e := range entries {
		at := fmt.Sprintf("%s/%d", base, i)
		if base == "-" {
			at = ""
		}
		o, ok := e.(*canonjson.Object)
		if !ok {
			r.add(RuleLiveFormat, file, at, "an entry must be an object {capabilityId, %s}, got %s", side, canonjson.TypeName(e))
			continue
		}
		idv, _ := o.Get("capabilityId")
		id, ok := idv.(canonjson.String)
		if !ok || id == "" {
			r.add(RuleLiveFormat, file, at+"/capabilityId", "an entry must name its capabilityId")
			continue
		}
		if _, known := r.c.Capability(string(id)); !known {
			r.add(RuleLiveUnknown, file, at+"/capabilityId", "capability %q is not declared by the contract", id)
			continue
		}
		if first, dup := into[string(id)]; dup {
			r.add(RuleLiveDuplicate, file, at+"/capabilityId", "capability %q already has a live %s at %s#%s", id, side, first.file, first.at)
			continue
		}
		// The payload is the entry's input (result) member, or the entry
		// without its capabilityId.
		var payload canonjson.Value
		pat := at + "/" + side
		if p, ok := o.Get(side); ok {
			payload = p
		} else {
			rest := canonjson.Clone(o).(*canonjson.Object)
			rest.Delete("capabilityId")
			payload, pat = rest, at
		}
		into[string(id)] = liveEntry{file: file, at: pat, payload: payload}
		r.sanitized(file, pat, payload)
	}
}

// sanitized reports the credentials credential.FindInValue finds in a
// payload: exactly what the pipeline's sanitiser (credential.Sanitize)
// would have redacted.
func (r *liveReader) sanitized(file, at string, v canonjson.Value) {
	for _, f := range credential.FindInValue(v) {
		r.add(RuleLiveSanitized, file, at+f.Pointer, "%s; replace it with %q", f.What, credential.Redacted)
	}
}

// checkInput checks a live input: a tools/call of the capability's Tool
// with arguments its input schema accepts.
func (r *liveReader) checkInput(cp *contract.Capability, e liveEntry) bool {
	o, ok := e.payload.(*canonjson.Object)
	if !ok {
		r.add(RuleLiveTool, e.file, e.at, "a live input must be {name, arguments} or a tools/call request, got %s", canonjson.TypeName(e.payload))
		return false
	}
	call, at := o, e.at
	if m, ok := o.Get("method"); ok {
		if m != canonjson.String("tools/call") {
			r.add(RuleLiveTool, e.file, e.at+"/method", "a live input request must be tools/call, got %s", canonjson.Encode(m))
			return false
		}
		p, _ := o.Get("params")
		if call, ok = p.(*canonjson.Object); !ok {
			r.add(RuleLiveTool, e.file, e.at+"/params", "a tools/call request needs params {name, arguments}")
			return false
		}
		at += "/params"
	}
	name, _ := call.Get("name")
	if name != canonjson.String(cp.ToolName) {
		r.add(RuleLiveTool, e.file, at+"/name", "the live input of %s must call Tool %q, got %s", cp.ID, cp.ToolName, describe(name))
		return false
	}
	args, _ := call.Get("arguments")
	if _, ok := args.(*canonjson.Object); !ok {
		r.add(RuleLiveInputSchema, e.file, at+"/arguments", "arguments must be an object, got %s", canonjson.TypeName(args))
		return false
	}
	return r.validate(RuleLiveInputSchema, cp.ID, "inputSchema", e.file, at+"/arguments", args)
}

// checkResult checks a live result: a successful Tool result whose
// structuredContent meets the capability's output contract.
func (r *liveReader) checkResult(cp *contract.Capability, e liveEntry) bool {
	o, ok := e.payload.(*canonjson.Object)
	if !ok {
		r.add(RuleLiveResult, e.file, e.at, "a live result must be an MCP Tool result object, got %s", canonjson.TypeName(e.payload))
		return false
	}
	if v, _ := o.Get("isError"); v != canonjson.Bool(false) {
		r.add(RuleLiveResult, e.file, e.at+"/isError", "a live result must be successful (isError: false), got %s", describe(v))
		return false
	}
	sc, _ := o.Get("structuredContent")
	sco, ok := sc.(*canonjson.Object)
	if !ok {
		r.add(RuleLiveResult, e.file, e.at+"/structuredContent", "structuredContent must be an object, got %s", canonjson.TypeName(sc))
		return false
	}
	data, _ := sco.Get("data")
	status, _ := sco.Get("status")
	if why := cp.SuccessRule.SuccessDataProblem(status, data); why != "" {
		r.add(RuleLiveResult, e.file, e.at+"/structuredContent/data", "structuredContent.%s", why)
		return false
	}
	if !textMatches(o, sco) {
		r.add(RuleLiveResult, e.file, e.at+"/content", "content must hold a text block whose JSON equals structuredContent")
		return false
	}
	ok = true
	for _, p := range cp.SuccessRule.RequiredOutputPaths {
		if _, null := data.(canonjson.Null); null {
			break // a success without a body
		}
		if !pathPresent(data, p) {
			r.add(RuleLiveOutput, e.file, e.at+"/structuredContent/data", "required output path %s is missing or null", diag.Pointer(anys(p)...))
			ok = false
		}
	}
	for _, k := range cp.SuccessRule.ForbiddenOutputKeys {
		if at, found := findKey(data, k, e.at+"/structuredContent/data"); found {
			r.add(RuleLiveOutput, e.file, at, "forbidden output key %q is present", k)
			ok = false
		}
	}
	return r.validate(RuleLiveOutput, cp.ID, "outputSchema", e.file, e.at+"/structuredContent", sco) && ok
}

// validate validates v against a capability's inputSchema or outputSchema
// (key) and reports each violation.
func (r *liveReader) validate(rule *diag.Rule, id, key, file, at string, v canonjson.Value) bool {
	s, err := r.schemas.schema(id, key)
	if err != nil {
		r.errs = append(r.errs, err)
		return false
	}
	vs, err := s.Validate(canonjson.Encode(v))
	if err != nil {
		r.errs = append(r.errs, err)
		return false
	}
	for _, x := range vs {
		r.add(rule, file, at+x.Pointer, "%s", x.Message)
	}
	return len(vs) == 0
}

// textMatches reports whether the result's content holds a text block whose
// JSON equals structuredContent.
func textMatches(result *canonjson.Object, sc *canonjson.Object) bool {
	content, _ := result.Get("content")
	blocks, _ := content.(canonjson.Array)
	want := canonjson.Digest(sc)
	return slices.ContainsFunc(blocks, func(b canonjson.Value) bool {
		o, ok := b.(*canonjson.Object)
		if !ok {
			return false
		}
		if t, _ := o.Get("type"); t != canonjson.String("text") {
			return false
		}
		text, _ := o.Get("text")
		s, ok := text.(canonjson.String)
		if !ok {
			return false
		}
		v, err := canonjson.Decode([]byte(s))
		return err == nil && canonjson.Digest(v) == want
	})
}

// pathPresent reports whether a required output path holds a non-null value.
// A "*" segment stands for every element of an array: each must hold the
// rest of the path (an empty array holds it vacuously; a non-empty
// collection is required only where the output schema says so).
func pathPresent(v canonjson.Value, p []string) bool {
	if len(p) == 0 {
		_, null := v.(canonjson.Null)
		return v != nil && !null
	}
	switch x := v.(type) {
	case *canonjson.Object:
		next, ok := x.Get(p[0])
		return ok && pathPresent(next, p[1:])
	case canonjson.Array:
		if p[0] != "*" {
			return false
		}
		for _, e := range x {
			if !pathPresent(e, p[1:]) {
				return false
			}
		}
		return true
	}
	return false
}

// findKey finds a member named key anywhere in v and returns its pointer.
func findKey(v canonjson.Value, key, at string) (string, bool) {
	switch x := v.(type) {
	case *canonjson.Object:
		for k, e := range x.All() {
			p := at + "/" + diag.EscapeToken(k)
			if k == key {
				return p, true
			}
			if found, ok := findKey(e, key, p); ok {
				return found, true
			}
		}
	case canonjson.Array:
		for i, e := range x {
			if found, ok := findKey(e, key, fmt.Sprintf("%s/%d", at, i)); ok {
				return found, true
			}
		}
	}
	return "", false
}

func describe(v canonjson.Value) string {
	if v == nil {
		return "nothing"
	}
	return string(canonjson.DigestForm(v))
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
