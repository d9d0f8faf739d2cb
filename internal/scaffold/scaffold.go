// Package scaffold lays out a new core-export-v1 package: the starting point
// "code2skill init" writes for a Producer to fill in from the real source.
//
// A package has one Skill at its root when it serves one goal, or one Skill
// per goal under skills/<goal>/ sharing one Function and MCP server; an
// illustrative read-only HTTP Tool per goal whose service base URL comes
// from CODE2SKILL_<FEATURE>_<SERVICE>_BASE_URL; one request helper, send(),
// that every Function uses (authentication in the style Options.Auth
// names, a time limit, the MCP request's abort signal, dry-run for
// writes, path inputs that stop the call when missing); the reviewed
// result projection; package.json with the MCP SDK and zod pinned and a
// plain node --test script; MCP-SETUP.md; and offline tests that mock
// fetch and use .invalid base URLs.
//
// Its Skill and Tool texts are placeholders a Producer must rewrite:
// validate reports them (CORE_PLACEHOLDER_TEXT) until they are.
//
// Files returns the package as data; Write puts it on disk without ever
// leaving a half-written directory.
package scaffold

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/contract"
)

// Pinned versions of the packages a generated server imports: the versions
// code2skill's own tests run against.
const (
	SDKVersion = "1.32.2"
	ZodVersion = "4.6.7"
)

// DefaultService names the service when Options.Service is empty.
const DefaultService = "API"

// Options describe the package to lay out.
type Options struct {
	// FeatureID names the package, its MCP server and, when the package has
	// a single goal, its root Skill: 1–64 lowercase letters, digits and
	// single hyphens, starting with a letter.
	FeatureID string
	// Goals are the user goals, in the same form as FeatureID. None or one
	// gives a root SKILL.md; two or more give skills/<goal>/SKILL.md each.
	Goals []string
	// Service names the service in the base-URL variable: letters, digits
	// and underscores, starting with a letter; upper-cased. "API" if empty.
	Service string
	// FeatureContext adds the references/feature-context.md skeleton to
	// every Skill.
	FeatureContext bool
	// Auth is how the service authenticates a caller, one of AuthStyles;
	// "" is AuthNone.
	Auth string
	// AuthHeader is the header the credential travels in: for AuthBearer
	// (default Authorization) and AuthAPIKey (default x-api-key) only.
	AuthHeader string
	// AuthScheme is the word before the token, for AuthBearer only
	// (default Bearer): Token for Authorization: Token <jwt>.
	AuthScheme string
	// Runtime is the runtime profile, RuntimeNode ("" too) or RuntimeGo.
	Runtime string
}

// Default headers and scheme of the styles that send a credential in a
// header.
const (
	DefaultBearerHeader = "Authorization"
	DefaultBearerScheme = "Bearer"
	DefaultAPIKeyHeader = "x-api-key"
)

// Authentication styles: how send() authenticates every request.
const (
	AuthNone        = "none"         // no credential
	AuthBearer      = "bearer"       // Authorization: Bearer <TOKEN>
	AuthAPIKey      = "api-key"      // an API key header
	AuthCookieLogin = "cookie-login" // log in with USERNAME and PASSWORD, keep the session cookie
)

// AuthStyles lists the authentication styles init knows, in the order its
// help shows them.
var AuthStyles = []string{AuthNone, AuthBearer, AuthAPIKey, AuthCookieLogin}

// credentialSuffixes are the variables each style reads besides the base
// URL: CODE2SKILL_<FEATURE>_<SERVICE>_<SUFFIX>.
var credentialSuffixes = map[string][]string{
	AuthBearer:      {"TOKEN"},
	AuthAPIKey:      {"API_KEY"},
	AuthCookieLogin: {"USERNAME", "PASSWORD"},
}

var (
	idRE      = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	serviceRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	httpToken = regexp.MustCompile("^[A-Za-z0-9!#$%&'*+.^_`|~-]+$") // RFC 9110 token
)

const (
	maxIDLen      = 64 // Agent Skills limit on a Skill name
	maxServiceLen = 32
	maxHeaderLen  = 64
)

// RootSkill reports whether the package has one Skill at its root.
func (o Options) RootSkill() bool { return len(o.Goals) <= 1 }

