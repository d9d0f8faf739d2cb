// Package hostruntime derives what the reviewed host runtime of a strict
// package (portable-host-runtime.mjs) does for each of its Tools, and says
// how a standard MCP stdio host starts it.
//
// A stdio host gives its server a command, arguments, a working directory
// and environment variables. The runtime builds every call's trusted
// runtime context from those and from what happens in the MCP session; what
// it needs per Tool (the origins and base URL variables, the credentials of
// each authentication kind, whether the user must confirm, how a
// workflow's protected values are recorded) comes from one derived file,
// mcp-tool/host-runtime.json, computed here from the contract and the
// export profile's hostRuntime:
//
//	data, limits := hostruntime.Binding(in) // nil when the profile declares no hostRuntime
//
// Compile writes the file; the strict validator requires it to equal this
// derivation, and MCP-SETUP.md to name exactly the Variables it reads.
//
// # Protected values
//
// A workflow's protected values are recorded in the session, never from the
// arguments of the call the guard checks. The runtime knows where each comes
// from by these rules, applied to the contract:
//
//   - the issuer of a workflow is the capability of the one hard-precondition
//     edge into its entry (capabilityGraph); its successful results issue
//     the values;
//   - a binding on an entry input (capability-input) is recorded from the
//     issuer's result at the output path that input's upstream-tool strategy
//     names from the issuer;
//   - a derived calculation over an entry input is recorded by applying the
//     same algorithm to the issuer's input of that name (an equal schema):
//     what the issuer accepted and answered for;
//   - the confirmation claim is the grant the runtime mints when the user
//     confirms the call (the entry's policy must require confirmation), the
//     subject claim the deployer's subjectVariable, the session claim the
//     session's own identifier; a constant is itself;
//   - single use holds when a binding named singleUse is the constant true,
//     and the expiry is the shortest ttlSeconds of the entry inputs those
//     bindings check.
//
// A binding these rules cannot place (an expiry claim, an input no issuer
// provides) makes its workflow unrecordable: the runtime refuses the entry
// (HOST_WORKFLOW_NOT_RECORDABLE) and Binding reports it as a limit.
package hostruntime

