package strict

import "github.com/code2skill/code2skill/internal/diag"

// Rules of the package layout.
var (
	RuleFileMissing      = diag.Register("STRICT_FILE_MISSING", diag.Error, "a file every strict-export-v1 package carries is missing or is not a regular file")
	RuleFileForbidden    = diag.Register("STRICT_FILE_FORBIDDEN", diag.Error, "a vNext package carries PAGE.md or workflow.json, which only legacy packages use")
	RuleFinalFileMissing = diag.Register("STRICT_FINAL_FILE_MISSING", diag.Error, "a finalized package lacks one of the five files finalize writes (validate with --pre-finalize before finalizing)")
)

// Rules of the derived views.
var (
	RuleViewStale  = diag.Register("STRICT_VIEW_STALE", diag.Error, "a derived view differs from what derive computes from the Portable Core")
	RuleViewFormat = diag.Register("STRICT_VIEW_FORMAT", diag.Warning, "a derived view has the derived content but not derive's bytes (layout or key order)")
	RuleMatrix     = diag.Register("STRICT_MATRIX_NOT_BASELINE", diag.Error, "before finalization the verification matrix claims something other than the baseline derive writes")
)

// Rules of the execution view (the capability bundle) that are facts of the
// node-stdio profile rather than of the business contract.
var ()

// Rules of the documents: the marker and fact view every Agent document
// (SKILL.md, MCP.<language>.md, references/feature-context.md) carries, the
// shared size rule, and the rules all four documents follow (placeholders,
// restatements, stale statements).
var (
	RuleDocMarker             = diag.Register("STRICT_DOC_MARKER", diag.Error, "an Agent document does not carry the marker of the current references/capability-contracts.json")
	RuleDocFactView           = diag.Register("STRICT_DOC_FACT_VIEW", diag.Error, "an Agent document does not name references/capability-contracts.json, the fact view it is bound to")
	RuleDocTooShort           = diag.Register("STRICT_DOC_TOO_SHORT", diag.Error, "a document is shorter than its minimum length or holds fewer of its language's text units (Chinese characters, English words) than required")
	RuleDocPlaceholder        = diag.Register("STRICT_DOC_PLACEHOLDER", diag.Error, "a document still holds a template placeholder (<name>) or the template's title")
	RuleDocRequiredAsOptional = diag.Register("STRICT_DOC_REQUIRED_AS_OPTIONAL", diag.Error, "a document calls an input optional that the contract requires")
	RuleDocOptionalAsRequired = diag.Register("STRICT_DOC_OPTIONAL_AS_REQUIRED", diag.Error, "a document calls an input required that the contract leaves optional")
	RuleDocConditionalAlways  = diag.Register("STRICT_DOC_CONDITIONAL_AS_ALWAYS", diag.Error, "a document calls a conditionally required input always required")
	RuleDocWriteAsReadOnly    = diag.Register("STRICT_DOC_WRITE_AS_READ_ONLY", diag.Error, "a document describes a write Tool as read-only")
	RuleDocRetryClaimed       = diag.Register("STRICT_DOC_RETRY_CLAIMED", diag.Error, "a document says a Tool whose policy is never to retry may be retried automatically")
	RuleDocStaleBound         = diag.Register("STRICT_DOC_STALE_BOUND", diag.Error, "a document states a bound of a field (maxLength, minLength, maximum, minimum, maxItems, minItems, in words or digits) that its schema does not declare with that value")
	RuleDocStaleEnum          = diag.Register("STRICT_DOC_STALE_ENUM", diag.Error, "a document lists a value of a field that its static domain does not hold, or gives a list as the whole domain that leaves a value out")
	RuleDocUnknownErrorCode   = diag.Register("STRICT_DOC_UNKNOWN_ERROR_CODE", diag.Error, "a document names an error code (UPPER_SNAKE, or one upper-case word where the line says it is a code) that neither the contract records nor the package's runtime returns")
	RuleDocUnknownTool        = diag.Register("STRICT_DOC_UNKNOWN_TOOL", diag.Error, "a document names as a Tool (a heading, a tools/call example, or next to Tool/工具/调用) a name the contract declares no Tool of")
)

