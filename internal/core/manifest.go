package core

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/endpoint"
)

// manifest is what the checks need from package.json.
type manifest struct {
	host bool // code2skill.requiresHostIntegration
	// public are the fixed endpoints of public protocols the package
	// calls at their literal address (code2skill.publicEndpoints).
	public endpoint.List
}

// runtimeDeps must be declared in dependencies: the MCP entry imports them at
// run time, so "npm ci --omit=dev" must still install them.
var runtimeDeps = []string{"@modelcontextprotocol/sdk", "zod"}

// lifecycleHooks run code implicitly during npm install, npm ci or npm test.
var lifecycleHooks = []string{
	"preinstall", "install", "postinstall",
	"preprepare", "prepare", "postprepare", "prepublish",
	"pretest", "posttest",
}

// checkManifest reads package.json and checks it. It returns nil when the
// file is missing or is not a JSON object.
func (c *checker) checkManifest() *manifest {
	const file = "package.json"
	if !c.pkg.Has(file) {
		return nil // reported by the layout check
	}
	src, err := c.pkg.ReadFile(file)
	if err != nil {
		c.add(RuleManifestInvalid.New(file, "%v", err))
		return nil
	}
	v, err := canonjson.Decode(src)
	if err != nil {
		// JSON_SYNTAX and its kin, with line and column; a duplicate key
		// matters here too: npm takes the last one, a reviewer may read
		// the first.
		var syn *canonjson.SyntaxError
		if errors.As(err, &syn) {
			c.add(syn.Diagnostic(file))
		} else {
			c.add(RuleManifestInvalid.New(file, "%v", err))
		}
		return nil
	}
	obj, ok := v.(*canonjson.Object)
	if !ok {
		c.add(RuleManifestInvalid.New(file, "package.json holds %s, not an object", canonjson.TypeName(v)))
		return nil
	}
	m := &manifest{}

	if t, _ := obj.At("type").(canonjson.String); t != "module" {
		c.add(RuleManifestType.New(file, `"type" is %s; set it to "module" so that .mjs and .js files load as ES modules`, show(obj.At("type"))).AtPointer("/type"))
	}

	meta, _ := obj.At("code2skill").(*canonjson.Object)
	if p, _ := meta.At("profile").(canonjson.String); p != Profile {
		c.add(RuleManifestProfile.New(file, `"code2skill.profile" is %s; set it to %q`, show(meta.At("profile")), Profile).AtPointer("/code2skill/profile"))
	}
	if h := meta.At("requiresHostIntegration"); h != nil {
		b, ok := h.(canonjson.Bool)
		if !ok {
			c.add(RuleManifestHostIntegration.New(file, `"code2skill.requiresHostIntegration" is %s; use true or false`, show(h)).AtPointer("/code2skill/requiresHostIntegration"))
		}
		m.host = bool(b)
	}
	if pe := meta.At("publicEndpoints"); pe != nil {
		list, ok := pe.(canonjson.Array)
		if !ok {
			c.add(RuleManifestPublicEndpoint.New(file, `"code2skill.publicEndpoints" is %s; list the endpoints' URLs`, show(pe)).AtPointer("/code2skill/publicEndpoints"))
		}
		for i, v := range list {
			s, isString := v.(canonjson.String)
			e, err := endpoint.Parse(string(s))
			if !isString {
				err = fmt.Errorf("%s is not a string", show(v))
			}
			if err != nil {
				c.add(RuleManifestPublicEndpoint.New(file, "public endpoint %v", err).AtPointer(diag.Pointer("code2skill", "publicEndpoints", i)))
				continue
			}
			m.public = append(m.public, e)
		}
	}

	deps, _ := obj.At("dependencies").(*canonjson.Object)
	for _, name := range runtimeDeps {
		ptr := diag.Pointer("dependencies", name)
		raw := deps.At(name)
		if raw == nil {
			where := ""
			if dev, _ := obj.At("devDependencies").(*canonjson.Object); dev.Has(name) {
				where = " (it is only a devDependency, which npm ci --omit=dev leaves out)"
			}
			c.add(RuleManifestDependency.New(file, "%s is not declared in dependencies%s", name, where).AtPointer(ptr))
			continue
		}
		why := "is not a string"
		if spec, ok := raw.(canonjson.String); ok {
			why = versionProblem(string(spec))
		}
		if why != "" {
			c.add(RuleManifestDependency.New(file, "%s version %s %s; pin an explicit range such as \"1.32.2\" or \"^1.32.2\"", name, show(raw), why).AtPointer(ptr))
		}
	}

	scripts, _ := obj.At("scripts").(*canonjson.Object)
	test := scripts.At("test")
	why := "is missing"
	if test != nil {
		why = "is not a string"
		if s, ok := test.(canonjson.String); ok {
			why = testScriptProblem(string(s))
		}
	}
	if why != "" {
		c.add(RuleManifestTestScript.New(file, `"scripts.test" %s; use a plain command such as "node --test"`, why).AtPointer("/scripts/test"))
	}
	for _, hook := range lifecycleHooks {
		if scripts.Has(hook) {
			c.add(RuleManifestLifecycle.New(file, "lifecycle hook %q runs code implicitly during install or test; remove it", hook).AtPointer(diag.Pointer("scripts", hook)))
		}
	}
	return m
}

// versionProblem explains why a dependency specifier is not an explicit
// version range, or returns "".
func versionProblem(spec string) string {
	s := strings.TrimSpace(spec)
	switch {
	case s == "":
		return "is empty"
	case s == "*" || strings.EqualFold(s, "x") || s == "latest":
		return "accepts any release"
	case strings.Contains(s, ":") || strings.Contains(s, "/"):
		return "is not a registry version range"
	case !strings.ContainsAny(s, "0123456789"):
		return "is a dist-tag, not a version range"
	}
	return ""
}

// testScriptProblem explains why scripts.test is not a plain node --test
// command, or returns "". code2skill never runs npm scripts, but a package's
// documented test command must be one a reviewer can trust at a glance.
func testScriptProblem(s string) string {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return "is empty"
	}
	if i := strings.IndexAny(s, ";&|<>`$(){}\\\n\r"); i >= 0 {
		return fmt.Sprintf("uses the shell operator %q", s[i:i+1])
	}
	if fields[0] != "node" {
		return fmt.Sprintf("starts with %q, not node", fields[0])
	}
	if !slices.Contains(fields[1:], "--test") {
		return "does not pass --test to node"
	}
	return ""
}

// show renders a JSON value for a message: a short string or a scalar as
// written, otherwise its type; "missing" for an absent member.
func show(v canonjson.Value) string {
	switch x := v.(type) {
	case nil:
		return "missing"
	case canonjson.String:
		if len(x) <= 60 {
			return fmt.Sprintf("%q", string(x))
		}
	case canonjson.Bool, canonjson.Number:
		return fmt.Sprint(x)
	}
	return canonjson.TypeName(v)
}
