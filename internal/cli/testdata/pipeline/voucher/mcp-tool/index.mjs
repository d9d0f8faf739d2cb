// The MCP adapter of the fictional voucher package, written by hand in the
// shape code2skill compile gives it.
import { McpServer, StdioServerTransport, z } from "./runtime.mjs";
import { quoteVoucher, redeemVoucher } from "../function-core/index.mjs";
import { normalizeToolError } from "../portable-error-normalizer.mjs";

const server = new McpServer({ name: "voucher-redemption", version: "1" });

function project(result, isError) {
  return { structuredContent: result, content: [{ type: "text", text: JSON.stringify(result) }], isError };
}

server.registerTool("quote_voucher", {
  title: "Vouchers: quote",
  description: "Quotes the credit of a voucher.",
  inputSchema: { voucherCode: z.string() },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
}, async (input, runtimeContext) => {
  if (process.env.CODE2SKILL_DRY_RUN === "1") {
    return project({ dryRun: true, validatedInput: input }, false);
  }
  try {
    return project(await quoteVoucher(input, runtimeContext), false);
  } catch (error) {
    return project(normalizeToolError(error, { sideEffect: "read", automaticRetry: "read-only-bounded" }), true);
  }
});

server.registerTool("redeem_voucher", {
  title: "Vouchers: redeem",
  description: "Redeems a quoted, confirmed voucher.",
  inputSchema: {
    voucherCode: z.string(),
    quote: z.object({ quoteId: z.string(), payloadDigest: z.string(), credit: z.number() }),
    confirmation: z.object({ grantId: z.string(), quoteId: z.string() }),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
}, async (input, runtimeContext) => {
  if (process.env.CODE2SKILL_DRY_RUN === "1") {
    return project({ dryRun: true, validatedInput: input }, false);
  }
  try {
    return project(await redeemVoucher(input, runtimeContext), false);
  } catch (error) {
    return project(normalizeToolError(error, { sideEffect: "create", automaticRetry: "never" }), true);
  }
});

await server.connect(new StdioServerTransport());