// Rules of SKILL.md.
var (
	RuleSkillName         = diag.Register("STRICT_SKILL_NAME_DIRECTORY", diag.Error, "the Skill's name differs from the package directory's name")
	RuleSkillContextLink  = diag.Register("STRICT_SKILL_CONTEXT_LINK", diag.Error, "SKILL.md does not point to references/feature-context.md")
	RuleSkillHeading      = diag.Register("STRICT_SKILL_HEADING", diag.Error, "SKILL.md lacks one of the twelve exact H2 headings of a strict Skill")
	RuleSkillDryRun       = diag.Register("STRICT_SKILL_DRY_RUN", diag.Error, "SKILL.md does not explain dry-run (试运行, dry run)")
	RuleSkillToolSection  = diag.Register("STRICT_SKILL_TOOL_SECTION", diag.Error, "SKILL.md has no H3 section naming a Tool in backticks")
	RuleSkillToolCoverage = diag.Register("STRICT_SKILL_TOOL_COVERAGE", diag.Error, "a Tool's SKILL.md section is too short or misses one of its five topics (when, input, output, handoff, when not)")
	RuleSkillToolReadOnly = diag.Register("STRICT_SKILL_TOOL_READ_ONLY", diag.Error, "a read Tool's SKILL.md section does not say it is read-only (只读, read-only)")
	RuleSkillToolOutput   = diag.Register("STRICT_SKILL_TOOL_OUTPUT", diag.Error, "a Tool's SKILL.md section does not name a required output field in backticks")
	RuleSkillToolInput    = diag.Register("STRICT_SKILL_TOOL_INPUT", diag.Error, "a Tool's SKILL.md section does not name an input in backticks on a line saying whether it is required")
	RuleSkillInput        = diag.Register("STRICT_SKILL_INPUT_UNNAMED", diag.Error, "SKILL.md never names an input in backticks")
	RuleSkillExamples     = diag.Register("STRICT_SKILL_EXAMPLES", diag.Error, "SKILL.md has fewer than three worked-example sections (### 示例…, ### Example…)")
	RuleSkillUnproven     = diag.Register("STRICT_SKILL_UNPROVEN_TARGET", diag.Error, "SKILL.md does not explain an input whose requiredness at the target API is unproven as a recommendation the backend decides on")
)

// Rules of the MCP document, MCP.<language>.md (MCP.zh-CN.md, MCP.en.md).
var (
	RuleMCPDocTerm         = diag.Register("STRICT_MCPDOC_TERM", diag.Error, "the MCP document (MCP.zh-CN.md, MCP.en.md) does not use one of the protocol terms it must explain")
	RuleMCPDocToolSection  = diag.Register("STRICT_MCPDOC_TOOL_SECTION", diag.Error, "the MCP document has no H2 section naming a Tool in backticks")
	RuleMCPDocToolCoverage = diag.Register("STRICT_MCPDOC_TOOL_COVERAGE", diag.Error, "a Tool's MCP document section is too short or misses one of its seven topics")
	RuleMCPDocToolFields   = diag.Register("STRICT_MCPDOC_TOOL_FIELDS", diag.Error, "a Tool's MCP document section does not name an input or required output field in backticks")
	RuleMCPDocCallExample  = diag.Register("STRICT_MCPDOC_CALL_EXAMPLE", diag.Error, "a Tool's MCP document section has no tools/call example (\"name\" followed by \"arguments\")")
	RuleMCPDocErrorPath    = diag.Register("STRICT_MCPDOC_ERROR_PATH", diag.Error, "a Tool's MCP document section does not write an error-contract path as a dot-joined backtick path")
	RuleMCPDocErrorExample = diag.Register("STRICT_MCPDOC_ERROR_EXAMPLE", diag.Error, "a Tool's MCP document section has no structured \"isError\": true example (the error as the JSON of its text block), or shows one carrying structuredContent")
	RuleMCPDocRetryDefault = diag.Register("STRICT_MCPDOC_RETRY_DEFAULT", diag.Error, "a Tool without a retryability path is not documented as not retryable by default")
	RuleMCPDocEmptyBody    = diag.Register("STRICT_MCPDOC_EMPTY_BODY", diag.Error, "a Tool whose backend may answer without a body has no MCP document section showing that success: \"data\": null and each such status")
	RuleMCPDocDeployer     = diag.Register("STRICT_MCPDOC_DEPLOYER_CONFIRMATION", diag.Error, "a Tool whose confirmation the deployer requires has no MCP document section saying so (deployerPolicy, or the deployer's requirement in words)")
)

