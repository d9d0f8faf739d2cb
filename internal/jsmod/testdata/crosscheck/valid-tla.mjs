const m = await import("node:fs");
export { m };
