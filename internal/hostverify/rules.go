package hostverify

import "github.com/code2skill/code2skill/internal/diag"

// The rules host verification reports under: one per kind of check, so
// that a failure names what did not hold.
var (
	RuleNoRuntime      = diag.Register("HOST_VERIFY_NO_RUNTIME", diag.Error, "host verification needs the package's host runtime, and its export profile declares none")
	RuleEnv            = diag.Register("HOST_VERIFY_ENV", diag.Warning, "the host env file lacks a value for a variable the host runtime reads, or sets one it does not read")
	RuleProfile        = diag.Register("HOST_VERIFY_PROFILE", diag.Error, "the Host profile claims a facility a standard stdio host running the host runtime does not provide")
	RuleDiscovery      = diag.Register("HOST_VERIFY_DISCOVERY", diag.Error, "under the Host profile, tools/list does not list a Tool as the contract names and annotates it")
	RuleCall           = diag.Register("HOST_VERIFY_CALL", diag.Error, "a Tool's call, end to end through the host runtime, did not succeed, did not reach the backend, or carried other credentials than its authentication needs")
	RuleConfirmation   = diag.Register("HOST_VERIFY_CONFIRMATION", diag.Error, "a write that needs the user's confirmation was not refused before dispatch when the user declined or cancelled, or when the client declared no elicitation")
	RuleIsolation      = diag.Register("HOST_VERIFY_SESSION_ISOLATION", diag.Error, "a protected value one MCP session was issued was not refused before dispatch in another session")
	RuleUnknownOutcome = diag.Register("HOST_VERIFY_UNKNOWN_OUTCOME", diag.Error, "a write whose outcome became unknown was not stopped before dispatch until its reconciliation")
	RuleSkipped        = diag.Register("HOST_VERIFY_SKIPPED", diag.Warning, "a Host-phase check did not run (a write not authorised, a case missing or not resolvable)")
)