// Rules of MCP-SETUP.md.
var (
	RuleSetupInstall      = diag.Register("STRICT_SETUP_INSTALL_COMMAND", diag.Error, "MCP-SETUP.md has no npx skills add line for this package with -a/--agent, -g/--global and -y/--yes")
	RuleSetupScope        = diag.Register("STRICT_SETUP_INSTALL_SCOPE", diag.Error, "MCP-SETUP.md does not say that installing the Skill installs only the Skill and does not set up MCP")
	RuleSetupTopic        = diag.Register("STRICT_SETUP_TOPIC", diag.Error, "MCP-SETUP.md does not cover MCP startup, registration, authentication or environment variables")
	RuleSetupAttachment   = diag.Register("STRICT_SETUP_ATTACHMENT", diag.Error, "a package needing attachment-resolution does not explain it in MCP-SETUP.md")
	RuleSetupDryRun       = diag.Register("STRICT_SETUP_DRY_RUN_VARIABLE", diag.Error, "MCP-SETUP.md does not name the package's dry-run environment variable")
	RuleSetupStartCommand = diag.Register("STRICT_SETUP_START_COMMAND", diag.Error, "MCP-SETUP.md does not show the node mcp-tool/index.mjs command that starts the stdio server")
)

// Rules of references/feature-context.md.
var (
	RuleContextTitle        = diag.Register("STRICT_CONTEXT_TITLE", diag.Error, "references/feature-context.md has no H1 title")
	RuleContextSection      = diag.Register("STRICT_CONTEXT_SECTION", diag.Error, "references/feature-context.md lacks one of its eight H2 sections, or one is nearly empty")
	RuleContextTool         = diag.Register("STRICT_CONTEXT_TOOL", diag.Error, "references/feature-context.md does not name a Tool in backticks")
	RuleContextEvidence     = diag.Register("STRICT_CONTEXT_EVIDENCE", diag.Error, "references/feature-context.md does not cite a capability's primary exposure evidence ID in backticks")
	RuleContextReadOnly     = diag.Register("STRICT_CONTEXT_READ_ONLY", diag.Error, "the feature context of a read-only package does not say it is read-only and writes nothing")
	RuleContextPage         = diag.Register("STRICT_CONTEXT_PAGE", diag.Error, "references/feature-context.md assumes a page or route (页面, 前端路由, a web page) while the export profile's feature surface is not a route")
	RuleContextConfirmation = diag.Register("STRICT_CONTEXT_CONFIRMATION", diag.Error, "references/feature-context.md mentions the user's confirmation or the workflow Guard for a Tool whose operation policy requires no confirmation or that no declared hard workflow guards (or, about no Tool in particular, where no Tool has it)")
	RuleContextSideEffects  = diag.Register("STRICT_CONTEXT_SIDE_EFFECTS", diag.Error, "the feature context of a package with writes has no side-effect section (副作用 / 确认与写入, Side effects / Confirmation and writes) of the required size")
)
