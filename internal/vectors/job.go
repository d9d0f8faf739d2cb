package vectors

import (
	"strconv"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Targets a call runs.
const (
	targetFunction   = "function"   // a named Function of function-core/index.mjs
	targetAdapter    = "adapter"    // a Tool callback of mcp-tool/index.mjs
	targetNormalizer = "normalizer" // normalizeToolError of portable-error-normalizer.mjs
)

// call is one call the driver makes, and what it observed.
type call struct {
	id     int
	scope  string // the capability whose code the call runs
	target string
	export string // function
	tool   string // adapter
	dryRun bool   // adapter: run with the dry-run variable set to 1
	// listed is the output schema the Tool lists in the run's mode (the
	// contract's, or the dry-run envelope's), which clients check its
	// results against: adapter only.
	listed canonjson.Value
	args   *canonjson.Object
	// responses answer the Function's dispatches in order; a dispatch
	// beyond them is refused (it throws).
	responses []response
	// attachments is context.resolvedAttachments; nil leaves it out.
	attachments canonjson.Value
	// runtime are trusted runtime context members the call gets without a
	// workflow (the user's confirmation); nil for none.
	runtime *canonjson.Object
	trusted *trusted
	// policy, when set, is the operationPolicy the driver normalises a
	// thrown error with (and the normaliser target's second argument).
	policy canonjson.Value
	thrown *canonjson.Object // normalizer: the error to normalise
	repeat int               // runs with the same context; 0 means 1

	runs []*run // what the driver reported
}

// response is one planned answer of the mock dispatch: {status, data}, or
// a thrown error.
type response struct {
	status int64
	data   canonjson.Value
	throw  *canonjson.Object // {message, code, …}; nil for an answer
}

// trusted is the simulated trusted side of a deterministic workflow: the
// runtime context claims, and a guard from the package's own guard module
// that protects one operation (unless protect is false).
type trusted struct {
	workflowID string
	sources    *canonjson.Object // binding name -> actual source, as the contract declares
	runtime    *canonjson.Object // runtime context members (subjectId, …)
	protect    bool
	omitGuard  bool   // no workflowGuard in the context at all
	perturb    string // binding whose protected value no call carries
	expiresAt  *int64 // epoch milliseconds; nil when the workflow proves no expiry
	singleUse  bool
}

// Fixed times of the trusted side, in epoch milliseconds: the guard's clock
// reads trustedNow, so that vectors never depend on the wall clock.
const (
	trustedNow          = 946684800000 // 2000-01-01T00:00:00Z
	trustedLifetime     = 600000       // a protected operation lives ten minutes
	trustedOperationKey = "code2skill-vector-operation"
)

// run is one run of a call, as the driver reported it.
type run struct {
	outcome    string // returned, threw, timeout, unavailable, arguments-refused, setup-failed, crashed, not-run
	detail     string
	value      canonjson.Value
	err        *canonjson.Object // what the thrown value carried
	normalized canonjson.Value
	dispatches []dispatch
	raw        *canonjson.Object // the report as the driver wrote it
}

// Outcomes of a run.
const (
	outcomeReturned = "returned"
	outcomeThrew    = "threw"
	outcomeCrashed  = "crashed"
	outcomeNotRun   = "not-run"
	outcomeTimeout  = "timeout"
)

// dispatch is one recorded call of context.dispatch.
type dispatch struct {
	form    string // http: (url, options); guarded: (safeInput, operation)
	url     string
	options *canonjson.Object
	input   canonjson.Value // guarded
}

// encode returns the call as the driver reads it.
func (c *call) encode() *canonjson.Object {
	o := &canonjson.Object{}
	o.Set("id", canonjson.Int(c.id))
	o.Set("scope", canonjson.String(c.scope))
	o.Set("target", canonjson.String(c.target))
	if c.export != "" {
		o.Set("export", canonjson.String(c.export))
	}
	if c.tool != "" {
		o.Set("tool", canonjson.String(c.tool))
	}
	if c.dryRun {
		o.Set("dryRun", canonjson.Bool(true))
	}
	if c.args != nil {
		o.Set("args", c.args)
	} else {
		o.Set("args", &canonjson.Object{})
	}
	responses := canonjson.Array{}
	for _, r := range c.responses {
		responses = append(responses, r.encode())
	}
	o.Set("responses", responses)
	if c.attachments != nil {
		o.Set("resolvedAttachments", c.attachments)
	}
	if c.runtime != nil {
		o.Set("runtime", c.runtime)
	}
	if c.trusted != nil {
		o.Set("trusted", c.trusted.encode())
	}
	if c.policy != nil {
		o.Set("policy", c.policy)
	}
	if c.thrown != nil {
		o.Set("thrown", c.thrown)
	}
	if c.repeat > 1 {
		o.Set("repeat", canonjson.Int(c.repeat))
	}
	return o
}

func (r response) encode() *canonjson.Object {
	if r.throw != nil {
		return canonjson.NewObject(canonjson.Member{Key: "throw", Value: r.throw})
	}
	data := r.data
	if data == nil {
		data = &canonjson.Object{}
	}
	return canonjson.NewObject(
		canonjson.Member{Key: "status", Value: canonjson.Number(itoa(r.status))},
		canonjson.Member{Key: "data", Value: data},
	)
}

func (t *trusted) encode() *canonjson.Object {
	o := &canonjson.Object{}
	o.Set("workflowId", canonjson.String(t.workflowID))
	o.Set("operationKey", canonjson.String(trustedOperationKey))
	o.Set("bindingSources", t.sources)
	o.Set("runtime", t.runtime)
	o.Set("now", canonjson.Number(itoa(trustedNow)))
	o.Set("protect", canonjson.Bool(t.protect))
	if t.omitGuard {
		o.Set("omitGuard", canonjson.Bool(true))
	}
	if t.perturb != "" {
		o.Set("perturb", canonjson.String(t.perturb))
	}
	if t.expiresAt != nil {
		o.Set("expiresAt", canonjson.Number(itoa(*t.expiresAt)))
	}
	o.Set("singleUse", canonjson.Bool(t.singleUse))
	return o
}

// decodeRun reads one run of a driver report.
func decodeRun(o *canonjson.Object) *run {
	r := &run{raw: o}
	r.outcome = str(o.At("outcome"))
	r.detail = str(o.At("detail"))
	r.value = o.At("value")
	r.err, _ = o.At("error").(*canonjson.Object)
	r.normalized = o.At("normalized")
	ds, _ := o.At("dispatches").(canonjson.Array)
	for _, d := range ds {
		do, _ := d.(*canonjson.Object)
		rec := dispatch{form: str(do.At("form")), url: str(do.At("url")), input: do.At("input")}
		rec.options, _ = do.At("options").(*canonjson.Object)
		r.dispatches = append(r.dispatches, rec)
	}
	return r
}

func str(v canonjson.Value) string {
	s, _ := v.(canonjson.String)
	return string(s)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
