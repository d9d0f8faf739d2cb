package core

import "github.com/code2skill/code2skill/internal/diag"

// Layout (spec 003, "生成目录").
var (
	RuleMissingFile = diag.Register("CORE_LAYOUT_MISSING_FILE", diag.Error,
		"a file every core-export-v1 package needs is missing")
	RuleNoTests = diag.Register("CORE_LAYOUT_NO_TESTS", diag.Error,
		"the package has no tests/**/*.test.mjs file")
	RuleStrictFile = diag.Register("CORE_LAYOUT_STRICT_FILE", diag.Error,
		"a strict-export audit file does not belong in a core-export-v1 package")
	RuleSkillLayout = diag.Register("CORE_LAYOUT_SKILL_CHOICE", diag.Error,
		"a package has exactly one of a root SKILL.md or skills/<goal>/SKILL.md files")
	RuleAssetModified = diag.Register("CORE_ASSET_MODIFIED", diag.Warning,
		"portable-agent-result.mjs is the reviewed asset, byte for byte")
	RuleSkillStray = diag.Register("CORE_LAYOUT_SKILL_STRAY", diag.Warning,
		"a SKILL.md outside the root and skills/<goal>/ is not discovered by installers")
	RuleAuditFile = diag.Register("CORE_LAYOUT_AUDIT_FILE", diag.Error,
		"a core-export-v1 package carries no PAGE.md, receipt, manifest, verification report or evidence directory")
)

// package.json.
var (
	RuleManifestInvalid = diag.Register("CORE_PACKAGE_JSON_INVALID", diag.Error,
		"package.json is valid JSON holding an object")
	RuleManifestType = diag.Register("CORE_PACKAGE_TYPE_MODULE", diag.Error,
		`package.json sets "type": "module"`)
	RuleManifestProfile = diag.Register("CORE_PACKAGE_PROFILE", diag.Error,
		`package.json sets "code2skill.profile": "core-export-v1"`)
	RuleManifestDependency = diag.Register("CORE_PACKAGE_DEPENDENCY", diag.Error,
		"@modelcontextprotocol/sdk and zod are runtime dependencies with explicit version ranges")
	RuleManifestTestScript = diag.Register("CORE_PACKAGE_TEST_SCRIPT", diag.Error,
		`scripts.test is a plain "node --test …" command without shell operators or substitutions`)
	RuleManifestLifecycle = diag.Register("CORE_PACKAGE_LIFECYCLE_SCRIPT", diag.Error,
		"package.json declares no install or test lifecycle hooks that would run code implicitly")
	RuleManifestHostIntegration = diag.Register("CORE_PACKAGE_HOST_INTEGRATION", diag.Error,
		"code2skill.requiresHostIntegration (go-stdio: requiresHostIntegration= on go.mod's marker) is a boolean")
	RuleManifestPublicEndpoint = diag.Register("CORE_PACKAGE_PUBLIC_ENDPOINT", diag.Error,
		"code2skill.publicEndpoints lists https URLs of public protocols' fixed endpoints (no credentials, query, or local address)")
)

// MCP-SETUP.md.
var (
	RuleSetupInstallScope = diag.Register("CORE_SETUP_INSTALL_SCOPE", diag.Error,
		"MCP-SETUP.md says npx skills add installs only the Skill and the MCP server is registered separately")
	RuleSetupDependencies = diag.Register("CORE_SETUP_DEPENDENCIES", diag.Error,
		"MCP-SETUP.md says how dependencies are installed: npm ci when the package ships a lockfile, otherwise npm install")
	RuleSetupRegistration = diag.Register("CORE_SETUP_STDIO_REGISTRATION", diag.Warning,
		"MCP-SETUP.md shows a stdio registration with command, args, cwd and env")
	RuleSetupEnv = diag.Register("CORE_SETUP_ENV_UNDOCUMENTED", diag.Warning,
		"MCP-SETUP.md names every environment variable the package's code reads")
	RuleSetupBaseURL = diag.Register("CORE_SETUP_BASE_URL_UNDOCUMENTED", diag.Error,
		"MCP-SETUP.md names every service address variable (base URL, host, origin) the package's code reads: without it a deployer cannot run the package")
	RuleSetupPublicEndpoint = diag.Register("CORE_SETUP_PUBLIC_ENDPOINT_UNDOCUMENTED", diag.Error,
		"MCP-SETUP.md names every public endpoint package.json declares: the deployer learns where the package sends requests")
	RuleSetupCredential = diag.Register("CORE_SETUP_CREDENTIAL_UNDOCUMENTED", diag.Error,
		"MCP-SETUP.md names every credential variable (token, API key, password, session cookie) the package's code reads")
)

// Tool inputs (spec 003: Tool arguments carry business input only).
var (
	RuleToolInputCredential = diag.Register("CORE_TOOL_INPUT_CREDENTIAL", diag.Error,
		"no Tool input is a credential (password, token, secret, API key, authorization, cookie, session)")
	RuleToolInputAddress = diag.Register("CORE_TOOL_INPUT_ADDRESS", diag.Error,
		"no Tool input is a service address (url, base URL, host, endpoint, origin): the host configures it")
	RuleToolGenericProxy = diag.Register("CORE_TOOL_GENERIC_PROXY", diag.Error,
		"no generic proxy Tool (a free method and path or URL, call_api-style names): one Tool per business capability")
)

