package contractcheck

import (
	"slices"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Family R: attachments, a complete capability chain: the Host supplies an
// approved reference (or bounded content), the upload capability resolves
// it and sends the content to the exact request field, its result binds
// into downstream requests. Decoding checks each mode's fields and
// vocabularies.
var (
	RuleAttachmentForbidden = diag.Register("CONTRACT_ATTACHMENT_FORBIDDEN_INPUTS", diag.Error, "an attachment chain does not forbid local paths and unverified URLs")
	RuleAttachmentUpload    = diag.Register("CONTRACT_ATTACHMENT_UPLOAD", diag.Error, "a capability resolving Host-approved attachments is not a create or update sending HTTP requests")
	RuleAttachmentAccepted  = diag.Register("CONTRACT_ATTACHMENT_ACCEPTED_INPUTS", diag.Error, "acceptedInputs do not match the inputs' strategies (an opaque Host grant needs a host-approved-attachment input, bounded content a bounded-content input, and the reverse)")
	RuleAttachmentGrant     = diag.Register("CONTRACT_ATTACHMENT_GRANT_INPUT", diag.Error, "the Host grant is not exactly one attachment object input, sourced only by host-approved-attachment, whose schema declares and requires grantId and every required metadata field")
	RuleAttachmentRawGrant  = diag.Register("CONTRACT_ATTACHMENT_RAW_GRANT", diag.Error, "the Host grant itself is sent in a request (an input binding) instead of the content it resolves to")
	RuleAttachmentResolve   = diag.Register("CONTRACT_ATTACHMENT_RESOLUTION", diag.Error, "the Host grant is not resolved exactly once, by a host_resolved_attachment binding in the output step's body or multipart")
	RuleAttachmentContent   = diag.Register("CONTRACT_ATTACHMENT_CONTENT_BINDING", diag.Error, "contentBindings are empty, or do not match the resolved bindings of the output step one for one (input, step, location, path)")
	RuleAttachmentEvidence  = diag.Register("CONTRACT_ATTACHMENT_CONTENT_EVIDENCE", diag.Error, "a content binding lacks fact-level request evidence shared with the implementation binding it describes")
	RuleAttachmentMetadata  = diag.Register("CONTRACT_ATTACHMENT_METADATA", diag.Error, "attachment metadata names fields the grant's schema lacks, or a maxSizeBytes that is not the schema's sizeBytes maximum")
	RuleAttachmentResult    = diag.Register("CONTRACT_ATTACHMENT_RESULT", diag.Error, "the upload result binding names an undeclared or unrequired output, or one whose type or format does not fit its valueKind")
	RuleAttachmentWorkflow  = diag.Register("CONTRACT_ATTACHMENT_WORKFLOW", diag.Error, "enforcedByWorkflow does not name the workflow of the capability's deterministic protection, or is set without one")
	RuleConsumerSource      = diag.Register("CONTRACT_ATTACHMENT_CONSUMER_SOURCE", diag.Error, "an upload result is consumed by an input that may come from anywhere but an upstream Tool (a user could attest a fake result)")
	RuleConsumerProvider    = diag.Register("CONTRACT_ATTACHMENT_CONSUMER_PROVIDER", diag.Error, "a consumer binding's provider is not another upload capability, its path not that capability's result output, or no matching strategy and handoff connect them")
	RuleConsumerBound       = diag.Register("CONTRACT_ATTACHMENT_CONSUMER_BOUND", diag.Error, "an input consuming an upload result is not bound in the request of the output step")
)

// requiredForbidden are the inputs every attachment chain forbids.
var requiredForbidden = []string{"local-path", "unverified-url"}

// uriFormats are string formats that mark a URL.
var uriFormats = []string{"uri", "uri-reference", "url"}

func (k *checker) attachments(cp *contract.Capability) {
	a := cp.Attachments
	if a == nil || a.Mode == contract.AttachmentsNone || a.Mode == "" {
		return
	}
	for _, f := range requiredForbidden {
		if !slices.Contains(a.ForbiddenInputs, f) {
			k.contractf(RuleAttachmentForbidden, child(a.At, "forbiddenInputs"), "the attachments of %q must forbid %q", cp.ID, f)
		}
	}
	p := cp.RuntimeProtection
	deterministic := p != nil && p.Mode == contract.ProtectionDeterministicWorkflow
	switch {
	case deterministic && a.EnforcedByWorkflow == "":
		k.contractf(RuleAttachmentWorkflow, a.At, "the attachment chain of %q is guarded by workflow %q: say so in enforcedByWorkflow", cp.ID, p.WorkflowID)
	case deterministic && a.EnforcedByWorkflow != p.WorkflowID:
		k.contractf(RuleAttachmentWorkflow, child(a.At, "enforcedByWorkflow"), "enforcedByWorkflow %q differs from the protection's workflow %q", a.EnforcedByWorkflow, p.WorkflowID)
	case !deterministic && a.EnforcedByWorkflow != "":
		k.contractf(RuleAttachmentWorkflow, child(a.At, "enforcedByWorkflow"), "%q has no deterministic-workflow protection, so no workflow enforces its attachments", cp.ID)
	}
	switch a.Mode {
	case contract.AttachmentsHostApprovedReference:
		k.hostApproved(cp, a)
	case contract.AttachmentsBusinessUploadResults:
		k.uploadResults(cp, a)
	}
}

// hostApproved checks a capability that resolves a Host-approved attachment
// and uploads it.
func (k *checker) hostApproved(cp *contract.Capability, a *contract.Attachments) {
	if (cp.SideEffect != "create" && cp.SideEffect != "update") || cp.Implementation.Kind != contract.ImplementationHTTP {
		k.contractf(RuleAttachmentUpload, child(a.At, "mode"),
			"%q uploads attachments, so it is a create or update with an HTTP implementation (it is a %s, %s)", cp.ID, cp.SideEffect, cp.Implementation.Kind)
	}
	var grants []*contract.Input
	for i := range cp.Inputs {
		in := &cp.Inputs[i]
		if in.HasStrategy(contract.StrategyHostApprovedAttachment) {
			grants = append(grants, in)
			if !slices.Contains(a.AcceptedInputs, "opaque-host-grant") {
				k.contractf(RuleAttachmentAccepted, child(a.At, "acceptedInputs"), "input %q is a Host-approved attachment: accept opaque-host-grant", in.Name)
			}
		}
		if in.HasStrategy(contract.StrategyBoundedContent) && !slices.Contains(a.AcceptedInputs, "bounded-content") {
			k.contractf(RuleAttachmentAccepted, child(a.At, "acceptedInputs"), "input %q is bounded content: accept bounded-content", in.Name)
		}
	}
	for i, acc := range a.AcceptedInputs {
		strategy := map[string]string{"opaque-host-grant": contract.StrategyHostApprovedAttachment, "bounded-content": contract.StrategyBoundedContent}[acc]
		if strategy != "" && !slices.ContainsFunc(cp.Inputs, func(in contract.Input) bool { return in.HasStrategy(strategy) }) {
			k.contractf(RuleAttachmentAccepted, ptr(a.At, "acceptedInputs", i), "%q accepts %s, but no input has the %s strategy", cp.ID, acc, strategy)
		}
	}
	if slices.Contains(a.AcceptedInputs, "opaque-host-grant") && len(grants) != 1 {
		k.contractf(RuleAttachmentGrant, child(cp.At, "inputs"), "%q must take exactly one Host-approved attachment input, not %d", cp.ID, len(grants))
	}
	for _, g := range grants {
		k.grantInput(cp, a, g)
	}
	k.contentBindings(cp, a, grants)
	if a.ResultBinding != nil {
		k.resultBinding(cp, a.ResultBinding)
	}
}

// grantInput checks the input carrying the Host's grant, its metadata, and
// how the request uses it.
func (k *checker) grantInput(cp *contract.Capability, a *contract.Attachments, g *contract.Input) {
	if g.InformationClass != contract.ClassAttachment || g.Type != "object" {
		k.contractf(RuleAttachmentGrant, child(g.At, "informationClass"), "the Host grant %q is an attachment object: informationClass attachment, type object", g.Name)
	}
	if len(g.SourceStrategies) != 1 {
		k.contractf(RuleAttachmentGrant, child(g.At, "sourceStrategies"), "the Host grant %q comes only from the Host: its one strategy is host-approved-attachment", g.Name)
	}
	schema, _ := g.Schema.(*canonjson.Object)
	props, _ := member[*canonjson.Object](schema, "properties")
	required, _ := member[canonjson.Array](schema, "required")
	fields := []string{"grantId"}
	if a.Metadata != nil {
		fields = append(fields, a.Metadata.Required...)
	}
	for _, f := range fields {
		if !props.Has(f) || !slices.Contains(required, canonjson.Value(canonjson.String(f))) {
			k.contractf(RuleAttachmentGrant, child(g.At, "schema"), "the schema of the Host grant %q must declare and require %q", g.Name, f)
		}
	}
	if m := a.Metadata; m != nil {
		for i, f := range m.Required {
			if !props.Has(f) {
				k.contractf(RuleAttachmentMetadata, ptr(m.At, "required", i), "metadata field %q is not in the schema of the Host grant %q", f, g.Name)
			}
		}
		size, _ := schemaAt(schema, []string{"sizeBytes"})
		maximum, ok := member[canonjson.Number](asObject(size), "maximum")
		switch {
		case m.MaxSizeBytes <= 0:
			k.contractf(RuleAttachmentMetadata, child(m.At, "maxSizeBytes"), "maxSizeBytes must be positive")
		case !ok || !canonjson.Equal(maximum, canonjson.Int(int(m.MaxSizeBytes))):
			k.contractf(RuleAttachmentMetadata, child(m.At, "maxSizeBytes"),
				"maxSizeBytes %d must equal the maximum of sizeBytes in the schema of the Host grant %q", m.MaxSizeBytes, g.Name)
		}
		k.facts(m.At, m.EvidenceRefs, "the attachment metadata of "+cp.ID)
	}
	var resolved int
	for i, s := range cp.Implementation.Steps {
		for j, b := range s.Bindings {
			at := ptr(cp.Implementation.At, "steps", i, "bindings", j)
			if b.Source.InputName != g.Name {
				continue
			}
			switch b.Source.Kind {
			case contract.SourceInput:
				k.contractf(RuleAttachmentRawGrant, child(at, "source"),
					"the Host grant %q would be sent as it is; bind the content it resolves to, with a host_resolved_attachment source", g.Name)
			case contract.SourceHostResolvedAttachment:
				resolved++
				switch {
				case s.ID != cp.Implementation.OutputStepID:
					k.contractf(RuleAttachmentResolve, at, "the Host grant %q is resolved in step %q; resolve it only in the output step %q", g.Name, s.ID, cp.Implementation.OutputStepID)
				case b.Location != "body" && b.Location != "multipart":
					k.contractf(RuleAttachmentResolve, child(at, "location"), "resolved attachment content goes in the body or multipart, not %s", b.Location)
				}
			}
		}
	}
	if resolved != 1 {
		k.contractf(RuleAttachmentResolve, child(cp.At, "implementation"), "the Host grant %q is resolved %d times; resolve it exactly once, in the output step", g.Name, resolved)
	}
}

// asObject returns v as an object, or nil.
func asObject(v canonjson.Value) *canonjson.Object {
	o, _ := v.(*canonjson.Object)
	return o
}

// contentBindings checks that contentBindings describe the resolved
// bindings of the output step one for one, with their evidence.
func (k *checker) contentBindings(cp *contract.Capability, a *contract.Attachments, grants []*contract.Input) {
	if len(a.ContentBindings) == 0 {
		k.contractf(RuleAttachmentContent, child(a.At, "contentBindings"),
			"%q resolves a Host-approved attachment but records no content binding: say where the content goes in the request", cp.ID)
		return
	}
	im := &cp.Implementation
	type key struct {
		input, step, location string
		path                  string
	}
	var seen []key
	for i := range a.ContentBindings {
		cb := &a.ContentBindings[i]
		kk := key{cb.InputName, cb.StepID, cb.Location, quote(cb.Path)}
		if slices.Contains(seen, kk) {
			k.contractf(RuleAttachmentContent, cb.At, "this content binding is repeated")
			continue
		}
		seen = append(seen, kk)
		if !slices.ContainsFunc(grants, func(g *contract.Input) bool { return g.Name == cb.InputName }) {
			k.contractf(RuleAttachmentContent, child(cb.At, "inputName"), "%q is not a Host-approved attachment input of %q", cb.InputName, cp.ID)
		}
		if cb.StepID != im.OutputStepID {
			k.contractf(RuleAttachmentContent, child(cb.At, "stepId"), "resolved content goes in the output step %q, not %q", im.OutputStepID, cb.StepID)
		}
		var match *contract.Binding
		if s, ok := im.Step(cb.StepID); ok {
			for j := range s.Bindings {
				b := &s.Bindings[j]
				if b.Source.Kind == contract.SourceHostResolvedAttachment && b.Source.InputName == cb.InputName &&
					b.Location == cb.Location && slices.Equal(b.Path, cb.Path) {
					match = b
				}
			}
		}
		if match == nil {
			k.contractf(RuleAttachmentContent, cb.At,
				"no host_resolved_attachment binding of step %q puts %q at %s %s; the content binding must describe the real upload field",
				cb.StepID, cb.InputName, cb.Location, quote(cb.Path))
		}
		what := "content binding " + quote(cb.Path) + " of " + cp.ID
		k.facts(cb.At, cb.EvidenceRefs, what)
		k.roles(cb.At, cb.EvidenceRefs, requestRoles, what)
		if match != nil && len(cb.EvidenceRefs) > 0 && !slices.ContainsFunc(cb.EvidenceRefs, func(id string) bool { return slices.Contains(match.EvidenceRefs, id) }) {
			k.contractf(RuleAttachmentEvidence, child(cb.At, "evidenceRefs"), "the %s shares no evidence with the implementation binding it describes", what)
		}
		if len(cb.EvidenceRefs) == 0 {
			k.contractf(RuleAttachmentEvidence, child(cb.At, "evidenceRefs"), "the %s cites no evidence of the request field", what)
		}
	}
	for _, s := range im.Steps {
		for _, b := range s.Bindings {
			if b.Source.Kind != contract.SourceHostResolvedAttachment {
				continue
			}
			if !slices.Contains(seen, key{b.Source.InputName, s.ID, b.Location, quote(b.Path)}) {
				k.contractf(RuleAttachmentContent, child(a.At, "contentBindings"),
					"the resolved binding of %q at %s %s in step %q has no content binding", b.Source.InputName, b.Location, quote(b.Path), s.ID)
			}
		}
	}
	for _, g := range grants {
		if !slices.ContainsFunc(a.ContentBindings, func(cb contract.ContentBinding) bool { return cb.InputName == g.Name }) {
			k.contractf(RuleAttachmentContent, child(a.At, "contentBindings"), "the Host grant %q has no content binding", g.Name)
		}
	}
}

// resultBinding checks the output that carries the upload result.
func (k *checker) resultBinding(cp *contract.Capability, rb *contract.ResultBinding) {
	o, ok := output(cp, rb.OutputPath)
	if !ok {
		k.contractf(RuleAttachmentResult, child(rb.At, "outputPath"), "%q declares no output at %s", cp.ID, quote(rb.OutputPath))
	} else {
		want := "string"
		if rb.ValueKind == "object" {
			want = "object"
		}
		if rb.ValueKind != "" && o.Type != want {
			k.contractf(RuleAttachmentResult, child(rb.At, "valueKind"), "a %s upload result is a %s output; %s is a %s", rb.ValueKind, want, quote(o.Path), o.Type)
		}
		format, _ := member[canonjson.String](asObject(o.Schema), "format")
		switch {
		case rb.ValueKind == "url" && format != "uri":
			k.contractf(RuleAttachmentResult, child(rb.At, "valueKind"), "a url upload result's output schema declares format uri")
		case slices.Contains([]string{"opaque-token", "file-id", "object-key"}, rb.ValueKind) && slices.Contains(uriFormats, string(format)):
			k.contractf(RuleAttachmentResult, child(rb.At, "valueKind"), "a %s upload result is not a URL; its output schema must not declare format %s", rb.ValueKind, format)
		}
	}
	if len(rb.OutputPath) > 0 && !slices.ContainsFunc(cp.SuccessRule.RequiredOutputPaths, func(p []string) bool { return slices.Equal(p, rb.OutputPath) }) {
		k.contractf(RuleAttachmentResult, child(rb.At, "outputPath"), "the upload result %s must be among the success rule's requiredOutputPaths", quote(rb.OutputPath))
	}
	k.facts(rb.At, rb.EvidenceRefs, "the upload result binding of "+cp.ID)
}

// uploadResults checks a capability that consumes upload results of other
// capabilities.
func (k *checker) uploadResults(cp *contract.Capability, a *contract.Attachments) {
	for i := range a.ConsumerBindings {
		cb := &a.ConsumerBindings[i]
		k.cited(cb.At, cb.EvidenceRefs, "the consumer binding of "+cp.ID)
		in, ok := k.inputRef(cp, child(cb.At, "inputName"), cb.InputName)
		if ok && (len(in.SourceStrategies) == 0 || slices.ContainsFunc(in.SourceStrategies, func(s contract.Strategy) bool { return s.Kind != contract.StrategyUpstreamTool })) {
			k.contractf(RuleConsumerSource, child(cb.At, "inputName"),
				"input %q consumes upload results, so it comes only from the upload capability (upstream-tool strategies): a user could otherwise attest a result that was never uploaded", cb.InputName)
		}
		provider, pok := k.capabilityRef(child(cb.At, "providerCapabilityId"), cb.ProviderCapabilityID)
		if !pok {
			continue
		}
		switch {
		case provider.ID == cp.ID:
			k.contractf(RuleConsumerProvider, child(cb.At, "providerCapabilityId"), "%q cannot consume its own upload results", cp.ID)
			continue
		case provider.AttachmentMode() != contract.AttachmentsHostApprovedReference || provider.Attachments.ResultBinding == nil:
			k.contractf(RuleConsumerProvider, child(cb.At, "providerCapabilityId"), "%q does not upload attachments (host-approved-reference with a result binding)", provider.ID)
			continue
		case !slices.Equal(cb.ProviderOutputPath, provider.Attachments.ResultBinding.OutputPath):
			k.contractf(RuleConsumerProvider, child(cb.At, "providerOutputPath"), "the upload result of %q is at %s, not %s",
				provider.ID, quote(provider.Attachments.ResultBinding.OutputPath), quote(cb.ProviderOutputPath))
			continue
		}
		if !ok {
			continue
		}
		if source, declared := outputSchema(provider, cb.ProviderOutputPath); declared {
			if why := compatible(cb.MappingKind, cb.ProviderOutputPath, source, inputSchema(in)); why != "" {
				k.contractf(RuleConsumerProvider, child(cb.At, "mappingKind"), "%s", why)
			}
		}
		if !slices.ContainsFunc(in.SourceStrategies, func(s contract.Strategy) bool {
			return s.Kind == contract.StrategyUpstreamTool && s.CapabilityID == provider.ID && slices.Equal(s.OutputPath, cb.ProviderOutputPath) && s.MappingKind == cb.MappingKind
		}) {
			k.contractf(RuleConsumerProvider, cb.At, "input %q has no upstream-tool strategy from %q at %s by %s", in.Name, provider.ID, quote(cb.ProviderOutputPath), cb.MappingKind)
		}
		if !slices.ContainsFunc(k.c.Handoffs, func(h contract.Handoff) bool {
			return h.FromCapabilityID == provider.ID && h.ToCapabilityID == cp.ID && slices.ContainsFunc(h.Mappings, func(m contract.Mapping) bool {
				return m.TargetInput == in.Name && slices.Equal(m.SourcePath, cb.ProviderOutputPath) && m.MappingKind == cb.MappingKind
			})
		}) {
			k.contractf(RuleConsumerProvider, cb.At, "no handoff from %q to %q carries the upload result into %q", provider.ID, cp.ID, in.Name)
		}
		if s, found := cp.Implementation.Step(cp.Implementation.OutputStepID); !found || !slices.ContainsFunc(s.Bindings, func(b contract.Binding) bool {
			return b.Source.Kind == contract.SourceInput && b.Source.InputName == in.Name
		}) {
			k.contractf(RuleConsumerBound, child(cb.At, "inputName"), "the upload result in %q must be bound in the request of the output step %q", in.Name, cp.Implementation.OutputStepID)
		}
	}
}
