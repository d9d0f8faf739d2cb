package contract

import (
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

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
//
// A rule that requires no output (outputRequired false) names the statuses
// at which the backend answers without a body (emptyBodyStatusCodes, such
// as 204): a response of one of them with an empty body is a success whose
// data is null. Any other response is judged as always: a body that
// carries no forbidden key and every required output path.
type SuccessRule struct {
	Raw *canonjson.Object
	At  string

	Kind                 string
	OutputRequired       bool
	EmptyBodyStatusCodes []int64 // nil when absent
	ForbiddenOutputKeys  []string
	RequiredOutputPaths  [][]string // relative to the result's data
	EvidenceRefs         []string
}

// EmptyBody reports whether a response of the status with an empty body is
// a success whose data is null.
func (s *SuccessRule) EmptyBody(status int64) bool {
	return slices.Contains(s.EmptyBodyStatusCodes, status)
}

// SuccessDataProblem says why data cannot be the data of a successful
// result of status (a JSON number, as a result carries it): "" when it
// can. Data is an object or an array, or null when the success rule accepts
// an empty body at that status.
func (s *SuccessRule) SuccessDataProblem(status, data canonjson.Value) string {
	switch data.(type) {
	case *canonjson.Object, canonjson.Array:
		return ""
	case canonjson.Null:
		if len(s.EmptyBodyStatusCodes) == 0 {
			break
		}
		if n, ok := status.(canonjson.Number); ok {
			if code, ok := n.Int64(); ok && n.IsInteger() && s.EmptyBody(code) {
				return ""
			}
		}
		return "data is null, which the success rule accepts only with status " + StatusList(s.EmptyBodyStatusCodes)
	}
	return "data is " + canonjson.TypeName(data) + ", not an object or array"
}

// StatusList writes status codes as "204" or "202, 204".
func StatusList(codes []int64) string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = strconv.FormatInt(c, 10)
	}
	return strings.Join(out, ", ")
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

	// SourceError says where a rejected response keeps the backend's own
	// error, and which category a status means; nil when absent.
	SourceError *SourceError
}

// SourceError reads a response a step's successStatusCodes do not accept.
// The paths lead into the response's data; each is nil when absent.
// CategoryByStatus maps a status (three digits) to the failure category
// it means, overriding the category the status class implies.
type SourceError struct {
	Raw *canonjson.Object
	At  string

	CodePath         []string
	MessagePath      []string
	FieldErrorsPath  []string
	CategoryByStatus map[int]string
	EvidenceRefs     []string
}

// The failure categories a structured Tool error names in
// details.category.
const (
	CategoryInput          = "input"
	CategoryAuthorization  = "authorization"
	CategoryBusiness       = "business"
	CategoryUpstream       = "upstream"
	CategoryNetwork        = "network"
	CategoryOutputContract = "output-contract"
	CategoryUnknownOutcome = "unknown-outcome"
	CategoryUnclassified   = "unclassified"
)

// StatusCategory is the category a rejected HTTP status means when the
// contract does not say otherwise: 401 and 403 refuse the caller, 408, 429
// and 5xx are the backend failing, any other 4xx is a business rejection
// of a well-formed request, and an unexpected status of another class is
// an upstream failure.
func StatusCategory(status int) string {
	switch {
	case status == 401 || status == 403:
		return CategoryAuthorization
	case status == 408 || status == 429:
		return CategoryUpstream
	case status >= 400 && status < 500:
		return CategoryBusiness
	}
	return CategoryUpstream
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
	for _, e := range r.list("emptyBodyStatusCodes", opt) {
		if n, ok := r.rd.integer(e.v, e.at); ok {
			s.EmptyBodyStatusCodes = append(s.EmptyBodyStatusCodes, n)
		}
	}
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
	if r.has("sourceError") {
		e.SourceError = decodeSourceError(r.object("sourceError", opt))
	} else {
		r.known = append(r.known, "sourceError")
	}
	r.open()
	return e
}

// decodeSourceError reads errorContract.sourceError, a closed record that
// must say at least one thing.
func decodeSourceError(r *record) *SourceError {
	s := &SourceError{Raw: r.obj, At: r.at}
	// A path, when given, leads somewhere: it is not empty.
	path := func(key string) []string {
		if !r.has(key) {
			r.known = append(r.known, key)
			return nil
		}
		return r.strs(key, some)
	}
	s.CodePath = path("codePath")
	s.MessagePath = path("messagePath")
	s.FieldErrorsPath = path("fieldErrorsPath")
	if c := r.object("categoryByStatus", opt); c.obj != nil {
		s.CategoryByStatus = map[int]string{}
		for k, v := range c.obj.All() {
			at := loc{parent: c.at, key: k}
			n, err := strconv.Atoi(k)
			if err != nil || len(k) != 3 || n < 100 || n > 599 {
				r.rd.report(RuleVocabulary, at.String(), "%s is not an HTTP status; use three digits from 100 to 599", strconv.Quote(k))
				continue
			}
			s.CategoryByStatus[n] = r.rd.enum(v, at, vocabStatusCategory)
		}
	}
	s.EvidenceRefs = r.strs("evidenceRefs", some)
	r.closed()
	if r.obj != nil && s.CodePath == nil && s.MessagePath == nil && s.FieldErrorsPath == nil && len(s.CategoryByStatus) == 0 {
		r.rd.report(RuleEmpty, r.at, "sourceError must name a codePath, messagePath, fieldErrorsPath or categoryByStatus")
	}
	return s
}
