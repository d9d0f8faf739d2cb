// The Function core of a small fictional package, in the shape code2skill
// compile gives it: every request goes through context.dispatch, and the
// write is handed to the workflow guard.
import { protectedWorkflowStateFor } from "../portable-workflow-guard.mjs";

class FunctionError extends Error {
  constructor(code, message, details, outcomeKnown) {
    super(message);
    this.code = code;
    this.details = details;
    this.retryable = false;
    this.outcomeKnown = outcomeKnown;
  }
}

function requireDispatch(context) {
  if (context === null || typeof context !== "object" || typeof context.dispatch !== "function") {
    throw new FunctionError("DISPATCH_CONTEXT_REQUIRED", "the runtime context provides no dispatcher", {}, true);
  }
}

export async function listItems(input, context) {
  requireDispatch(context);
  const response = await context.dispatch("https://items.example/items", {
    method: "GET",
    authentication: "runtime_context",
    headers: {},
    query: { kind: input.kind },
  });
  if (response.status !== 200) {
    throw new FunctionError("UPSTREAM_STEP_REJECTED", "the backend refused the request", { status: response.status }, true);
  }
  return { status: response.status, data: response.data };
}

export async function submitItem(input, context) {
  requireDispatch(context);
  const protectedWorkflowState = protectedWorkflowStateFor(context, "submit-item");
  return protectedWorkflowState.guard.dispatchWithPolicy({
    workflowId: "submit-item",
    input,
    runtimeContext: context,
    operationKey: protectedWorkflowState.operationKey,
  }, async (safeInput) => {
    const response = await context.dispatch("https://items.example/items", {
      method: "POST",
      authentication: "none",
      headers: {},
      body: { name: safeInput.name, grant: safeInput.grant },
    });
    if (response.status !== 201) {
      throw new FunctionError("UPSTREAM_STEP_REJECTED", "the backend refused the request", { status: response.status }, true);
    }
    return { status: response.status, data: response.data };
  });
}

export async function fetchElsewhere(input, context) {
  requireDispatch(context);
  const response = await context.dispatch("https://elsewhere.example/items", { method: "GET", authentication: "none", headers: {} });
  return { status: response.status, data: response.data };
}
