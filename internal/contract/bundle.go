package contract

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// BundleFile is the capability bundle, relative to the package root.
const BundleFile = "capability-bundle.json"

// Bundle is capability-bundle.json, the execution view of the node-stdio
// profile: the contract's feature boundary, server, capabilities and
// handoffs, each capability restricted to the members execution needs. In a
// vNext package derive writes it from the contract; a legacy package, which
// has no contract, is authored bundle-first and the bundle is its input.
type Bundle struct {
	Raw *canonjson.Object

	// Deferred holds the format findings of decoding that views do not
	// depend on, as Contract.Deferred does.
	Deferred diag.List

	SchemaVersion   string
	RecordingID     string
	FeatureBoundary FeatureBoundary
	Server          Server
	Capabilities    []Capability
	Handoffs        []Handoff
}

// DecodeBundle decodes capability-bundle.json. file names the document in
// findings. The top-level record is closed; capabilities, handoffs, the
// feature boundary and the server follow the contract's field rules, except
// that a capability carries none of the members the bundle leaves out
// (workflowId, reasons, blockingReasons). The bundle is nil only when the
// JSON itself is unreadable.
func DecodeBundle(file string, data []byte) (*Bundle, *diag.List) {
	rd := &reader{file: file}
	r, ok := rd.decodeRoot(data)
	if !ok {
		return nil, &rd.diags
	}
	b := &Bundle{Raw: r.obj}
	b.SchemaVersion = r.enum("schemaVersion", req, vocabV1)
	b.RecordingID = r.str("recordingId", req)
	b.FeatureBoundary = decodeFeatureBoundary(r.object("featureBoundary", req))
	b.Server = decodeServer(r.object("server", req))
	b.Capabilities = records(r, "capabilities", some, decodeBundleCapability)
	b.Handoffs = records(r, "handoffs", req, decodeHandoff)
	r.closed()
	b.Deferred = rd.deferred
	return b, &rd.diags
}

// decodeBundleCapability reads a capability of the bundle.
func decodeBundleCapability(r *record) Capability {
	c := decodeCapabilityBody(r)
	r.open()
	return c
}

// Capability returns the bundle's capability with the given ID.
func (b *Bundle) Capability(id string) (*Capability, bool) {
	return find(b.Capabilities, func(x *Capability) bool { return x.ID == id })
}
