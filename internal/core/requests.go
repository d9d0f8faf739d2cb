package core

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
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
	return reach.Config{Variables: vars, DryRunVariable: contract.DefaultDryRunVariable, Public: c.public, CallTimeout: max(timeout, 100*time.Millisecond)}
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
		c.sentMethods(tools[i], tr.Methods)
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

// sentMethods reports the annotations the methods a Tool really sent
// contradict, unless the code's own reading already did.
func (c *checker) sentMethods(t reach.Tool, methods []string) {
	ptr := diag.Pointer("tools", t.Index, "annotations")
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
