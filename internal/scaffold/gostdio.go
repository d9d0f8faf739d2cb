package scaffold

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"strings"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/atomicfile"
)

// Runtime profiles a package can be laid out in.
const (
	RuntimeNode = "node-stdio" // package.json, .mjs modules, node --test (the default)
	RuntimeGo   = "go-stdio"   // go.mod, Go packages, go test
)

// goMarker is the first line of a go-stdio package's go.mod.
const goMarker = "// code2skill:profile core-export-v1 runtime=go-stdio"

// goCredentialNames are the Go constants of the credential variables.
// and the local variables send reads them into.
var goCredentialNames = map[string][2]string{
	"TOKEN": {"Token", "credential"}, "API_KEY": {"APIKey", "credential"},
	"USERNAME": {"Username", "username"}, "PASSWORD": {"Password", "password"},
}

// goRequirements returns the require directives and go.sum every go-stdio
// package starts from: those of the Go twin of the bundled example, which
// pin the official Go MCP SDK and what it needs.
func goRequirements() (requires, sum []byte, err error) {
	mod, err := fs.ReadFile(examples.SeedLibraryGo(), "go.mod")
	if err != nil {
		return nil, nil, err
	}
	i := bytes.Index(mod, []byte("\nrequire"))
	if i < 0 {
		return nil, nil, errors.New("the Go example's go.mod has no require directive")
	}
	sum, err = fs.ReadFile(examples.SeedLibraryGo(), "go.sum")
	return mod[i+1:], sum, err
}

// goFiles lays out the package in the go-stdio runtime profile.
func goFiles(o Options) ([]atomicfile.File, error) {
	d := newPkgData(o)
	d.GoServiceConst = d.Service + "BaseURL"
	for i := range d.Credentials {
		suffix := strings.TrimPrefix(d.Credentials[i].Const, d.Service+"_")
		names := goCredentialNames[suffix]
		d.Credentials[i].GoConst, d.Credentials[i].GoLocal = d.Service+names[0], names[1]
	}
	for i := range d.Tools {
		f := d.Tools[i].Function
		d.Tools[i].GoFunction = strings.ToUpper(f[:1]) + strings.TrimSuffix(f[1:], "Goal")
	}
	var files []atomicfile.File
	add := func(path string, data []byte) {
		files = append(files, atomicfile.File{Path: path, Data: data, Perm: 0o644})
	}
	var errs []error
	render := func(path, tmpl string, data any) {
		var b bytes.Buffer
		if err := templates.ExecuteTemplate(&b, tmpl, data); err != nil {
			errs = append(errs, fmt.Errorf("rendering %s: %w", path, err))
			return
		}
		out := b.Bytes()
		if strings.HasSuffix(path, ".go") {
			// Templates cannot align what gofmt aligns.
			formatted, err := format.Source(out)
			if err != nil {
				errs = append(errs, fmt.Errorf("rendering %s: %w", path, err))
				return
			}
			out = formatted
		}
		add(path, out)
	}
	requires, sum, err := goRequirements()
	if err != nil {
		return nil, err
	}
	add("go.mod", []byte(goMarker+"\nmodule "+d.Package+"\n\ngo 1.25.0\n\n"+string(requires)))
	add("go.sum", sum)
	setup, err := assets.MCPSetupGo(setupData(d))
	if err != nil {
		return nil, err
	}
	add("MCP-SETUP.md", setup)
	add(".gitignore", []byte("bin/\n"))
	add(assets.GoAgentResult.Name(), assets.GoAgentResult.Bytes())
	render("function-core/core.go", "go-core.go.tmpl", d)
	render("mcp-tool/main.go", "go-main.go.tmpl", d)
	render("mcp-tool/server.go", "go-server.go.tmpl", d)
	for _, t := range d.Tools {
		dir := t.SkillDir
		if dir != "" {
			dir += "/"
		}
		render(dir+"SKILL.md", "SKILL.md.tmpl", skillData{t, d.Package, d.FeatureContext, len(d.Credentials) > 0})
		if d.FeatureContext {
			fc, err := assets.FeatureContext(featureContextData(d))
			if err != nil {
				return nil, err
			}
			add(dir+"references/feature-context.md", fc)
		}
	}
	render("tests/helpers_test.go", "go-helpers_test.go.tmpl", d)
	if d.Auth == AuthCookieLogin {
		render("tests/auth_test.go", "go-auth_test.go.tmpl", d)
	}
	for _, t := range d.Tools {
		render("tests/"+strings.ReplaceAll(t.Goal, "-", "_")+"_test.go", "go-tool_test.go.tmpl", struct {
			*pkgData
			Tool       toolData
			RequestURL string
		}{d, t, d.TestBaseURL + t.Path + "?q=sample"})
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return files, nil
}
