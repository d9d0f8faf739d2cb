package core

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/reach"
)

// ReachSummary says what the reachability calls covered.
type ReachSummary struct {
	Calls int `json:"calls"`
	// InputsChecked and InputsUnchecked count the Tool inputs whose reach
	// was decided, and those no call could decide.
	InputsChecked   int `json:"inputsChecked"`
	InputsUnchecked int `json:"inputsUnchecked"`
}

// reachConfig is what the reachability calls rely on: the variables the
// structure stage found the code reading.
func (c *checker) reachConfig() reach.Config {
	timeout := reach.DefaultCallTimeout
	if rt := c.opts.requestTimeout() / 2; rt < timeout {
		timeout = rt
	}
	setup, _ := c.pkg.ReadFile(setupFile)
	vars := reach.Variables(c.envVars, setup)
	texts := c.texts()
	return reach.Config{
		Variables: vars, DryRunVariable: contract.DefaultDryRunVariable, Public: c.public, CallTimeout: max(timeout, 100*time.Millisecond),
		Constants: comparedTexts(texts), Locate: func(msg string) string { return locate(texts, msg) },
	}
}

// moduleText is a literal text of one of the package's modules.
type moduleText struct {
	file string
	jsmod.Text
}

// texts returns the literal texts of the package's modules.
func (c *checker) texts() []moduleText {
	var out []moduleText
	for _, file := range sortedKeys(c.modules) {
		for _, t := range c.modules[file].Texts() {
			out = append(out, moduleText{file, t})
		}
	}
	return out
}

// comparedTexts returns the short texts the code compares values with,
// each once.
func comparedTexts(texts []moduleText) []string {
	var out []string
	for _, t := range texts {
		if t.Compared && t.Value != "" && len(t.Value) <= 40 && !slices.Contains(out, t.Value) && len(out) < 24 {
			out = append(out, t.Value)
		}
	}
	return out
}

// minLocated is the shortest text that can place an error message: a
// shorter one ("id") is in too many messages.
const minLocated = 8

// locate returns where an error message is written: the longest literal
// text of the package's modules the message holds, as "file:line".
func locate(texts []moduleText, msg string) string {
	best := -1
	for i, t := range texts {
		if len(strings.TrimSpace(t.Value)) >= minLocated && strings.Contains(msg, t.Value) && (best < 0 || len(t.Value) > len(texts[best].Value)) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d", texts[best].file, texts[best].Pos.Line)
}

// checkRequests makes the reachability calls in the discovery session and
// judges them (see internal/reach), then compares the methods each Tool
// really sent with its annotations.
func (c *checker) checkRequests(ctx context.Context, s *mcpcheck.Session, listed []mcpcheck.Tool, setup *reach.Setup, cfg reach.Config) error {
	tools := reach.ToolsOf(listed)
	rep, err := reach.Run(ctx, s, tools, setup, cfg)
	if err != nil {
		return err
	}
	before := c.errors()
	c.add(diag.Relocate(rep.Diagnostics, mcpcheck.ServerFile, c.serverFile())...)
	for i, tr := range rep.Tools {
		c.sentMethods(tools[i], tr)
		for _, a := range tr.AddressInputs {
			c.add(RuleToolInputAddress.New(c.serverFile(), "tool %q: input %q decides where the request goes: given an address, the Tool sent %s there; "+
				"the service's address is configuration the host sets (a base URL variable named in MCP-SETUP.md), never a Tool input", tr.Name, a.Path, a.Sent).AtPointer(a.Pointer))
		}
	}
	stage := StagePassed
	if c.errors() > before {
		stage = StageFailed
	}
	sum := &ReachSummary{Calls: rep.Calls}
	for _, tr := range rep.Tools {
		sum.InputsChecked += tr.Checked
		sum.InputsUnchecked += tr.Unchecked
	}
	c.mu.Lock()
	c.result.Reach, c.result.Requests = sum, stage
	c.mu.Unlock()
	return nil
}

// sentMethods reports the annotations the requests a Tool really sent
// contradict, unless the code's own reading already did, and settles the
// warning about a read-only Tool's POST once its request was seen.
func (c *checker) sentMethods(t reach.Tool, tr reach.ToolReport) {
	methods := tr.Methods
	ptr := diag.Pointer("tools", t.Index, "annotations")
	if slices.Contains(methods, "POST") {
		c.settlePost(t.Name)
	}
	if t.ReadOnly() {
		if i := slices.IndexFunc(tr.Writes, func(w string) bool { return strings.HasPrefix(w, "POST ") }); i >= 0 {
			c.add(RuleAnnotationReadOnlyCreates.New(c.serverFile(), "tool %q declares readOnlyHint: true, but its call sent %s, a POST whose URL says no search or query: it creates or changes something, "+
				"and a host calls a read-only Tool without asking the user (and skips its dry run): set readOnlyHint to false and honour the dry-run variable", t.Name, clipText(tr.Writes[i], 160)).AtPointer(ptr))
		}
	}
	if ro, ok := t.Hints["readOnlyHint"]; ok && ro && !c.annotated(RuleAnnotationReadOnly, t.Name) {
		if i := slices.IndexFunc(methods, func(m string) bool { return slices.Contains(changingMethods, m) }); i >= 0 {
			c.add(RuleAnnotationReadOnly.New(c.serverFile(), "tool %q declares readOnlyHint: true, but its call sent %s; "+
				"a host may call a read-only Tool without asking the user: set readOnlyHint to false", t.Name, methods[i]).AtPointer(ptr))
		}
	}
	if d, ok := t.Hints["destructiveHint"]; ok && !d && !c.annotated(RuleAnnotationDestructive, t.Name) && slices.Contains(methods, "DELETE") {
		c.add(RuleAnnotationDestructive.New(c.serverFile(), "tool %q declares destructiveHint: false, but its call sent DELETE; "+
			"set destructiveHint to true so that hosts confirm before calling it", t.Name).AtPointer(ptr))
	}
}

// annotated reports whether the structure stage already reported rule for
// the Tool.
func (c *checker) annotated(rule *diag.Rule, tool string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, d := range c.result.Diagnostics.Sorted() {
		if d.Rule == rule.ID && strings.Contains(d.Message, "tool \""+tool+"\"") {
			return true
		}
	}
	return false
}
