// Package assets holds the reviewed runtime files that code2skill copies
// byte-for-byte into generated packages, and the templates of the documents
// every package carries.
//
// Each runtime asset is reviewed once, here; packages, examples and
// validators compare against these bytes:
//
//	if !assets.AgentResult.Matches(data) {
//		// the package's copy was edited
//	}
//
// The copies the repository keeps elsewhere (the generate Skill's, an
// example's) are generated from these files by go generate at the
// repository root (internal/assetcopy).
//
// The JavaScript sources live next to this file (core/, strict/) with their
// node --test suites (core/test/, strict/test/), which go test runs.
package assets

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
)

// Profiles an asset belongs to, as package.json's code2skill.profile names
// them.
const (
	CoreProfile   = "core-export-v1"
	StrictProfile = "strict-export-v1"
)

// An Asset is one reviewed runtime file.
type Asset struct {
	name    string
	profile string
	source  string
	text    string
}

// Name is the path of the asset inside a generated package: a file at the
// package root for every asset but MCPRuntime, which is mcp-tool/runtime.mjs.
func (a Asset) Name() string { return a.name }

// Source is the path of the asset's reviewed source, relative to this
// directory (assets/): the file every copy is generated from.
func (a Asset) Source() string { return a.source }

// Profile is the package profile that uses the asset.
func (a Asset) Profile() string { return a.profile }

// Bytes returns a copy of the asset's content.
func (a Asset) Bytes() []byte { return []byte(a.text) }

// SHA256 returns the lowercase hex SHA-256 of the asset's content.
func (a Asset) SHA256() string {
	sum := sha256.Sum256([]byte(a.text))
	return hex.EncodeToString(sum[:])
}

// Matches reports whether data is byte-for-byte the asset.
func (a Asset) Matches(data []byte) bool { return string(data) == a.text }

var (
	//go:embed core/portable-agent-result.mjs
	agentResult string
	//go:embed gocore/agentresult/agentresult.go
	goAgentResult string
	//go:embed strict/portable-error-normalizer.mjs
	errorNormalizer string
	//go:embed strict/portable-workflow-guard.mjs
	workflowGuard string
	//go:embed strict/mcp-runtime-entry.mjs
	runtimeEntry string
	//go:embed strict/portable-http-dispatch.mjs
	httpDispatch string
	//go:embed strict/portable-host-runtime.mjs
	hostRuntime string
)

// The runtime assets.
var (
	// AgentResult projects Function results into MCP Tool results in
	// core-export-v1 packages: toAgentResult, toAgentError,
	// readHttpResponse, httpResultFromError.
	AgentResult = Asset{"portable-agent-result.mjs", CoreProfile, "core/portable-agent-result.mjs", agentResult}

	// GoAgentResult is AgentResult of the go-stdio runtime profile: the
	// Go package agentresult (ReadHTTPResponse, HTTPResultFromError,
	// ToAgentResult, ToAgentError) every go-stdio package carries at
	// agentresult/agentresult.go. It is not in Runtime(), which lists the
	// JavaScript assets.
	GoAgentResult = Asset{"agentresult/agentresult.go", CoreProfile, goAgentResult}

	// ErrorNormalizer turns anything a strict Tool's Function threw into
	// {code, message, details, retryable}: normalizeToolError. Unmarked
	// write failures become UNKNOWN_DISPATCH_OUTCOME.
	ErrorNormalizer = Asset{"portable-error-normalizer.mjs", StrictProfile, "strict/portable-error-normalizer.mjs", errorNormalizer}

	// WorkflowGuard enforces source-proven hard edges of strict writes:
	// PortableWorkflowGuard, dispatchWithPolicy, protectedWorkflowStateFor.
	// A package carries it only when it declares a hard workflow.
	WorkflowGuard = Asset{"portable-workflow-guard.mjs", StrictProfile, "strict/portable-workflow-guard.mjs", workflowGuard}

	// HTTPDispatch is the default dispatcher of a strict Function core:
	// dispatchHttp(url, options) → {status, data} with node's fetch, for
	// requests whose authentication is "none"; any other authentication is
	// refused before sending, since only the Host holds those credentials.
	// A Function uses it only when its runtime context supplies no
	// dispatch. A package carries it when a capability sends HTTP
	// requests.
	HTTPDispatch = Asset{"portable-http-dispatch.mjs", StrictProfile, "strict/portable-http-dispatch.mjs", httpDispatch}

	// HostRuntime is the runtime a standard MCP stdio host starts a strict
	// package through: it builds each call's trusted context (dispatch to
	// the deployed base URLs with the credentials of the environment, the
	// user's confirmation through elicitation, the session's protected
	// operations) from what the host gives a stdio server, then loads the
	// package's MCP server. A package carries it when its export profile
	// declares hostRuntime.
	HostRuntime = Asset{"portable-host-runtime.mjs", StrictProfile, "strict/portable-host-runtime.mjs", hostRuntime}

	// RuntimeEntry re-exports McpServer, StdioServerTransport and z. It is
	// the entry bundled into a strict package's mcp-tool/runtime.mjs, not a
	// file the package carries.
	RuntimeEntry = Asset{"mcp-runtime-entry.mjs", StrictProfile, "strict/mcp-runtime-entry.mjs", runtimeEntry}
)

// Runtime returns every runtime asset, in a fixed order.
func Runtime() []Asset {
	return []Asset{AgentResult, ErrorNormalizer, WorkflowGuard, HTTPDispatch, HostRuntime, RuntimeEntry}
}
