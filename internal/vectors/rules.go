package vectors

import "github.com/code2skill/code2skill/internal/diag"

// Rules of the behaviour vectors.
var (
	RuleCheckFailed = diag.Register("VECTORS_CHECK_FAILED", diag.Error,
		"a behaviour check derived from the contract failed when its vectors ran against the Function core")
	RuleCheckUncovered = diag.Register("VECTORS_CHECK_UNCOVERED", diag.Info,
		"a behaviour check the contract names cannot be proven by a mechanical vector; it stays unverified")
	RuleClientRefused = diag.Register("VECTORS_CLIENT_REFUSED", diag.Error,
		"a Tool callback returned a result a client would throw on or could not read: the TypeScript SDK Client and the Inspector CLI check structuredContent against the listed output schema, error results included")
	RuleModuleLoad = diag.Register("VECTORS_MODULE_LOAD", diag.Error,
		"a module the vectors run (Function core, error normaliser, workflow guard, MCP adapter) could not be loaded")
)
