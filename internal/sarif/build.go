package sarif

import (
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// Producer says which code2skill wrote the log.
type Producer struct {
	Version string // the version "code2skill version" prints: "v1.2.3", "devel"
	// RulesURL is the page that documents every rule; each rule's help
	// links to its anchor there (see Anchor).
	RulesURL string
}

// InformationURI is code2skill's home page.
const InformationURI = "https://github.com/code2skill/code2skill"

// Write prints the report as a SARIF log of one run.
func Write(w io.Writer, r *diag.Report, tool Producer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Build(r, tool)); err != nil {
		return fmt.Errorf("encoding the SARIF log of %s: %w", r.Command, err)
	}
	return nil
}

// Build returns the SARIF log of a report: every finding of the report, in
// the order the text and JSON forms print them.
func Build(r *diag.Report, tool Producer) *Log {
	var list diag.List
	if r.List != nil {
		list = *r.List
	}
	findings := list.Sorted()
	files := newLocator(r.Roots, findings)
	ids := list.RuleIDs()
	run := Run{
		Tool: Tool{Driver: Driver{
			Name:            "code2skill",
			Version:         tool.Version,
			SemanticVersion: semanticVersion(tool.Version),
			InformationURI:  InformationURI,
			Rules:           make([]Descriptor, 0, len(ids)),
		}},
		AutomationDetails: AutomationDetails{ID: category(r.Command, files.dirURI())},
		Invocations:       []Invocation{{ExecutionSuccessful: r.Status != diag.StatusError}},
		Results:           make([]Result, 0, len(findings)),
		ColumnKind:        "utf16CodeUnits",
		Properties:        RunProperties{Command: r.Command, Status: r.Status, Summary: r.Line},
	}
	for _, id := range ids {
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, descriptor(id, tool.RulesURL))
	}
	var prints fingerprints
	for _, d := range findings {
		loc := files.locate(d, r.Anchor)
		res := Result{
			RuleID:    d.Rule,
			RuleIndex: slices.Index(ids, d.Rule),
			Level:     level(d.Severity),
			Message:   Text{Text: message(d)},
			Locations: []Location{loc},
		}
		res.PartialFingerprints = map[string]string{
			FingerprintKey: prints.next(d.Rule, loc.PhysicalLocation.ArtifactLocation.URI, d.Pointer, d.Message),
		}
		run.Results = append(run.Results, res)
	}
	return &Log{Schema: SchemaURI, Version: Version, Runs: []Run{run}}
}

// descriptor describes one rule from the registry.
func descriptor(id, rulesURL string) Descriptor {
	purpose, severity := "a rule of another code2skill build", diag.Error
	if r, ok := diag.Lookup(id); ok {
		purpose, severity = r.Purpose, r.Severity
	}
	d := Descriptor{
		ID:                   id,
		Name:                 ruleName(id),
		ShortDescription:     Text{Text: purpose},
		DefaultConfiguration: Configuration{Level: level(severity)},
		Properties:           RuleTags{Tags: []string{family(id)}},
	}
	d.Help.Text = fmt.Sprintf("%s: %s (%s). \"code2skill rules %s\" prints it.", id, purpose, severity, id)
	d.Help.Markdown = fmt.Sprintf("**%s** (%s): %s.\n\n`code2skill rules %s` prints it.", id, severity, purpose, id)
	if rulesURL != "" {
		d.HelpURI = rulesURL + "#" + Anchor(id)
		d.Help.Markdown += fmt.Sprintf(" Every rule is listed in [the rules reference](%s).", d.HelpURI)
	}
	return d
}

// Anchor is the fragment of a rule's entry on the rules page: the ID in
// lower case, the anchor a Markdown renderer gives the rule's heading.
func Anchor(id string) string { return strings.ToLower(id) }

// ruleName is the rule ID as a name in Pascal case, as SARIF suggests:
// CORE_SETUP_DEPENDENCIES is CoreSetupDependencies.
func ruleName(id string) string {
	var b strings.Builder
	for _, part := range strings.Split(id, "_") {
		if part != "" {
			b.WriteString(part[:1])
			b.WriteString(strings.ToLower(part[1:]))
		}
	}
	return b.String()
}

// family is the rule ID's domain prefix in lower case: "core" for
// CORE_SETUP_DEPENDENCIES.
func family(id string) string {
	prefix, _, _ := strings.Cut(id, "_")
	return strings.ToLower(prefix)
}

func level(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "note"
}

// message is the finding's message, its supporting detail under it.
func message(d diag.Diagnostic) string {
	if d.Detail == "" {
		return d.Message
	}
	return d.Message + "\n\n" + strings.TrimRight(d.Detail, "\n")
}

// category identifies the analysis: one per command and package, so that
// the runs over several packages of a repository stay apart.
func category(command, dir string) string {
	id := "code2skill/" + strings.ReplaceAll(command, " ", "-") + "/"
	if dir != "" && dir != "." {
		id += strings.TrimSuffix(dir, "/") + "/"
	}
	return id
}

var semver = regexp.MustCompile(`^v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$`)

// IsRelease reports whether a version names a release tag (v1.2.3,
// v1.3.0-rc.1), not a development build or a pseudo-version.
func IsRelease(v string) bool {
	return semver.MatchString(v) && !pseudo.MatchString(v)
}

// pseudo matches the pseudo-versions the go command gives untagged
// commits (v0.0.0-20261130131554-683707ea9580).
var pseudo = regexp.MustCompile(`-(?:0\.)?\d{14}-[0-9a-f]{12}(?:\+.*)?$|\.0\.\d{14}-[0-9a-f]{12}(?:\+.*)?$`)

// semanticVersion is a release's version without its "v", or "" for a
// development build.
func semanticVersion(v string) string {
	if m := semver.FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return ""
}
