// Package derive computes the views of a vNext package from its Portable Core
// inputs. It judges no rule of the Portable Core itself: Check refuses inputs
// with the findings of contractcheck.Structure, the structural rules views
// need.
//
// Everything here is a pure function of the decoded inputs: no file system,
// no clock, no map iteration into output. The same inputs give the same bytes
// on every machine.
//
//	in := &derive.Inputs{Contract: c, Topology: t, Host: h}
//	if findings := derive.Check(in); !findings.HasErrors() {
//		views := derive.Views(in) // ten files, encoded in the established format
//		marker := derive.Marker(views)
//	}
//
// The views are, in the order Views returns them:
//
//	capability-bundle.json, function-core/capability-bundle.json
//	capability-draft.json
//	function-core/schema-contract.json, mcp-tool/schema-contract.json
//	references/capability-contracts.json
//	goal-contract.json
//	consumer-requirements.json
//	host-compatibility-report.json
//	verification-matrix.json (the baseline, before any verification)
//
// The two bundle files are byte-equal, and so are the two schema contracts.
// The SHA-256 of references/capability-contracts.json is the documentation
// marker that SKILL.md and the other documents carry.
//
// A legacy package has no canonical contract: its capability-bundle.json is
// authored, and only the two views that derive from the bundle alone are
// written (IsLegacy, ReadLegacy, CheckBundle, LegacyViews):
//
//	function-core/capability-bundle.json (the bundle, re-encoded)
//	capability-draft.json
package derive

import (
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// Inputs are the decoded vNext inputs of a package (see contract.Inputs).
type Inputs = contract.Inputs

// View is one derived file.
type View struct {
	Path string // slash-separated, relative to the package root
	Data []byte // the file's bytes, ending in a newline
}

// Paths of the derived views, relative to the package root.
const (
	BundleFile               = contract.BundleFile
	FunctionBundleFile       = "function-core/capability-bundle.json"
	DraftFile                = "capability-draft.json"
	FunctionSchemaFile       = "function-core/schema-contract.json"
	MCPSchemaFile            = "mcp-tool/schema-contract.json"
	CapabilityContractFile   = "references/capability-contracts.json"
	GoalContractFile         = "goal-contract.json"
	ConsumerRequirementsFile = "consumer-requirements.json"
	HostCompatibilityFile    = "host-compatibility-report.json"
	VerificationMatrixFile   = "verification-matrix.json"
)

// Views derives every view of the inputs. Call it only when Check reports no
// error: on inputs that break the structural rules the views are still
// well-formed JSON, but may be meaningless.
func Views(in *Inputs) []View {
	c := in.Contract
	if c == nil {
		c = &contract.Contract{}
	}
	c = c.Canonical()
	compat := compatibility(c, in.Host)
	bundle := canonjson.Encode(bundle(c))
	schema := canonjson.Encode(schemaContract(c))
	return []View{
		{BundleFile, bundle},
		{FunctionBundleFile, bundle},
		{DraftFile, canonjson.Encode(draft(c.RecordingID, c.Capabilities, c.Handoffs))},
		{FunctionSchemaFile, schema},
		{MCPSchemaFile, schema},
		{CapabilityContractFile, canonjson.Encode(capabilityContracts(c))},
		{GoalContractFile, canonjson.Encode(goalContract(c))},
		{ConsumerRequirementsFile, canonjson.Encode(consumerRequirements(c))},
		{HostCompatibilityFile, canonjson.Encode(compat.report())},
		{VerificationMatrixFile, canonjson.Encode(matrix(c, compat))},
	}
}

// MarkerPrefix and MarkerSuffix enclose the documentation marker's hash.
const (
	MarkerPrefix = "<!-- code2skill-capability-contract-sha256:"
	MarkerSuffix = " -->"
)

// Marker returns the documentation marker of a set of views: the SHA-256 of
// references/capability-contracts.json's bytes, in the comment form the
// documents carry. It is "" when the views lack that file.
func Marker(views []View) string {
	for _, v := range views {
		if v.Path == CapabilityContractFile {
			return MarkerPrefix + canonjson.SHA256(v.Data) + MarkerSuffix
		}
	}
	return ""
}

// Standard references between views.
const (
	canonicalContractRef    = contract.ContractFile
	consumerRequirementsRef = ConsumerRequirementsFile
	hostProfileRef          = contract.HostProfileFile
	hostCompatibilityRef    = HostCompatibilityFile
)
