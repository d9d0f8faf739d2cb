export * as ns from "x"; import * as y from "y"; export { y as "string name" };
let a = 1n ** 2n; a ||= 3; a &&= 4; a ??= 5; const o = { ...y, [a]: `t${a}` }; for await (const q of []) {}
label: for (;;) { break label; }
export async function* g() { yield* [1]; }
