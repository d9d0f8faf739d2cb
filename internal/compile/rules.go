package compile

import "github.com/code2skill/code2skill/internal/diag"

// Rules of compile. Every error but COMPILE_TOOL_DOCS_INVALID,
// COMPILE_LINK_IN_THE_WAY and COMPILE_IO_FAILURE is a reason a capability
// requires review.
var (
	RuleToolDocsInvalid = diag.Register("COMPILE_TOOL_DOCS_INVALID", diag.Error,
		"authoring/tool-docs.json is not an object mapping Tool names to {title, description} strings")
	RuleToolDocsUnknown = diag.Register("COMPILE_TOOL_DOCS_UNKNOWN_TOOL", diag.Warning,
		"authoring/tool-docs.json describes a Tool the contract does not declare")
	RuleToolDocsMissing = diag.Register("COMPILE_TOOL_DOCS_MISSING", diag.Error,
		"a Tool has no authored title or description in authoring/tool-docs.json; compile never invents prose")
	RuleLocalNotStatic = diag.Register("COMPILE_LOCAL_NOT_STATIC", diag.Error,
		"a local implementation is not fully static (one single-segment output with one static value each); compile never invents a computation")
	RuleBindingTarget = diag.Register("COMPILE_BINDING_TARGET", diag.Error,
		"a binding targets what a request cannot carry: a multi-segment header, multipart or URL path target, or a place another binding fills")
	RuleURLTemplate = diag.Register("COMPILE_URL_TEMPLATE", diag.Error,
		"a step URL's {placeholders} and its path bindings disagree, or a path binding reads an optional or non-scalar input")
	RuleSchemaUnsupported = diag.Register("COMPILE_SCHEMA_UNSUPPORTED", diag.Error,
		"a schema uses a keyword or value outside the portable subset the compiled validator implements")
	RuleCondition = diag.Register("COMPILE_CONDITION", diag.Error,
		"a requiredWhen, forbiddenWhen or constraint condition has no compiled form: a composite without children, a leaf without a path, an unknown operator or an operand of the wrong kind")
	RuleConstraint = diag.Register("COMPILE_CONSTRAINT", diag.Error,
		"a constraint whose enforcement binds the Function has a form the Function cannot check: a comparison, a grant binding, a forbidden shape without an absent or empty predicate, or an unknown kind")
	RuleWorkflow = diag.Register("COMPILE_WORKFLOW", diag.Error,
		"a deterministic-workflow write names a workflow that does not have it as its entry capability")
	RuleNameReserved = diag.Register("COMPILE_NAME_RESERVED", diag.Error,
		"a functionExport collides with a name the generated modules declare")
	RuleLinkInTheWay = diag.Register("COMPILE_LINK_IN_THE_WAY", diag.Error,
		"a file compile writes, or a directory on the way to it, is a symbolic link; nothing is written through or over links")
	RuleIOFailure = diag.Register("COMPILE_IO_FAILURE", diag.Error,
		"compile could not read its inputs or write the runtime")
)
