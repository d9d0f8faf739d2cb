// Package derive loads the Portable Core of a vNext package and computes
// its views. It judges no rule of the Portable Core itself: Check refuses
// inputs with the findings of contractcheck.Structure, the structural rules
// views need.
//
// A command loads the Portable Core once (Load) and hands the Core to every
// stage that builds on it: the structural rules run and the views are
// derived at most once per Core, and a view is encoded only where it is
// written, compared with a file or hashed.
//
//	core, err := derive.Load(dir)
//	if findings := core.Findings(); err == nil && !findings.HasErrors() {
//		views := core.Views()  // the documents (Derived)
//		files := views.Files() // ten files, encoded in the established format
//		marker := views.Marker()
//	}
//
// Past reading, everything here is a pure function of the decoded inputs:
// no clock, no map iteration into output. The same inputs give the same
// bytes on every machine.
//
// The views are, in the order Files returns them:
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
	"sync"

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

// ViewPaths are the paths of the views, in the order Files returns them.
var ViewPaths = []string{
	BundleFile, FunctionBundleFile, DraftFile, FunctionSchemaFile, MCPSchemaFile,
	CapabilityContractFile, GoalContractFile, ConsumerRequirementsFile, HostCompatibilityFile, VerificationMatrixFile,
}

// Derived are the views of a Portable Core as documents. A stage that
// reads a view reads it here; a view is encoded only where it is written,
// compared with a file or hashed (Files, Marker), and then once.
//
// The documents share subtrees with the contract: read them, do not
// change them.
type Derived struct {
	// Bundle is capability-bundle.json and its mirror in function-core/.
	Bundle *canonjson.Object
	Draft  *canonjson.Object
	// SchemaContract is function-core/schema-contract.json and
	// mcp-tool/schema-contract.json.
	SchemaContract       *canonjson.Object
	CapabilityContracts  *canonjson.Object
	GoalContract         *canonjson.Object
	ConsumerRequirements *canonjson.Object
	HostCompatibility    *canonjson.Object
	// Matrix is the baseline verification matrix, before any verification.
	Matrix *canonjson.Object

	encodeOnce sync.Once
	files      []View
}

// Derive derives every view of the inputs. Call it only when Check
// reports no error: on inputs that break the structural rules the views
// are still well-formed, but may be meaningless.
func Derive(in *Inputs) *Derived {
	c := in.Contract
	if c == nil {
		c = &contract.Contract{}
	}
	c = c.Canonical()
	compat := compatibility(c, in.Host)
	return &Derived{
		Bundle:               bundle(c),
		Draft:                draft(c.RecordingID, c.Capabilities, c.Handoffs),
		SchemaContract:       schemaContract(c),
		CapabilityContracts:  capabilityContracts(c),
		GoalContract:         goalContract(c),
		ConsumerRequirements: consumerRequirements(c),
		HostCompatibility:    compat.report(),
		Matrix:               matrix(c, compat),
	}
}

// Files returns the views as files, encoded in the established format, in
// the order the package documentation lists them. They are encoded once.
func (d *Derived) Files() []View {
	d.encodeOnce.Do(func() {
		bundle := canonjson.Encode(d.Bundle)
		schema := canonjson.Encode(d.SchemaContract)
		d.files = []View{
			{BundleFile, bundle},
			{FunctionBundleFile, bundle},
			{DraftFile, canonjson.Encode(d.Draft)},
			{FunctionSchemaFile, schema},
			{MCPSchemaFile, schema},
			{CapabilityContractFile, canonjson.Encode(d.CapabilityContracts)},
			{GoalContractFile, canonjson.Encode(d.GoalContract)},
			{ConsumerRequirementsFile, canonjson.Encode(d.ConsumerRequirements)},
			{HostCompatibilityFile, canonjson.Encode(d.HostCompatibility)},
			{VerificationMatrixFile, canonjson.Encode(d.Matrix)},
		}
	})
	return d.files
}

// File returns the bytes of the view at path, or nil when no view is
// there.
func (d *Derived) File(path string) []byte {
	for _, v := range d.Files() {
		if v.Path == path {
			return v.Data
		}
	}
	return nil
}

// Marker returns the documentation marker of the views (see Marker).
func (d *Derived) Marker() string { return Marker(d.Files()) }

// Views derives every view of the inputs and encodes them: Derive(in).Files().
func Views(in *Inputs) []View { return Derive(in).Files() }

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
