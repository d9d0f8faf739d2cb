package strict

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
)

// facts are what the document rules check the documents against: the
// Portable Core's Tools, inputs and policies, projected once.
type facts struct {
	lang            *docLang
	dir             string // the package directory's name
	marker          string // the documentation marker of the derived fact view
	dryRunVariable  string
	protocolVersion string
	tools           []*toolFacts
	// evidence lists the primary exposure evidence IDs of every capability,
	// in contract order without repeats.
	evidence                  []string
	hasWrite                  bool
	needsAttachmentResolution bool
	// hostRuntime: the package carries the host runtime, which reads the
	// variables of host.
	hostRuntime bool
	host        []string
	// routeSurface: the export profile's feature surface is a route, so
	// the feature context may speak of its page.
	routeSurface bool
	// errorCodes are the error codes the contract records (every
	// UPPER_SNAKE word of canonical-contract.json) and the package's
	// runtime returns; nil when they are not known, which leaves error
	// codes unchecked.
	errorCodes map[string]bool
}

// toolFacts are the facts of one capability's Tool.
type toolFacts struct {
	name       string
	read       bool
	neverRetry bool // operationPolicy.automaticRetry is "never"
	inputs     []inputFacts
	// outputs are the last segments of the required output paths: the
	// fields a successful result always carries.
	outputs []string
	// errorPaths are the error contract's paths, dot-joined: code,
	// message, details and, when declared, retryability.
	errorPaths   []string
	retryability bool // the error contract declares a retryability path
	// confirmation: the operation policy requires the user's
	// confirmation; guarded: a declared hard workflow's Guard runs before
	// the Tool dispatches.
	confirmation, guarded bool
	// emptyBody are the statuses at which a success has no body (data
	// null); deployer says the deployer requires the Tool's confirmation.
	emptyBody []int64
	deployer  bool
	// fields are the properties of the Tool's input and output schemas,
	// at any depth, by name.
	fields map[string][]fieldFacts
}

// inputClass is what a document may say about an input's requiredness.
type inputClass uint8

const (
	classRequired    inputClass = iota + 1 // required: true
	classConditional                       // required when a condition holds
	classOptional                          // neither
)

type inputFacts struct {
	name  string
	class inputClass
	// provider is the Tool that normally supplies the input when its
	// requiredness at the target API is unproven, else "".
	provider string
}

// Defaults of the export profile when a field is absent.
const (
	defaultProtocolVersion = "2025-11-25"
	attachmentResolution   = "attachment-resolution"
)

// newFacts projects the contract and the export profile (nil when absent)
// for the document rules.
func newFacts(c *contract.Contract, export *contract.ExportProfile, dir, marker string) *facts {
	f := &facts{
		lang:            langOf(export.Language()),
		dir:             dir,
		marker:          marker,
		dryRunVariable:  export.DryRunVariable(),
		protocolVersion: defaultProtocolVersion,
	}
	if export != nil {
		if export.ProtocolVersion != "" {
			f.protocolVersion = export.ProtocolVersion
		}
		f.routeSurface = export.FeatureSurfaceKind == "route"
	}
	toolOf := make(map[string]string, len(c.Capabilities))
	for i := range c.Capabilities {
		toolOf[c.Capabilities[i].ID] = c.Capabilities[i].ToolName
	}
	primary := make(map[string]bool)
	for _, e := range c.EvidenceCatalog {
		if slices.Contains(c.FeatureBoundary.PrimarySourceIDs(), e.SourceID) {
			primary[e.ID] = true
		}
	}
	for i := range c.Capabilities {
		cp := &c.Capabilities[i]
		t := &toolFacts{
			name:       cp.ToolName,
			read:       !cp.IsWrite(),
			neverRetry: cp.OperationPolicy.AutomaticRetry == "never",
			fields:     map[string][]fieldFacts{},
		}
		t.confirmation = cp.NeedsConfirmation()
		if p := cp.RuntimeProtection; p != nil && p.Mode == contract.ProtectionDeterministicWorkflow {
			t.guarded = slices.ContainsFunc(c.Workflows, func(w contract.Workflow) bool {
				return w.ID == p.WorkflowID || slices.Contains(w.CapabilityIDs, cp.ID)
			})
		}
		for _, in := range cp.Inputs {
			fi := inputFacts{name: in.Name, class: classOptional}
			switch {
			case in.Required:
				fi.class = classRequired
			case len(in.RequiredWhen) > 0 || in.InformationClass == contract.ClassRequiredWhen:
				fi.class = classConditional
			}
			if tr := in.TargetRequiredness; tr != nil && tr.Status == contract.TargetRequirednessUnproven && tr.NormalProvider != nil {
				fi.provider = toolOf[tr.NormalProvider.CapabilityID]
			}
			t.inputs = append(t.inputs, fi)
		}
		for _, p := range cp.SuccessRule.RequiredOutputPaths {
			if leaf := lastField(p); leaf != "" && !slices.Contains(t.outputs, leaf) {
				t.outputs = append(t.outputs, leaf)
			}
		}
		ec := &cp.ErrorContract
		for _, p := range [][]string{ec.CodePath, ec.MessagePath, ec.DetailsPath, ec.RetryabilityPath} {
			if len(p) > 0 {
				t.errorPaths = append(t.errorPaths, joinPath(p))
			}
		}
		t.retryability = len(ec.RetryabilityPath) > 0
		t.emptyBody = cp.SuccessRule.EmptyBodyStatusCodes
		t.deployer = cp.DeployerPolicy != nil && cp.ConfirmationUnguarded()
		f.tools = append(f.tools, t)

		f.hasWrite = f.hasWrite || cp.IsWrite()
		f.needsAttachmentResolution = f.needsAttachmentResolution || slices.Contains(cp.HostRequirements, attachmentResolution)
		for _, ref := range cp.Exposure.EvidenceRefs {
			if primary[ref] && !slices.Contains(f.evidence, ref) {
				f.evidence = append(f.evidence, ref)
			}
		}
	}
	return f
}

// lastField returns the last segment of an output path that names a field
// ("*" stands for array elements), or "".
func lastField(path []string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] != "*" {
			return path[i]
		}
	}
	return ""
}

// joinPath writes a path the way documents do: segments joined by dots.
func joinPath(path []string) string { return strings.Join(path, ".") }

// toolNames returns the names of the Tools, in contract order.
func (f *facts) toolNames() []string {
	out := make([]string, len(f.tools))
	for i, t := range f.tools {
		out[i] = t.name
	}
	return out
}

// tool returns the facts of the named Tool, or nil.
func (f *facts) tool(name string) *toolFacts {
	for _, t := range f.tools {
		if t.name == name {
			return t
		}
	}
	return nil
}
