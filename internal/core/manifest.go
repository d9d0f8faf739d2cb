package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// manifest is what the checks need from package.json.
type manifest struct {
	raw  map[string]any
	host bool // code2skill.requiresHostIntegration
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
	var v any
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		c.add(jsonError(RuleManifestInvalid, file, src, err))
		return nil
	}
	if dec.More() {
		c.add(RuleManifestInvalid.New(file, "unexpected data after the JSON object"))
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		c.add(RuleManifestInvalid.New(file, "package.json holds %s, not an object", kind(v)))
		return nil
	}
	m := &manifest{raw: obj}

	if t, _ := obj["type"].(string); t != "module" {
		c.add(RuleManifestType.New(file, `"type" is %s; set it to "module" so that .mjs and .js files load as ES modules`, show(obj["type"])).AtPointer("/type"))
	}

	meta, _ := obj["code2skill"].(map[string]any)
	if p, _ := meta["profile"].(string); p != Profile {
		c.add(RuleManifestProfile.New(file, `"code2skill.profile" is %s; set it to %q`, show(meta["profile"]), Profile).AtPointer("/code2skill/profile"))
	}
	if h, present := meta["requiresHostIntegration"]; present {
		b, ok := h.(bool)
		if !ok {
			c.add(RuleManifestHostIntegration.New(file, `"code2skill.requiresHostIntegration" is %s; use true or false`, show(h)).AtPointer("/code2skill/requiresHostIntegration"))
		}
		m.host = b
	}

	deps, _ := obj["dependencies"].(map[string]any)
	for _, name := range runtimeDeps {
		ptr := diag.Pointer("dependencies", name)
		raw, ok := deps[name]
		if !ok {
			where := ""
			if dev, _ := obj["devDependencies"].(map[string]any); dev[name] != nil {
				where = " (it is only a devDependency, which npm ci --omit=dev leaves out)"
			}
			c.add(RuleManifestDependency.New(file, "%s is not declared in dependencies%s", name, where).AtPointer(ptr))
			continue
		}
		why := "is not a string"
		if spec, ok := raw.(string); ok {
			why = versionProblem(spec)
		}
		if why != "" {
			c.add(RuleManifestDependency.New(file, "%s version %s %s; pin an explicit range such as \"1.32.2\" or \"^1.32.2\"", name, show(raw), why).AtPointer(ptr))
		}
	}

	scripts, _ := obj["scripts"].(map[string]any)
	test, hasTest := scripts["test"]
	ts, _ := test.(string)
	if why := testScriptProblem(ts); !hasTest || why != "" {
		if !hasTest {
			why = "is missing"
		}
		c.add(RuleManifestTestScript.New(file, `"scripts.test" %s; use a plain command such as "node --test tests/"`, why).AtPointer("/scripts/test"))
	}
	for _, hook := range lifecycleHooks {
		if _, ok := scripts[hook]; ok {
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

// jsonError turns a decoding error into a diagnostic with a line and column.
func jsonError(rule *diag.Rule, file string, src []byte, err error) diag.Diagnostic {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(src, syn.Offset)
		return rule.New(file, "invalid JSON: %v", syn).At(line, col)
	case errors.As(err, &typ):
		line, col := position(src, typ.Offset)
		return rule.New(file, "invalid JSON: %v", typ).At(line, col)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(src, int64(len(src)))
		return rule.New(file, "invalid JSON: unexpected end of file").At(line, col)
	}
	return rule.New(file, "invalid JSON: %v", err)
}

// position converts a byte offset into a 1-based line and column.
func position(src []byte, off int64) (line, col int) {
	if off > int64(len(src)) {
		off = int64(len(src))
	}
	before := src[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	if col == 0 {
		col = 1
	}
	return line, col
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// show renders a JSON value for a message: the value when it is a short
// scalar, otherwise its kind; "missing" for nil.
func show(v any) string {
	switch x := v.(type) {
	case nil:
		return "missing"
	case string:
		if len(x) <= 60 {
			return fmt.Sprintf("%q", x)
		}
	case bool, json.Number:
		return fmt.Sprint(x)
	}
	return kind(v)
}
