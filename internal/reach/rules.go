package reach

import "github.com/code2skill/code2skill/internal/diag"

// What a Tool sends.
var (
	RuleInputDropped = diag.Register("CORE_REACH_INPUT_DROPPED", diag.Error,
		"every input a Tool declares reaches its request (path, query, headers or body), unless the schema documents it as local (x-code2skill-local)")
	RuleInputMisplaced = diag.Register("CORE_REACH_INPUT_MISPLACED", diag.Error,
		"an input reaches its request where the service receives it, not only in the URL fragment, which never leaves the client")
	RuleOutsideBase = diag.Register("CORE_REACH_OUTSIDE_BASE", diag.Error,
		"a Tool sends its requests only under the base URL the host configured for the service")
	RuleRequestInvalid = diag.Register("CORE_REACH_REQUEST_INVALID", diag.Error,
		"a Tool builds a request fetch accepts (no body on GET or HEAD, a valid URL and headers)")
	RuleNoRequest = diag.Register("CORE_REACH_NO_REQUEST", diag.Warning,
		"a Tool's request was observed: it sends through fetch, so code2skill could check what reaches it")
	RuleCallRefused = diag.Register("CORE_REACH_CALL_REFUSED", diag.Warning,
		"a Tool given a value for every input it declares sends its request; one it refuses leaves its inputs unchecked (state formats, enums or examples in the schema)")
	RulePrecheckRefused = diag.Register("CORE_REACH_PRECHECK_REFUSED", diag.Warning,
		"a Tool that reads before its own request (a pre-check, a login) is led past those reads by answers code2skill finds; one no answer leads on leaves its request and inputs unchecked, named with the line that refused")
	RuleInputUnchecked = diag.Register("CORE_REACH_INPUT_UNCHECKED", diag.Warning,
		"every input is varied so that where it goes is decided; one that cannot be (a single allowed value) is named")
	RuleUnstable = diag.Register("CORE_REACH_UNSTABLE", diag.Warning,
		"a Tool sends the same requests, to the same places, for the same arguments; one whose requests change from call to call leaves the inputs that only a change would show unchecked")
)

// Around the request.
var (
	RuleBaseURLNotRefused = diag.Register("CORE_REACH_BASE_URL_NOT_REFUSED", diag.Error,
		"with its base URL variable unset, a Tool stops before any request with a Tool error: no fallback address")
	RuleConfigAtLoad = diag.Register("CORE_REACH_CONFIG_AT_LOAD", diag.Warning,
		"a Function reads its base URL when it runs, so that an unset variable stops the call (read at start-up, code2skill cannot check it)")
	RuleDryRunSent = diag.Register("CORE_REACH_DRY_RUN_SENT", diag.Error,
		"a write Tool under the dry-run variable sends no write request and returns {dryRun: true, …}")
	RuleStatusNotPassed = diag.Register("CORE_REACH_STATUS_NOT_PASSED", diag.Error,
		"a Tool passes the service's status and complete body through unchanged as httpStatus and bodyText, for 2xx, 4xx and 5xx alike")
	RuleNoHTTPStatus = diag.Register("CORE_REACH_NO_HTTP_STATUS", diag.Error,
		"an HTTP Tool's result carries httpStatus: a result without one is not a success")
	RuleFailureHidden = diag.Register("CORE_REACH_FAILURE_HIDDEN", diag.Error,
		"a Tool whose request got no response (a reset connection) returns a Tool error, never a result that reads as an answer")
	RuleCredentialInResult = diag.Register("CORE_REACH_CREDENTIAL_IN_RESULT", diag.Error,
		"no credential leaves through a Tool's result, dry-run result or error: none the credential judge finds, none of the values the host injects")
)

// How a call went.
var (
	RuleCallTimeout = diag.Register("CORE_REACH_CALL_TIMEOUT", diag.Error,
		"a Tool's call answers within the time limit when its request is answered at once")
	RuleRequestLoop = diag.Register("CORE_REACH_REQUEST_LOOP", diag.Error,
		"a Tool's call sends a bounded number of requests: one that repeats a request on every answer (a loop on a refusal) never ends under a host")
	RuleProcessExit = diag.Register("CORE_REACH_PROCESS_EXIT", diag.Error,
		"a Tool's call never ends the server's process (process.exit)")
	RuleStdout = diag.Register("CORE_REACH_STDOUT", diag.Error,
		"a Tool's call writes nothing to stdout, which carries only the server's JSON-RPC messages")
	RuleServerEnded = diag.Register("CORE_REACH_SERVER_ENDED", diag.Error,
		"the server keeps running through every Tool's call")
	RuleNotChecked = diag.Register("CORE_REACH_NOT_CHECKED", diag.Warning,
		"every Tool's requests were checked: the server stopped before some Tools could be called")
)
