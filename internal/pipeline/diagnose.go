package pipeline

import (
	"context"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// Diagnosis categories, in the order diagnose lists them. A capability's
// own category is "capability:<id>".
const (
	CategorySource        = "source/topology"
	CategoryCanonical     = "canonical"
	CategoryDerived       = "derived"
	CategoryCapability    = "capability"
	CategoryFunction      = "function/mcp"
	CategoryDocumentation = "documentation"
	CategoryVerification  = "verification"
	CategoryFinalization  = "finalization"
	CategoryOther         = "other"
)

var categoryOrder = []string{CategorySource, CategoryCanonical, CategoryDerived, CategoryCapability,
	CategoryFunction, CategoryDocumentation, CategoryVerification, CategoryFinalization, CategoryOther}

// rootCategories hold root causes: while they have errors, errors elsewhere
// are most likely their consequences.
var rootCategories = []string{CategorySource, CategoryCanonical}

// DefaultMaxErrors is how many errors diagnose shows per category.
const DefaultMaxErrors = 10

// DiagnoseOptions are the flags of diagnose.
type DiagnoseOptions struct {
	// Stage keeps the categories a stage is about; "" keeps all.
	Stage string
	// Capability keeps that capability's category only.
	Capability string
	// MaxErrors bounds the errors shown per category; 0 means
	// DefaultMaxErrors.
	MaxErrors int
	// Full shows the categories a root cause would suppress.
	Full bool
}

// Diagnosis groups a package's validation errors by root cause.
type Diagnosis struct {
	Candidate   string     `json:"candidate"`
	PreFinalize bool       `json:"preFinalize"`
	Errors      int        `json:"errors"`
	Categories  []Category `json:"categories"`
	// SuppressedDownstream counts what a root cause hides without --full.
	SuppressedDownstream *Suppressed `json:"suppressedDownstream"`
	// Summary is the validator's verdict line.
	Summary string `json:"summary"`
}

// Category is one group of errors.
type Category struct {
	Category  string `json:"category"`
	RootCause bool   `json:"rootCause"`
	Count     int    `json:"count"`
	// Errors are the first MaxErrors of the category.
	Errors []diag.Diagnostic `json:"-"`
	// Shown renders Errors, one line each, for the JSON form.
	Shown []string `json:"errors"`
}

// Suppressed is what a root cause hides.
type Suppressed struct {
	Errors     int      `json:"errors"`
	Categories []string `json:"categories"`
}

// Diagnose runs the strict validator in-process on the package (before
// finalization unless it has an export manifest), with the stored source
// maps, and groups its errors by root cause.
func (p *Pipeline) Diagnose(ctx context.Context, opts DiagnoseOptions) (*Diagnosis, error) {
	if err := p.resolve(); err != nil {
		return nil, err
	}
	if opts.Stage != "" && !slices.Contains(Stages, opts.Stage) {
		return nil, usagef("--stage: unknown stage %q; the stages are %s", opts.Stage, strings.Join(Stages, ", "))
	}
	if opts.MaxErrors < 0 {
		return nil, usagef("--max-errors must be positive")
	}
	if opts.MaxErrors == 0 {
		opts.MaxErrors = DefaultMaxErrors
	}
	st, err := readState(p.stateAbs)
	if err != nil && !errors.Is(err, errNoState) {
		return nil, err
	}
	sources := contract.Sources{}
	if st != nil {
		sources.Map = st.SourceMaps
	}
	core, err := derive.Load(p.abs)
	if err != nil {
		return nil, err
	}
	in := core.Inputs
	known := false
	if in.Contract != nil {
		_, known = in.Contract.Capability(opts.Capability)
	}
	if opts.Capability != "" && !known {
		return nil, usagef("--capability: the contract has no capability %q", opts.Capability)
	}
	pre := !fileExists(p.pkgPath("export-manifest.json"))
	res, err := p.Steps.Validate(ctx, p.abs, core, pre, sources)
	if err != nil {
		return nil, err
	}
	d := &Diagnosis{Candidate: p.FeatureID(), PreFinalize: pre, Categories: []Category{}, Summary: res.Summary}
	groups := map[string][]diag.Diagnostic{}
	cl := newClassifier(in.Contract, pre)
	for _, e := range res.Findings.Sorted() {
		if e.Severity != diag.Error {
			continue
		}
		d.Errors++
		c := cl.classify(e)
		groups[c] = append(groups[c], e)
	}
	keep := func(c string) bool {
		if opts.Capability != "" {
			return c == CategoryCapability+":"+opts.Capability
		}
		if opts.Stage != "" {
			base, _, _ := strings.Cut(c, ":")
			return slices.Contains(stageNamed(opts.Stage).categories, base)
		}
		return true
	}
	root := false
	for _, c := range cl.order(groups) {
		if keep(c) && slices.Contains(rootCategories, c) {
			root = true
		}
	}
	for _, c := range cl.order(groups) {
		if !keep(c) {
			continue
		}
		isRoot := slices.Contains(rootCategories, c)
		if root && !isRoot && !opts.Full {
			if d.SuppressedDownstream == nil {
				d.SuppressedDownstream = &Suppressed{Categories: []string{}}
			}
			d.SuppressedDownstream.Errors += len(groups[c])
			d.SuppressedDownstream.Categories = append(d.SuppressedDownstream.Categories, c)
			continue
		}
		errs := groups[c]
		cat := Category{Category: c, RootCause: isRoot, Count: len(errs), Errors: errs[:min(len(errs), opts.MaxErrors)]}
		for _, e := range cat.Errors {
			cat.Shown = append(cat.Shown, e.String())
		}
		d.Categories = append(d.Categories, cat)
	}
	return d, nil
}

// classifier assigns an error to the category of its root cause.
type classifier struct {
	pre    bool
	tokens []capToken // longest first
	ids    []string   // capability IDs in contract order
}

type capToken struct{ token, id string }

func newClassifier(c *contract.Contract, pre bool) *classifier {
	cl := &classifier{pre: pre}
	if c == nil {
		return cl
	}
	for _, cp := range c.Capabilities {
		cl.ids = append(cl.ids, cp.ID)
		cl.tokens = append(cl.tokens, capToken{cp.ID, cp.ID})
		if cp.ToolName != "" {
			cl.tokens = append(cl.tokens, capToken{cp.ToolName, cp.ID})
		}
	}
	slices.SortStableFunc(cl.tokens, func(a, b capToken) int { return len(b.token) - len(a.token) })
	return cl
}

// derivedViews are the files derive writes (the matrix is judged apart).
var derivedViews = []string{
	derive.BundleFile, derive.FunctionBundleFile, derive.DraftFile, derive.FunctionSchemaFile, derive.MCPSchemaFile,
	derive.CapabilityContractFile, derive.GoalContractFile, derive.ConsumerRequirementsFile, derive.HostCompatibilityFile,
}

// classify returns the category of an error: the Portable Core inputs are
// root causes; otherwise the capability the error is about (by a capability
// pointer into a view, or the longest capability ID or Tool name its
// message names); otherwise the kind of file it is in.
func (cl *classifier) classify(e diag.Diagnostic) string {
	switch e.File {
	case contract.TopologyFile:
		return CategorySource
	case contract.ContractFile, contract.HostProfileFile, contract.ExportProfileFile:
		return CategoryCanonical
	}
	if slices.Contains(derivedViews, e.File) {
		if parts := diag.SplitPointer(e.Pointer); len(parts) > 1 && parts[0] == "capabilities" {
			if i, err := strconv.Atoi(parts[1]); err == nil && i >= 0 && i < len(cl.ids) {
				return CategoryCapability + ":" + cl.ids[i]
			}
		}
	}
	for _, t := range cl.tokens {
		if containsToken(e.Message, t.token) {
			return CategoryCapability + ":" + t.id
		}
	}
	switch f := e.File; {
	case slices.Contains(derivedViews, f):
		return CategoryDerived
	case f == derive.VerificationMatrixFile && cl.pre:
		return CategoryVerification
	case f == derive.VerificationMatrixFile || slices.Contains(finalFiles, f):
		return CategoryFinalization
	case strings.HasPrefix(f, "function-core/"), strings.HasPrefix(f, "mcp-tool/"), strings.HasPrefix(f, "authoring/"),
		strings.HasSuffix(f, ".mjs"):
		return CategoryFunction
	case path.Ext(f) == ".md":
		return CategoryDocumentation
	}
	return CategoryOther
}

// containsToken reports whether s names token as a whole word: not as part
// of a longer identifier.
func containsToken(s, token string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], token)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(token)
		if (start == 0 || !identByte(s[start-1])) && (end == len(s) || !identByte(s[end])) {
			return true
		}
		i = start + 1
	}
}

func identByte(b byte) bool {
	return b == '-' || b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// order lists the categories that have errors, in diagnose's order;
// capabilities in contract order.
func (cl *classifier) order(groups map[string][]diag.Diagnostic) []string {
	var out []string
	for _, c := range categoryOrder {
		if c == CategoryCapability {
			for _, id := range cl.ids {
				if _, ok := groups[CategoryCapability+":"+id]; ok {
					out = append(out, CategoryCapability+":"+id)
				}
			}
			continue
		}
		if _, ok := groups[c]; ok {
			out = append(out, c)
		}
	}
	return out
}