// Check reports the first problem with the options.
func (o Options) Check() error {
	if err := checkID("feature id", o.FeatureID); err != nil {
		return err
	}
	for i, g := range o.Goals {
		if err := checkID("goal", g); err != nil {
			return err
		}
		if slices.Contains(o.Goals[:i], g) {
			return fmt.Errorf("goal %q is given twice", g)
		}
	}
	if o.Service != "" && (!serviceRE.MatchString(o.Service) || len(o.Service) > maxServiceLen) {
		return fmt.Errorf("service %q: use up to %d letters, digits and underscores, starting with a letter", o.Service, maxServiceLen)
	}
	if o.Auth != "" && !slices.Contains(AuthStyles, o.Auth) {
		return fmt.Errorf("auth %q: use one of %s", o.Auth, strings.Join(AuthStyles, ", "))
	}
	if o.AuthHeader != "" {
		if a := o.auth(); a != AuthBearer && a != AuthAPIKey {
			return fmt.Errorf("auth header %q: only the bearer and api-key styles send their credential in a header", o.AuthHeader)
		}
		if !httpToken.MatchString(o.AuthHeader) || len(o.AuthHeader) > maxHeaderLen {
			return fmt.Errorf("auth header %q: use a header name (letters, digits and - . _ ! # $ %% & ' * + ^ ` | ~, up to %d)", o.AuthHeader, maxHeaderLen)
		}
		if l := strings.ToLower(o.AuthHeader); l == "cookie" || l == "content-type" || l == "accept" {
			return fmt.Errorf("auth header %q: init sets that header itself; name the header the service reads the credential from", o.AuthHeader)
		}
	}
	if o.Runtime != "" && o.Runtime != RuntimeNode && o.Runtime != RuntimeGo {
		return fmt.Errorf("runtime %q: use %s or %s", o.Runtime, RuntimeNode, RuntimeGo)
	}
	if o.AuthScheme != "" {
		if o.auth() != AuthBearer {
			return fmt.Errorf("auth scheme %q: only the bearer style puts a scheme before its token", o.AuthScheme)
		}
		if !httpToken.MatchString(o.AuthScheme) || len(o.AuthScheme) > maxHeaderLen {
			return fmt.Errorf("auth scheme %q: use one word such as Bearer or Token", o.AuthScheme)
		}
	}
	return nil
}

// authHeader returns the header a style sends its credential in, lower-
// cased as fetch sends it, or "".
func (o Options) authHeader() string {
	switch {
	case o.AuthHeader != "":
		return strings.ToLower(o.AuthHeader)
	case o.auth() == AuthBearer:
		return strings.ToLower(DefaultBearerHeader)
	case o.auth() == AuthAPIKey:
		return DefaultAPIKeyHeader
	}
	return ""
}

func (o Options) authScheme() string {
	if o.AuthScheme != "" {
		return o.AuthScheme
	}
	return DefaultBearerScheme
}

func (o Options) auth() string {
	if o.Auth == "" {
		return AuthNone
	}
	return o.Auth
}

func checkID(what, id string) error {
	if len(id) > maxIDLen || !idRE.MatchString(id) {
		return fmt.Errorf("%s %q: use up to %d lowercase letters, digits and single hyphens, starting with a letter", what, id, maxIDLen)
	}
	return nil
}

// BaseURLVariable returns the environment variable holding a service's base
// URL: CODE2SKILL_<FEATURE>_<SERVICE>_BASE_URL.
func BaseURLVariable(featureID, service string) string {
	return ServiceVariable(featureID, service, "BASE_URL")
}

// ServiceVariable returns the environment variable holding one setting of
// a service: CODE2SKILL_<FEATURE>_<SERVICE>_<SUFFIX>, such as the base URL
// (BASE_URL) or a credential (TOKEN, API_KEY, USERNAME, PASSWORD,
// SESSION_COOKIE).
func ServiceVariable(featureID, service, suffix string) string {
	return "CODE2SKILL_" + snake(featureID, true) + "_" + strings.ToUpper(service) + "_" + suffix
}

// pkgData is what the templates see.
type pkgData struct {
	Package        string
	Title          string
	Service        string // upper-case service name
	ServiceConst   string // the JS constant holding the variable's name
	BaseURLVar     string
	TestBaseURL    string // a base URL under .invalid, for the package's tests
	FeatureContext bool
	Tools          []toolData

	Auth             string // one of AuthStyles
	AuthHeader       string // the header the credential travels in, lower-cased; "" without one
	AuthScheme       string // bearer: the word before the token
	AuthSummary      string // what send() does to authenticate, for comments
	Credentials      []credentialData
	CredentialConsts []string // the JS constants of Credentials, in order

	GoServiceConst string // go-stdio: the Go constant holding BaseURLVar
}

// credentialData is one credential variable of the service.
type credentialData struct {
	Const     string // the JS constant holding the variable's name
	Var       string // the environment variable
	What      string // what it holds, for comments and MCP-SETUP.md
	Example   string // the value shown in MCP-SETUP.md's registration example
	TestValue string // the fake value the package's tests inject
	GoConst   string // go-stdio: the Go constant holding the variable's name
	GoLocal   string // go-stdio: the local variable send reads it into
}