import (
	"cmp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// Files of a package that carries the host runtime, relative to its root.
const (
	// RuntimeFile is the reviewed runtime a host starts.
	RuntimeFile = "portable-host-runtime.mjs"
	// BindingFile is what the runtime does per Tool, derived by Binding.
	BindingFile = "mcp-tool/host-runtime.json"
)

// The one boolean field of each form the runtime asks the user to answer
// through elicitation: a write's confirmation, and that an earlier unknown
// outcome was reconciled.
const (
	ConfirmField    = "confirm"
	ReconciledField = "reconciled"
)

// SchemaVersion is the version of BindingFile's format.
const SchemaVersion = "code2skill-host-runtime/v1"

// RuleUnrecordable is a workflow whose protected values the runtime cannot
// record.
var RuleUnrecordable = diag.Register("HOST_RUNTIME_UNRECORDABLE", diag.Warning,
	"the host runtime cannot record a protected value of a workflow, so it refuses the workflow's entry; a host must supply that value itself")

// Declared reports whether the package's export profile declares a host
// runtime.
func Declared(in *derive.Inputs) bool {
	return in != nil && in.Export != nil && in.Export.HostRuntime != nil && in.Contract != nil
}

// Command returns how a stdio host starts the package at dir (an absolute
// path, as the host's configuration holds it): node with the runtime's
// absolute path as its one argument, which works whether or not the host
// honours a working directory.
func Command(dir string) (command string, args []string) {
	return "node", []string{strings.TrimSuffix(dir, "/") + "/" + RuntimeFile}
}

// Variable is one environment variable the runtime reads.
type Variable struct {
	Name string
	// Role is "base-url", "credential" or "subject".
	Role string
	// Origin is the origin a base URL serves; Authentication the kind a
	// credential is for.
	Origin, Authentication string
}

// Variable roles.
const (
	RoleBaseURL    = "base-url"
	RoleCredential = "credential"
	RoleSubject    = "subject"
)

// Variables returns the environment variables the runtime of the package
// reads, in the export profile's order: base URLs, credentials, subject.
// The dry-run variable, which the adapter reads, is not among them.
func Variables(in *derive.Inputs) []Variable {
	if !Declared(in) {
		return nil
	}
	h := in.Export.HostRuntime
	var out []Variable
	for _, o := range h.BaseURLVariables {
		out = append(out, Variable{Name: o.Variable, Role: RoleBaseURL, Origin: o.Origin})
	}
	for _, c := range h.Credentials {
		out = append(out, Variable{Name: c.Variable, Role: RoleCredential, Authentication: c.Authentication})
	}
	if h.SubjectVariable != "" {
		out = append(out, Variable{Name: h.SubjectVariable, Role: RoleSubject})
	}
	return out
}

type m = canonjson.Member

func str(s string) canonjson.Value { return canonjson.String(s) }

func object(ms ...m) *canonjson.Object { return canonjson.NewObject(ms...) }

// Binding derives mcp-tool/host-runtime.json. It returns nil when the
// export profile declares no hostRuntime. limits are the workflows the
// runtime cannot serve, as warnings on the contract. Call it only on
// inputs derive.Check accepted.
func Binding(in *derive.Inputs) (data []byte, limits []diag.Diagnostic) {
	if !Declared(in) {
		return nil, nil
	}
	c, h := in.Contract.Canonical(), in.Export.HostRuntime
	origins := canonjson.Array{}
	for _, o := range in.Export.AllowedRuntimeOrigins {
		origins = append(origins, object(m{Key: "origin", Value: str(o)}, m{Key: "baseUrlVariable", Value: str(h.BaseURLVariable(o))}))
	}
	creds := canonjson.Array{}
	for _, cr := range h.Credentials {
		o := object(m{Key: "authentication", Value: str(cr.Authentication)}, m{Key: "variable", Value: str(cr.Variable)})
		if cr.Cookie != "" {
			o.Set("cookie", str(cr.Cookie))
		} else {
			o.Set("header", str(strings.ToLower(cr.Header)))
			if cr.Scheme != "" {
				o.Set("scheme", str(cr.Scheme))
			}
		}
		creds = append(creds, o)
	}
	workflows := canonjson.Array{}
	issues := map[string][]string{} // capability ID -> workflow IDs it issues
	for i := range c.Workflows {
		w := &c.Workflows[i]
		wo, issuer, ds := workflow(c, h, w)
		limits = append(limits, ds...)
		workflows = append(workflows, wo)
		if issuer != "" {
			issues[issuer] = append(issues[issuer], w.ID)
		}
	}
	tools := canonjson.Array{}
	texts := textsOf(in.Export.Language())
	for i := range c.Capabilities {
		tools = append(tools, tool(&c.Capabilities[i], issues, texts))
	}
	doc := object(
		m{Key: "schemaVersion", Value: str(SchemaVersion)},
		m{Key: "contractId", Value: str(c.ContractID)},
		m{Key: "protocolVersion", Value: str(in.Export.ProtocolVersion)},
		m{Key: "dryRunVariable", Value: str(in.Export.DryRunVariable())},
		m{Key: "origins", Value: origins},
		m{Key: "credentials", Value: creds},
	)
	if h.SubjectVariable != "" {
		doc.Set("subjectVariable", str(h.SubjectVariable))
	}
	doc.Set("tools", tools)
	doc.Set("workflows", workflows)
	return canonjson.Encode(doc), limits
}

// tool is what the runtime does for one capability's Tool; texts are its
// questions to the user, in the package's documentation language.
func tool(cp *contract.Capability, issues map[string][]string, texts *formTexts) *canonjson.Object {
	var kinds, origins []string
	for _, s := range cp.Implementation.Steps {
		if a := cmp.Or(s.Authentication, cp.Authentication); a != "none" && !slices.Contains(kinds, a) {
			kinds = append(kinds, a)
		}
		if o, ok := contract.Origin(s.URL); ok && !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	policy, _ := cp.Raw.Get("operationPolicy")
	o := object(
		m{Key: "toolName", Value: str(cp.ToolName)},
		m{Key: "capabilityId", Value: str(cp.ID)},
		m{Key: "write", Value: canonjson.Bool(cp.IsWrite())},
		m{Key: "operationPolicy", Value: canonjson.Clone(policy)},
		m{Key: "authentication", Value: canonjson.Strings(kinds)},
		m{Key: "origins", Value: canonjson.Strings(origins)},
	)
	if p := cp.RuntimeProtection; cp.IsWrite() && p != nil && p.Mode == contract.ProtectionDeterministicWorkflow && p.WorkflowID != "" {
		o.Set("workflowId", str(p.WorkflowID))
	}
	if cp.IsWrite() && cp.NeedsConfirmation() {
		o.Set("confirmation", form(texts.confirm(cp), ConfirmField, texts.confirmTitle, texts.confirmDescription))
	}
	if cp.IsWrite() && cp.OperationPolicy.UnknownOutcome != "" && cp.OperationPolicy.UnknownOutcome != "not-applicable" {
		o.Set("reconciliation", form(texts.reconcile(cp), ReconciledField, texts.reconcileTitle, texts.reconcileDescription))
	}
	if ids := issues[cp.ID]; len(ids) > 0 {
		o.Set("issues", canonjson.Strings(ids))
	}
	return o
}

// form is an elicitation in form mode: a message and a flat schema of one
// required boolean field.
func form(message, field, title, description string) *canonjson.Object {
	return object(
		m{Key: "message", Value: str(message)},
		m{Key: "requestedSchema", Value: object(
			m{Key: "type", Value: str("object")},
			m{Key: "properties", Value: object(m{Key: field, Value: object(
				m{Key: "type", Value: str("boolean")},
				m{Key: "title", Value: str(title)},
				m{Key: "description", Value: str(description)},
			)})},
			m{Key: "required", Value: canonjson.Strings([]string{field})},
		)},
	)
}

// formTexts are the runtime's questions to the user in one documentation
// language: the message, title and field description of the confirmation
// of a write and of the statement that an unknown outcome was reconciled.
// The user reads them in the host's elicitation form, so they are written
// in the package's language, as its documents are.
type formTexts struct {
	confirm, reconcile                   func(cp *contract.Capability) string
	confirmTitle, confirmDescription     string
	reconcileTitle, reconcileDescription string
}

// chineseSideEffects name a write's side effect in a Chinese confirmation.
var chineseSideEffects = map[string]string{"create": "新建", "update": "修改", "delete": "删除"}

var chineseTexts = &formTexts{
	confirm: func(cp *contract.Capability) string {
		return "「" + cp.ToolName + "」要执行一次写操作（" + cmp.Or(chineseSideEffects[cp.SideEffect], cp.SideEffect) +
			"），只有你在这里确认之后才会发出请求。请核对本次调用的参数："
	},
	confirmTitle:       "确认执行",
	confirmDescription: "选择“是”才会发出这次写请求；选择“否”、拒绝或取消都不会发出任何请求。",
	reconcile: func(cp *contract.Capability) string {
		return "上一次调用「" + cp.ToolName + "」的结果未知：它可能已经生效，也可能没有。在业务系统中核对它的结果之前，" +
			"本次会话不会再发出这个写请求。上一次调用的参数："
	},
	reconcileTitle:       "已核对",
	reconcileDescription: "只有在业务系统中核对过上一次调用的结果之后才选择“是”；否则这个写操作在本次会话中保持停止。",
}

var englishTexts = &formTexts{
	confirm: func(cp *contract.Capability) string {
		return "\"" + cp.ToolName + "\" is about to make a write (" + cp.SideEffect +
			"); nothing is sent unless you confirm it here. Check the arguments of this call:"
	},
	confirmTitle:       "Confirm",
	confirmDescription: "Choose yes to send this write; no, decline or cancel sends nothing.",
	reconcile: func(cp *contract.Capability) string {
		return "The outcome of the earlier call of \"" + cp.ToolName + "\" is unknown: it may or may not have taken effect. " +
			"Until its outcome is checked in the business system, this session does not send this write again. The earlier call's arguments:"
	},
	reconcileTitle:       "Reconciled",
	reconcileDescription: "Choose yes only after checking the earlier call's outcome in the business system; otherwise this write stays stopped for this session.",
}

// textsOf returns the runtime's questions in a documentation language;
// Chinese for any other.
func textsOf(language string) *formTexts {
	if language == contract.LanguageEnglish {
		return englishTexts
	}
	return chineseTexts
}

// workflow is how the runtime records and protects one workflow. issuer
// is the issuing capability's ID, "" when there is none.
func workflow(c *contract.Contract, h *contract.HostRuntime, w *contract.Workflow) (*canonjson.Object, string, []diag.Diagnostic) {
	entry := capability(c, w.EntryCapabilityID)
	issuer := IssuerOf(c, w.EntryCapabilityID)
	var unrecordable []string
	limit := func(b *contract.WorkflowBinding, why string) {
		unrecordable = append(unrecordable, "binding "+b.Name+": "+why)
	}
	bindings := canonjson.Array{}
	singleUse := false
	var ttl int64
	hasTTL := false
	for i := range w.Bindings {
		b := &w.Bindings[i]
		a := &b.ActualSource
		source, _ := b.Raw.Get("actualSource")
		var expected *canonjson.Object
		switch {
		case b.ExpectedSource.Kind == "constant":
			expected = object(m{Key: "kind", Value: str("constant")}, m{Key: "value", Value: canonjson.Clone(b.ExpectedSource.Value)})
			if b.Name == "singleUse" && b.ExpectedSource.Value == canonjson.Bool(true) {
				singleUse = true
			}
		case a.Kind == "runtime-context":
			switch a.Claim {
			case "subject":
				if h.SubjectVariable == "" {
					limit(b, "the export profile names no subjectVariable")
				}
				expected = object(m{Key: "kind", Value: str("subject")})
			case "session":
				expected = object(m{Key: "kind", Value: str("session")})
			case "confirmation":
				if entry == nil || entry.OperationPolicy.Confirmation == "" || entry.OperationPolicy.Confirmation == "not-required" {
					limit(b, "its entry's policy asks for no confirmation, so the runtime mints no grant")
				}
				expected = object(m{Key: "kind", Value: str("confirmation")})
			default:
				limit(b, "the runtime keeps no "+a.Claim+" claim")
			}
		case a.Kind == "capability-input" || a.Kind == "derived-calculation":
			var why string
			expected, why = issued(c, entry, issuer, a)
			if why != "" {
				limit(b, why)
			}
			if entry != nil {
				if in, ok := entry.Input(a.InputName); ok {
					for _, f := range []*contract.Freshness{in.Freshness, in.ValueDomain.Freshness} {
						if f != nil && f.HasTTLSeconds && (!hasTTL || f.TTLSeconds < ttl) {
							ttl, hasTTL = f.TTLSeconds, true
						}
					}
				}
			}
		default:
			limit(b, "its expected value is protected state the runtime cannot record for a "+a.Kind+" actual value")
		}
		if expected == nil {
			expected = object(m{Key: "kind", Value: str("unrecordable")})
		}
		bindings = append(bindings, object(
			m{Key: "name", Value: str(b.Name)},
			m{Key: "source", Value: canonjson.Clone(source)},
			m{Key: "expected", Value: expected},
		))
	}
	o := object(m{Key: "workflowId", Value: str(w.ID)})
	if entry != nil {
		o.Set("entryToolName", str(entry.ToolName))
	}
	issuerID := ""
	if issuer != nil {
		issuerID = issuer.ID
		o.Set("issuerToolName", str(issuer.ToolName))
	}
	o.Set("singleUse", canonjson.Bool(singleUse))
	if hasTTL {
		o.Set("ttlSeconds", canonjson.Int(int(ttl)))
	}
	o.Set("bindings", bindings)
	o.Set("recordable", canonjson.Bool(len(unrecordable) == 0))
	var ds []diag.Diagnostic
	if len(unrecordable) > 0 {
		o.Set("unrecordable", canonjson.Strings(unrecordable))
		for _, why := range unrecordable {
			ds = append(ds, RuleUnrecordable.New(contract.ContractFile,
				"workflow %s: %s; the host runtime refuses %s", w.ID, why, w.EntryCapabilityID).AtPointer(w.At))
		}
	}
	return o, issuerID, ds
}

// issued says where the issuer's answer gives the expected value of an
// input binding, or why it does not.
func issued(c *contract.Contract, entry, issuer *contract.Capability, a *contract.ActualSource) (*canonjson.Object, string) {
	switch {
	case entry == nil:
		return nil, "the workflow's entry is not a capability of the contract"
	case issuer == nil:
		return nil, "no single hard-precondition edge into " + entry.ID + " names the capability that issues it"
	}
	in, ok := entry.Input(a.InputName)
	if !ok {
		return nil, entry.ID + " has no input " + a.InputName
	}
	if a.Kind == "capability-input" {
		for _, s := range in.SourceStrategies {
			if s.Kind == contract.StrategyUpstreamTool && s.CapabilityID == issuer.ID {
				path := append(slices.Clone(s.OutputPath), a.Path...)
				return object(m{Key: "kind", Value: str("issuer-result")}, m{Key: "path", Value: canonjson.Strings(path)}), ""
			}
		}
		return nil, "input " + a.InputName + " has no upstream-tool strategy from the issuer " + issuer.ID
	}
	// The issuer's input must take the same values; its description may
	// say it in other words.
	from, ok := issuer.Input(a.InputName)
	if !ok || !contractcheck.SameSchema(from.Schema, in.Schema) {
		return nil, "the issuer " + issuer.ID + " has no input " + a.InputName + " of the same schema to derive it from"
	}
	o := object(
		m{Key: "kind", Value: str("issuer-input")},
		m{Key: "inputName", Value: str(a.InputName)},
		m{Key: "path", Value: canonjson.Strings(append([]string{}, a.Path...))},
		m{Key: "algorithm", Value: str(a.Algorithm)},
	)
	return o, ""
}

// IssuerOf returns the capability whose results issue the protected values
// of the workflow entered at entryID: the capability of the one
// hard-precondition edge into the entry, or nil when there is none or more
// than one.
func IssuerOf(c *contract.Contract, entryID string) *contract.Capability {
	var from []string
	for _, e := range c.CapabilityGraph.Edges {
		if e.Kind == "hard-precondition" && e.ToCapabilityID == entryID && !slices.Contains(from, e.FromCapabilityID) {
			from = append(from, e.FromCapabilityID)
		}
	}
	if len(from) != 1 {
		return nil
	}
	return capability(c, from[0])
}

func capability(c *contract.Contract, id string) *contract.Capability {
	for i := range c.Capabilities {
		if c.Capabilities[i].ID == id {
			return &c.Capabilities[i]
		}
	}
	return nil
}
