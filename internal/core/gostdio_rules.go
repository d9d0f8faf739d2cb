package core

import "github.com/code2skill/code2skill/internal/diag"

// The go-stdio runtime profile (docs/go-stdio.md): go.mod, the Go
// toolchain's own checks, and the in-process wrapper of style B.
var (
	RuleGoModProfile = diag.Register("CORE_GO_MOD_PROFILE", diag.Error,
		"go.mod carries the marker line // code2skill:profile core-export-v1 runtime=go-stdio")
	RuleGoModInvalid = diag.Register("CORE_GO_MOD_INVALID", diag.Error,
		"go.mod names its module and its requirements in a form code2skill reads")
	RuleGoModSDK = diag.Register("CORE_GO_MOD_SDK", diag.Error,
		"go.mod requires the official Go MCP SDK, github.com/modelcontextprotocol/go-sdk, at the version code2skill checks against")
	RuleGoReplaceOutside = diag.Register("CORE_GO_REPLACE_OUTSIDE", diag.Error,
		"a replace directive leads to a relative directory inside an authorised source root (validate --source-root), never to an absolute path")
	RuleGoReplaceUndocumented = diag.Register("CORE_GO_REPLACE_UNDOCUMENTED", diag.Error,
		"MCP-SETUP.md records the relative path of every replace directive: where the application's source must be for the package to build")
	RuleGoSyntax = diag.Register("CORE_GO_SYNTAX", diag.Error,
		"every .go file of the package parses")
	RuleGoModulesMissing = diag.Register("CORE_GO_MODULES_MISSING", diag.Error,
		"every module the build needs is in the module cache and locked in go.sum: run go mod download first; validate never uses the network")
	RuleGoVet = diag.Register("CORE_GO_VET", diag.Error,
		"go vet reports nothing about the package")
	RuleGoBuild = diag.Register("CORE_GO_BUILD", diag.Error,
		"the MCP server builds: go build ./mcp-tool")
	RuleGoTimeout = diag.Register("CORE_GO_TIMEOUT", diag.Error,
		"go vet and go build of the package finish within validate's time limit (validate --test-timeout raises it)")
	RuleGoWorkspace = diag.Register("CORE_GO_WORKSPACE", diag.Error,
		"a go-stdio package carries no go.work, go.work.sum or vendor directory: the consumer's build would compile other code than validate's")
	RuleGoFileNotBuilt = diag.Register("CORE_GO_FILE_NOT_BUILT", diag.Error,
		"validate's build compiles every Go file of the package but its tests: no file is left to cgo, another operating system or another architecture")
	RuleSetupGoBuild = diag.Register("CORE_SETUP_GO_BUILD", diag.Error,
		"MCP-SETUP.md builds the server with the settings validate builds it with: CGO_ENABLED=0 GOWORK=off GOFLAGS=-mod=readonly go build")
)
