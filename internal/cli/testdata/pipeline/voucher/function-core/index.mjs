// The Function core of the fictional voucher package, written by hand in
// the shape code2skill compile gives it: every request goes through
// context.dispatch, and the redemption is handed to the workflow guard.
import { protectedWorkflowStateFor } from "../portable-workflow-guard.mjs";

class FunctionError extends Error {
  constructor(code, message, details, outcomeKnown, category) {
    super(message);
    this.code = code;
    this.details = details;
    this.retryable = false;
    this.outcomeKnown = outcomeKnown;
    this.category = category;
  }
}

// rejected is the error of a step whose status the contract does not
// accept, named by what the status means, as compiled code names it.
function rejected(stepId, status, message) {
  const category = status === 401 || status === 403 ? "authorization"
    : status >= 400 && status < 500 && status !== 408 && status !== 429 ? "business" : "upstream";
  const code = { authorization: "AUTHORIZATION_REJECTED", business: "BUSINESS_REJECTED", upstream: "UPSTREAM_STEP_REJECTED" }[category];
  return new FunctionError(code, message, { stepId, status }, true, category);
}

function requireDispatch(context) {
  if (context === null || typeof context !== "object" || typeof context.dispatch !== "function") {
    throw new FunctionError("DISPATCH_CONTEXT_REQUIRED", "the runtime context provides no dispatcher", {}, true);
  }
}

export async function quoteVoucher(input, context) {
  requireDispatch(context);
  const response = await context.dispatch("https://vouchers.example:8443/api/quotes", {
    method: "POST",
    authentication: "runtime_context",
    headers: { "content-type": "application/json" },
    body: { voucher: { code: input.voucherCode } },
  });
  if (response.status !== 200) {
    throw rejected("quote", response.status, "the quote was refused");
  }
  return { status: response.status, data: { quote: response.data.quote } };
}

export async function redeemVoucher(input, context) {
  requireDispatch(context);
  const protectedWorkflowState = protectedWorkflowStateFor(context, "redeem-voucher");
  return protectedWorkflowState.guard.dispatchWithPolicy({
    workflowId: "redeem-voucher",
    input,
    runtimeContext: context,
    operationKey: protectedWorkflowState.operationKey,
  }, async (safeInput) => {
    const response = await context.dispatch("https://vouchers.example:8443/api/redemptions", {
      method: "POST",
      authentication: "runtime_context",
      headers: { "content-type": "application/json" },
      body: { voucher: { code: safeInput.voucherCode } },
    });
    if (response.status !== 201) {
      throw rejected("redeem", response.status, "the redemption was refused");
    }
    return { status: response.status, data: { redemptionId: response.data.redemptionId, credited: response.data.credited } };
  });
}