// Tool annotations against the code (spec: hosts decide on confirmation
// from them).
var (
	RuleAnnotationReadOnly = diag.Register("CORE_TOOL_ANNOTATION_READ_ONLY", diag.Error,
		"a readOnlyHint: true Tool sends no PUT, PATCH or DELETE, through whatever helpers its Function uses")
	RuleAnnotationReadOnlyPost = diag.Register("CORE_TOOL_ANNOTATION_READ_ONLY_POST", diag.Warning,
		"a readOnlyHint: true Tool's Function sends no POST, unless the API reads through POST (a search or query endpoint)")
	RuleAnnotationReadOnlyCreates = diag.Register("CORE_TOOL_ANNOTATION_READ_ONLY_CREATES", diag.Error,
		"a readOnlyHint: true Tool's own request, as its call sent it, is no POST that creates or changes: only a URL with search or query semantics reads through POST")
	RuleAnnotationDestructive = diag.Register("CORE_TOOL_ANNOTATION_DESTRUCTIVE", diag.Error,
		"a destructiveHint: false Tool sends no DELETE, through whatever helpers its Function uses")
)

// Skills and Tools against each other, and what the scaffold leaves to
// rewrite.
var (
	RuleSkillToolUnknown = diag.Register("CORE_SKILL_TOOL_UNKNOWN", diag.Error,
		"every name a Skill uses as a Tool's (after call or invoke, before \"tool\", called as `x(…)`, a heading of its own, a call example's \"name\") is a Tool the server registers; names elsewhere (response fields in prose) are not judged")
	RuleToolUnmentioned = diag.Register("CORE_TOOL_UNMENTIONED", diag.Warning,
		"every Tool the server registers is named by some Skill, which says when to call it")
	RulePlaceholder = diag.Register("CORE_PLACEHOLDER_TEXT", diag.Error,
		"no scaffold placeholder text is left in a SKILL.md, a Tool description or MCP-SETUP.md")
	RulePlaceholderRequest = diag.Register("CORE_PLACEHOLDER_REQUEST", diag.Error,
		"no Tool still sends the scaffold's illustrative request (GET <goal>?q=<query>) instead of the application's real one")
)

// Running the package.
var (
	RuleDepsMissing = diag.Register("CORE_DEPENDENCIES_NOT_INSTALLED", diag.Error,
		"the package's dependencies are installed (npm ci, or npm install without a lockfile) before it is run")
	RuleTestsFailed = diag.Register("CORE_TESTS_FAILED", diag.Error,
		"the package's own tests pass under node --test in the sandbox")
	RuleTestsTimeout = diag.Register("CORE_TESTS_TIMEOUT", diag.Error,
		"the package's tests finish within the time limit")
	RuleTestsNone = diag.Register("CORE_TESTS_NONE_RAN", diag.Error,
		"the package's test files run at least one test")
	RuleTestsNotRun = diag.Register("CORE_TESTS_DECLARED_NOT_RUN", diag.Error,
		"every test a test file declares runs: fewer reported tests mean a file stopped early")
	RuleTestsEmptyFile = diag.Register("CORE_TESTS_EMPTY_FILE", diag.Warning,
		"every test file defines at least one test")
	RuleTestsFunctionNotRun = diag.Register("CORE_TESTS_FUNCTION_NOT_RUN", diag.Error,
		"the package's tests execute every Tool's Function (V8 coverage of the test run; go-stdio: go test's cover profile): passing tests that never call it prove nothing about it")
	RuleTestsRequestNotAnswered = diag.Register("CORE_TESTS_REQUEST_NOT_ANSWERED", diag.Error,
		"every request a Function awaits (go-stdio: sends with Do and checks the error of) got an answer from a test's mock at least once: a request site whose every run ended before its response was never tested")
	RuleTestsResultDropped = diag.Register("CORE_TESTS_RESULT_NOT_AWAITED", diag.Error,
		"a test awaits (or returns, or keeps) every call of a Tool's Function and every callTool it makes: a dropped call ends after its test, so nothing checks what the Function made of its request's answer")
	RuleTestsCoverageMissing = diag.Register("CORE_TESTS_COVERAGE_MISSING", diag.Warning,
		"the coverage of the test run could be read, so that what the tests executed is known")
	RuleNetworkOpen = diag.Register("CORE_NETWORK_NOT_ISOLATED", diag.Warning,
		"the package ran without network isolation because the OS did not allow it")
)

// strictFiles are the audit files of strict-export-v1; the compact core
// package must not carry duplicate contracts, evidence or receipts (spec
// 003: 生成目录不携带重复 Contract、证据目录、Host 报告、验证矩阵、收据或 manifest).
var strictFiles = []string{
	"canonical-contract.json",
	"capability-bundle.json",
	"capability-draft.json",
	"goal-contract.json",
	"consumer-requirements.json",
	"host-profile.json",
	"host-compatibility-report.json",
	"source-topology.json",
	"export-profile.json",
	"verification-matrix.json",
	"preflight-report.json",
	"approval-audit.json",
	"live-verification.json",
	"export-manifest.json",
	"MCP.zh-CN.md",
	"MCP.en.md",
}

// requiredFiles are the files of the node-stdio core package besides the
// Skills and tests.
var requiredFiles = []string{
	"MCP-SETUP.md",
	"package.json",
	"function-core/index.mjs",
	"mcp-tool/index.mjs",
	"portable-agent-result.mjs",
}