// toolData is one goal: its Skill and its illustrative Tool.
type toolData struct {
	Goal             string
	Title            string // "Find orders"
	Phrase           string // "find orders"
	Name             string // Tool name, find_orders
	Function         string // Function export, findOrders
	Path             string // request path relative to the base URL
	Description      string // Tool description
	Skill            string // Skill name
	SkillDir         string // "" for the root Skill, else skills/<goal>
	SkillDescription string
	GoFunction       string // go-stdio: the exported Function, FindOrders
}

// skillData is what SKILL.md sees: its goal and some package facts.
type skillData struct {
	toolData
	Package        string
	FeatureContext bool
	Authenticated  bool // the service takes credentials
}

func newPkgData(o Options) *pkgData {
	service := strings.ToUpper(o.Service)
	if service == "" {
		service = DefaultService
	}
	d := &pkgData{
		Package:        o.FeatureID,
		Title:          sentence(o.FeatureID),
		Service:        service,
		ServiceConst:   service + "_BASE_URL",
		BaseURLVar:     BaseURLVariable(o.FeatureID, service),
		TestBaseURL:    "https://" + strings.ReplaceAll(strings.ToLower(service), "_", "-") + ".invalid/",
		FeatureContext: o.FeatureContext,
		Auth:           o.auth(),
		AuthHeader:     o.authHeader(),
	}
	if d.Auth == AuthBearer {
		d.AuthScheme = o.authScheme()
	}
	what := map[string]string{
		"TOKEN":    "the token the " + service + " service expects as `" + headerTitle(d.AuthHeader) + ": " + d.AuthScheme + " <token>`",
		"API_KEY":  "the key the " + service + " service expects in its `" + headerTitle(d.AuthHeader) + "` header",
		"USERNAME": "the user name the server logs in to the " + service + " service with",
		"PASSWORD": "the password the server logs in to the " + service + " service with",
	}
	for _, suffix := range credentialSuffixes[d.Auth] {
		c := credentialData{
			Const:     service + "_" + suffix,
			Var:       ServiceVariable(o.FeatureID, service, suffix),
			What:      what[suffix],
			Example:   "<" + strings.ReplaceAll(strings.ToLower(suffix), "_", " ") + " from the host's secret store>",
			TestValue: "test-" + strings.ReplaceAll(strings.ToLower(suffix), "_", "-") + "-not-a-real-one",
		}
		d.Credentials = append(d.Credentials, c)
		d.CredentialConsts = append(d.CredentialConsts, c.Const)
	}
	d.AuthSummary = map[string]string{
		AuthNone:        "none, the service takes no credential",
		AuthBearer:      "the host's token, as `" + headerTitle(d.AuthHeader) + ": " + d.AuthScheme + " <token>`",
		AuthAPIKey:      "the host's key, in the `" + headerTitle(d.AuthHeader) + "` header",
		AuthCookieLogin: "a session cookie from logging in once, renewed on a 401",
	}[d.Auth]
	goals := o.Goals
	if len(goals) == 0 {
		goals = []string{o.FeatureID}
	}
	for _, g := range goals {
		t := toolData{
			Goal:     g,
			Title:    sentence(g),
			Phrase:   strings.ReplaceAll(g, "-", " "),
			Name:     snake(g, false),
			Function: jsFunctionName(g),
			Path:     g,
			Skill:    g,
			SkillDir: "skills/" + g,
		}
		if o.RootSkill() {
			t.Skill, t.SkillDir = o.FeatureID, ""
		}
		t.Description = fmt.Sprintf("%s: sends the query to the %s service of %s and returns its answer unchanged "+
			"as httpStatus and bodyText. Read-only. Scaffolded by code2skill init as an illustrative request; "+
			"describe the real one here.", t.Title, service, o.FeatureID)
		t.SkillDescription = fmt.Sprintf("Helps the user %s through the %s tool of the %s MCP server. "+
			"Use when the user asks to %s.", t.Phrase, t.Name, o.FeatureID, t.Phrase)
		d.Tools = append(d.Tools, t)
	}
	return d
}

// headerTitle writes a lower-cased header name the way documents show
// it: authorization is Authorization, x-api-key X-Api-Key.
func headerTitle(h string) string {
	parts := strings.Split(h, "-")
	for i, p := range parts {
		if p != "" {
			parts[i] = strings.ToUpper(p[:1]) + p[1:]
		}
	}
	return strings.Join(parts, "-")
}

//go:embed templates/*.tmpl
var templateFiles embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"js":   quoteJS,
	"yaml": quoteYAML,
	// dryRunVariable is the variable a core package's writes honour.
	"dryRunVariable": func() string { return contract.DefaultDryRunVariable },
}).ParseFS(templateFiles, "templates/*.tmpl"))

