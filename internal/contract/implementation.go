package contract

import "github.com/code2skill/code2skill/internal/canonjson"

// Implementation is how a Function executes: locally, or as exact HTTP
// requests.
type Implementation struct {
	Raw *canonjson.Object
	At  string

	Kind         string // local or http
	Steps        []Step // http
	OutputStepID string // http: the step whose response is the result
}

// Step returns the HTTP step with the given ID.
func (im *Implementation) Step(id string) (*Step, bool) {
	return find(im.Steps, func(x *Step) bool { return x.ID == id })
}

// Step is one exact HTTP request.
type Step struct {
	Raw *canonjson.Object
	At  string

	ID                 string
	Method             string
	Authentication     string // "" when absent
	URL                string
	Headers            canonjson.Value // nil when absent
	Bindings           []Binding
	SuccessStatusCodes []int64
	EvidenceRefs       []string
}

// Binding places one value in a request.
type Binding struct {
	Raw *canonjson.Object
	At  string

	Source       Source
	Location     string // path, query, body, header or multipart
	Path         []string
	EvidenceRefs []string
}

// Source is where a bound value comes from.
type Source struct {
	At string

	Kind          string   // input, prior_response or host_resolved_attachment
	InputName     string   // input, host_resolved_attachment
	StepID        string   // prior_response
	Path          []string // prior_response
	RequirementID string   // host_resolved_attachment
}

// SuccessRule says what makes a Function result successful.
type SuccessRule struct {
	Raw *canonjson.Object
	At  string

	Kind                string
	OutputRequired      bool
	ForbiddenOutputKeys []string
	RequiredOutputPaths [][]string // relative to the result's data
	EvidenceRefs        []string
}

// ErrorContract says where a structured failure keeps its code, message,
// details and retryability.
type ErrorContract struct {
	Raw *canonjson.Object
	At  string

	Format                   string
	PreservesRecoveryContext bool
	CodePath                 []string
	MessagePath              []string
	DetailsPath              []string
	RetryabilityPath         []string // nil when absent or null
	DefaultRetryable         bool
	EvidenceRefs             []string
}

// decodeImplementation reads an implementation; each kind has a closed set
// of fields.
func decodeImplementation(r *record) Implementation {
	im := Implementation{Raw: r.obj, At: r.at}
	im.Kind = r.enum("kind", req, vocabImplementation)
	switch im.Kind {
	case ImplementationLocal:
	case ImplementationHTTP:
		im.Steps = records(r, "steps", some, decodeStep)
		im.OutputStepID = r.str("outputStepId", req)
	}
	r.closedFor(im.Kind, vocabImplementation)
	return im
}

func decodeStep(r *record) Step {
	s := Step{Raw: r.obj, At: r.at}
	s.ID = r.str("stepId", req)
	s.Method = r.laterEnum("method", req, vocabMethod)
	s.Authentication = r.laterEnum("authentication", opt, vocabAuthentication)
	s.URL = r.str("url", req)
	if h := r.object("headers", opt); h.obj != nil {
		s.Headers = h.obj
		for k, v := range h.obj.All() {
			r.rd.str(v, loc{parent: h.at, key: k}, opt)
		}
	}
	s.Bindings = records(r, "bindings", opt, decodeBinding)
	for _, e := range r.list("successStatusCodes", some) {
		if n, ok := r.rd.integer(e.v, e.at); ok {
			s.SuccessStatusCodes = append(s.SuccessStatusCodes, n)
		}
	}
	s.EvidenceRefs = r.strs("evidenceRefs", opt)
	r.closed()
	return s
}

func decodeBinding(r *record) Binding {
	b := Binding{Raw: r.obj, At: r.at}
	b.Source = decodeSource(r.object("source", req))
	b.Location = r.laterEnum("location", req, vocabLocation)
	b.Path = r.strs("path", some)
	b.EvidenceRefs = r.strs("evidenceRefs", opt)
	r.closed()
	return b
}

// decodeSource reads a binding source; each kind has a closed set of fields.
func decodeSource(r *record) Source {
	s := Source{At: r.at}
	s.Kind = r.enum("kind", req, vocabSource)
	switch s.Kind {
	case SourceInput:
		s.InputName = r.str("inputName", req)
	case SourcePriorResponse:
		s.StepID = r.str("stepId", req)
		s.Path = r.strs("path", some)
	case SourceHostResolvedAttachment:
		s.InputName = r.str("inputName", req)
		s.RequirementID = r.laterEnum("requirementId", req, vocabAttachmentResolv)
	}
	r.closedFor(s.Kind, vocabSource)
	return s
}

func decodeSuccessRule(r *record) SuccessRule {
	s := SuccessRule{Raw: r.obj, At: r.at}
	s.Kind = r.laterEnum("kind", req, vocabSuccessRule)
	s.OutputRequired, _ = r.boolean("outputRequired", req)
	s.ForbiddenOutputKeys = r.strs("forbiddenOutputKeys", req)
	for _, e := range r.list("requiredOutputPaths", req) {
		s.RequiredOutputPaths = append(s.RequiredOutputPaths, r.rd.strs(e.v, e.at, some))
	}
	s.EvidenceRefs = r.strs("evidenceRefs", req)
	r.open()
	return s
}

func decodeErrorContract(r *record) ErrorContract {
	e := ErrorContract{Raw: r.obj, At: r.at}
	e.Format = r.laterEnum("format", req, vocabErrorFormat)
	e.PreservesRecoveryContext, _ = r.boolean("preservesRecoveryContext", req)
	e.CodePath = r.strs("codePath", some)
	e.MessagePath = r.strs("messagePath", some)
	e.DetailsPath = r.strs("detailsPath", some)
	if v, at, ok := r.field("retryabilityPath", opt); ok {
		if _, null := v.(canonjson.Null); !null {
			e.RetryabilityPath = r.rd.strs(v, at, some)
		}
	}
	e.DefaultRetryable, _ = r.boolean("defaultRetryable", req)
	e.EvidenceRefs = r.strs("evidenceRefs", req)
	r.open()
	return e
}
