// Package sarif writes a command's findings as a SARIF 2.1.0 log, the form
// code-scanning services (GitHub code scanning among them) and editors read:
// one run of code2skill per command, one rule per rule ID the findings name
// (its purpose from the registry, its help on the rules page), and one
// result per finding, located in its file by line and column, or, for a
// JSON file, by its JSON Pointer resolved to a line and column in the file's
// bytes. Results carry fingerprints that do not move with line numbers, so
// a service recognises a finding from one run to the next.
//
// The log is built from a diag.Report alone; commands only say where their
// findings' files are (Report.Roots) and on which file a finding about the
// package as a whole is shown (Report.Anchor).
package sarif

// The log format, as OASIS publishes it.
const (
	Version   = "2.1.0"
	SchemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	// FingerprintKey names code2skill's partial fingerprint; the suffix
	// changes only if the way it is computed does.
	FingerprintKey = "code2skill/v1"
	// SourceRoot is the base of every relative artifact URI: the working
	// directory code2skill ran in (the repository root in CI).
	SourceRoot = "%SRCROOT%"
)

// Log is a SARIF log file.
type Log struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []Run  `json:"runs"`
}

// Run is one invocation of one code2skill command.
type Run struct {
	Tool              Tool              `json:"tool"`
	AutomationDetails AutomationDetails `json:"automationDetails"`
	Invocations       []Invocation      `json:"invocations"`
	Results           []Result          `json:"results"`
	ColumnKind        string            `json:"columnKind"`
	Properties        RunProperties     `json:"properties"`
}

// Tool describes code2skill.
type Tool struct {
	Driver Driver `json:"driver"`
}

// Driver is code2skill as a tool component, with the rules of the run.
type Driver struct {
	Name            string       `json:"name"`
	Version         string       `json:"version,omitempty"`
	SemanticVersion string       `json:"semanticVersion,omitempty"`
	InformationURI  string       `json:"informationUri"`
	Rules           []Descriptor `json:"rules"`
}

// Descriptor is a reporting descriptor: one rule.
type Descriptor struct {
	ID                   string        `json:"id"`
	Name                 string        `json:"name"`
	ShortDescription     Text          `json:"shortDescription"`
	Help                 Help          `json:"help"`
	HelpURI              string        `json:"helpUri,omitempty"`
	DefaultConfiguration Configuration `json:"defaultConfiguration"`
	Properties           RuleTags      `json:"properties"`
}

// Text is a plain-text message string.
type Text struct {
	Text string `json:"text"`
}

// Help is a rule's help, as text and Markdown.
type Help struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

// Configuration is a rule's default reporting configuration.
type Configuration struct {
	Level string `json:"level"`
}

// RuleTags is a rule's property bag: the rule family it belongs to.
type RuleTags struct {
	Tags []string `json:"tags"`
}

// AutomationDetails identifies the analysis a run belongs to; its id up to
// the last "/" is the category code scanning keeps apart.
type AutomationDetails struct {
	ID string `json:"id"`
}

// Invocation says whether the command could do its job.
type Invocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
}

// RunProperties carry what the command's own report says.
type RunProperties struct {
	Command string `json:"command"`
	Status  string `json:"status"`
	Summary string `json:"summary,omitempty"`
}

// Result is one finding.
type Result struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             Text              `json:"message"`
	Locations           []Location        `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

// Location is where a finding is.
type Location struct {
	PhysicalLocation PhysicalLocation  `json:"physicalLocation"`
	LogicalLocations []LogicalLocation `json:"logicalLocations,omitempty"`
}

// PhysicalLocation is a file and, when known, the place in it.
type PhysicalLocation struct {
	ArtifactLocation ArtifactLocation `json:"artifactLocation"`
	Region           *Region          `json:"region,omitempty"`
}

// ArtifactLocation names a file: a URI relative to SourceRoot, or an
// absolute file URI for a file outside the working directory.
type ArtifactLocation struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

// Region is a place in a text file: 1-based line and column, the column
// in UTF-16 code units (the run's columnKind).
type Region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// LogicalLocation names the JSON value a finding is about by its JSON
// Pointer, which the region resolves in the file.
type LogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
}
