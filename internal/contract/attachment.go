package contract

import "github.com/code2skill/code2skill/internal/canonjson"

// Attachments is a capability's attachment chain. Mode none declares no
// chain; host-approved-reference resolves one Host-approved attachment and
// uploads it; business-upload-results consumes earlier upload results.
type Attachments struct {
	Raw *canonjson.Object
	At  string

	Mode               string
	ForbiddenInputs    []string
	EnforcedByWorkflow string

	// host-approved-reference
	HostInputRole   string
	UploadOwner     string
	AcceptedInputs  []string
	Metadata        *AttachmentMetadata
	ContentBindings []ContentBinding
	ResultBinding   *ResultBinding

	// business-upload-results
	ConsumerBindings []ConsumerBinding
}

// AttachmentMetadata is the metadata an approved attachment must carry.
type AttachmentMetadata struct {
	At string

	Required     []string
	MaxSizeBytes int64
	EvidenceRefs []string
}

// ContentBinding says where resolved attachment content goes in the request.
type ContentBinding struct {
	At string

	InputName     string
	StepID        string
	Location      string
	Path          []string
	RequirementID string
	EvidenceRefs  []string
}

// ResultBinding says which output carries the upload result and how it may
// be reused.
type ResultBinding struct {
	At string

	Kind          string
	ValueKind     string
	OutputPath    []string
	SubjectScoped bool
	SessionScoped bool
	Reuse         string
	EvidenceRefs  []string
}

// ConsumerBinding feeds an upload result into an input of this capability.
type ConsumerBinding struct {
	At string

	InputName            string
	ProviderCapabilityID string
	ProviderOutputPath   []string
	MappingKind          string
	EvidenceRefs         []string
}

// decodeAttachments reads an attachments record; each mode has a closed set
// of fields.
func decodeAttachments(r *record) Attachments {
	a := Attachments{Raw: r.obj, At: r.at}
	a.Mode = r.enum("mode", req, vocabAttachments)
	switch a.Mode {
	case AttachmentsNone:
	case AttachmentsHostApprovedReference:
		a.ForbiddenInputs = r.strs("forbiddenInputs", some)
		a.HostInputRole = r.laterEnum("hostInputRole", req, vocabHostInputRole)
		a.UploadOwner = r.laterEnum("uploadOwner", req, vocabUploadOwner)
		r.rd.later(func() { a.AcceptedInputs = r.enums("acceptedInputs", some, vocabAcceptedInput) })
		a.Metadata = decodeMetadata(r.object("metadata", req))
		a.ContentBindings = records(r, "contentBindings", req, decodeContentBinding)
		a.ResultBinding = decodeResultBinding(r.object("resultBinding", req))
		a.EnforcedByWorkflow = r.str("enforcedByWorkflow", opt)
	case AttachmentsBusinessUploadResults:
		a.ForbiddenInputs = r.strs("forbiddenInputs", some)
		a.ConsumerBindings = records(r, "consumerBindings", some, decodeConsumerBinding)
		a.EnforcedByWorkflow = r.str("enforcedByWorkflow", opt)
	}
	r.closedFor(a.Mode, vocabAttachments)
	return a
}

func decodeMetadata(r *record) *AttachmentMetadata {
	m := &AttachmentMetadata{At: r.at}
	m.Required = r.strs("required", req)
	m.MaxSizeBytes, _ = r.integer("maxSizeBytes", req)
	m.EvidenceRefs = r.strs("evidenceRefs", req)
	r.closed()
	return m
}

func decodeContentBinding(r *record) ContentBinding {
	b := ContentBinding{
		At:            r.at,
		InputName:     r.str("inputName", req),
		StepID:        r.str("stepId", req),
		Location:      r.laterEnum("location", req, vocabContentLoc),
		Path:          r.strs("path", some),
		RequirementID: r.laterEnum("requirementId", req, vocabAttachmentResolv),
		EvidenceRefs:  r.strs("evidenceRefs", req),
	}
	r.closed()
	return b
}

func decodeResultBinding(r *record) *ResultBinding {
	b := &ResultBinding{At: r.at}
	b.Kind = r.laterEnum("kind", req, vocabResultKind)
	b.ValueKind = r.laterEnum("valueKind", req, vocabValueKind)
	b.OutputPath = r.strs("outputPath", some)
	sc := r.object("scoping", req)
	b.SubjectScoped, _ = sc.boolean("subject", req)
	b.SessionScoped, _ = sc.boolean("session", req)
	sc.closed()
	b.Reuse = r.laterEnum("reuse", req, vocabReuse)
	b.EvidenceRefs = r.strs("evidenceRefs", req)
	r.closed()
	return b
}

func decodeConsumerBinding(r *record) ConsumerBinding {
	b := ConsumerBinding{
		At:                   r.at,
		InputName:            r.str("inputName", req),
		ProviderCapabilityID: r.str("providerCapabilityId", req),
		ProviderOutputPath:   r.strs("providerOutputPath", some),
		MappingKind:          r.laterEnum("mappingKind", req, vocabMapping),
		EvidenceRefs:         r.strs("evidenceRefs", req),
	}
	r.open()
	return b
}