// Files returns every file of the package, in a fixed order, with
// slash-separated paths relative to the package root.
func Files(o Options) ([]atomicfile.File, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.Runtime == RuntimeGo {
		return goFiles(o)
	}
	d := newPkgData(o)
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
		add(path, b.Bytes())
	}

	manifest, err := packageJSON(d)
	if err != nil {
		return nil, err
	}
	add("package.json", manifest)
	setup, err := assets.MCPSetup(setupData(d))
	if err != nil {
		return nil, err
	}
	add("MCP-SETUP.md", setup)
	add(".gitignore", mustRead("templates/gitignore.tmpl"))
	add(assets.AgentResult.Name(), assets.AgentResult.Bytes())
	render("function-core/index.mjs", "function-core.mjs.tmpl", d)
	render("mcp-tool/server.mjs", "server.mjs.tmpl", d)
	render("mcp-tool/index.mjs", "index.mjs.tmpl", d)
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
	render("tests/helpers.mjs", "helpers.mjs.tmpl", d)
	render("tests/mcp-server.test.mjs", "mcp-server.test.mjs.tmpl", d)
	render("tests/request.test.mjs", "request.test.mjs.tmpl", d)
	if len(d.Credentials) > 0 {
		render("tests/auth.test.mjs", "auth.test.mjs.tmpl", d)
	}
	for _, t := range d.Tools {
		render("tests/"+t.Goal+".test.mjs", "tool.test.mjs.tmpl", struct {
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

func mustRead(name string) []byte {
	b, err := templateFiles.ReadFile(name)
	if err != nil {
		panic(err) // embedded at build time; a missing file is a build mistake
	}
	return b
}

// packageJSON writes package.json with its keys in a fixed, readable order.
func packageJSON(d *pkgData) ([]byte, error) {
	type scripts struct {
		Start string `json:"start"`
		Test  string `json:"test"`
	}
	m := struct {
		Name         string            `json:"name"`
		Version      string            `json:"version"`
		Private      bool              `json:"private"`
		Description  string            `json:"description"`
		Type         string            `json:"type"`
		Engines      map[string]string `json:"engines"`
		Scripts      scripts           `json:"scripts"`
		Dependencies map[string]string `json:"dependencies"` // encoding/json sorts map keys
		Code2skill   map[string]string `json:"code2skill"`
	}{
		Name:        d.Package,
		Version:     "0.1.0",
		Private:     true,
		Description: d.Title + ": Agent Skills backed by a stdio MCP server.",
		Type:        "module",
		Engines:     map[string]string{"node": ">=20.3"}, // AbortSignal.any
		// A bare "node --test" finds tests/*.test.mjs on every Node version
		// from 20 on; a directory argument stopped working in Node 21.
		Scripts:      scripts{Start: "node mcp-tool/index.mjs", Test: "node --test"},
		Dependencies: map[string]string{"@modelcontextprotocol/sdk": SDKVersion, "zod": ZodVersion},
		Code2skill:   map[string]string{"profile": assets.CoreProfile},
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("writing package.json: %w", err)
	}
	return b.Bytes(), nil
}

func setupData(d *pkgData) assets.SetupData {
	s := assets.SetupData{Package: d.Package}
	var users []string
	for _, t := range d.Tools {
		s.Skills = append(s.Skills, t.Skill)
		s.Tools = append(s.Tools, t.Name)
		users = append(users, "`"+t.Name+"`")
	}
	s.Skills = slices.Compact(s.Skills) // the root Skill serves its one Tool
	s.Env = []assets.SetupVar{{
		Name:     d.BaseURLVar,
		Purpose:  fmt.Sprintf("Base URL of the %s service, used by %s.", d.Service, strings.Join(users, ", ")),
		Required: true,
		Example:  "https://" + strings.ReplaceAll(strings.ToLower(d.Service), "_", "-") + ".example.com/",
	}}
	for _, c := range d.Credentials {
		purpose := strings.ToUpper(c.What[:1]) + c.What[1:] + ". A credential: inject it from the host's secret store; never pass it as a Tool argument or write it into the package."
		if d.Auth == AuthCookieLogin {
			purpose += " The server logs in with it once, keeps the session cookie in memory and logs in again once when the service answers 401."
		}
		s.Env = append(s.Env, assets.SetupVar{Name: c.Var, Purpose: purpose, Required: true, Example: c.Example})
	}
	s.Env = append(s.Env, assets.SetupVar{
		Name:    contract.DefaultDryRunVariable,
		Purpose: "Set to `1` to make a write return the request it would send (credentials not shown) instead of sending it.",
		Example: "0",
	})
	return s
}

func featureContextData(d *pkgData) assets.FeatureContextData {
	f := assets.FeatureContextData{Title: d.Title}
	for _, t := range d.Tools {
		f.Goals = append(f.Goals, t.Phrase)
		f.Tools = append(f.Tools, t.Name)
	}
	return f
}
