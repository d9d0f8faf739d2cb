package assets

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"text/template"
)

//go:embed templates/*.tmpl
var templateFiles embed.FS

var templates = template.Must(template.ParseFS(templateFiles, "templates/*.tmpl"))

// SetupData is what a core-export-v1 package's MCP-SETUP.md says. Slices
// are rendered in the order given.
type SetupData struct {
	Package  string     // the package directory's name, also the MCP server's name
	Skills   []string   // the Skill names the package installs
	Tools    []string   // the Tool names the server lists
	Env      []SetupVar // every environment variable the server reads
	Lockfile bool       // the package ships a package-lock.json
	// Replaces are the relative paths go.mod's replace directives lead
	// to (go-stdio, style B).
	Replaces []string
}

// SetupVar is one environment variable the server reads.
type SetupVar struct {
	Name     string
	Purpose  string // one sentence: what it configures and for which Tools
	Required bool
	Example  string // an illustrative value for the registration example
}

// MCPSetup renders MCP-SETUP.md: installing the Skills, which does not
// register the server; installing dependencies; the stdio registration
// (command, args, cwd, env) in host-neutral terms; every environment
// variable; and how to check the connection.
func MCPSetup(d SetupData) ([]byte, error) {
	if d.Package == "" || len(d.Skills) == 0 || len(d.Tools) == 0 {
		return nil, errors.New("MCP-SETUP.md needs the package name, its Skills and its Tools")
	}
	return render("MCP-SETUP.md.tmpl", d)
}

// MCPSetupGo renders MCP-SETUP.md of a go-stdio package: as MCPSetup,
// with go mod download and go build instead of npm, the built server as
// the registration's command, and the paths replace directives lead to.
func MCPSetupGo(d SetupData) ([]byte, error) {
	if d.Package == "" || len(d.Skills) == 0 || len(d.Tools) == 0 {
		return nil, errors.New("MCP-SETUP.md needs the package name, its Skills and its Tools")
	}
	return render("MCP-SETUP.go.md.tmpl", d)
}

// FeatureContextData is what the feature-context skeleton names.
type FeatureContextData struct {
	Title string   // the feature's readable name
	Goals []string // the user goals, readable
	Tools []string // the Tool names
}

// FeatureContext renders the skeleton of references/feature-context.md: the
// sections of business background a package may carry when the Skill and
// Tool descriptions cannot hold it, each with a comment saying what belongs
// there.
func FeatureContext(d FeatureContextData) ([]byte, error) {
	if d.Title == "" {
		return nil, errors.New("feature-context.md needs the feature's title")
	}
	return render("feature-context.md.tmpl", d)
}

func render(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", name, err)
	}
	return b.Bytes(), nil
}
