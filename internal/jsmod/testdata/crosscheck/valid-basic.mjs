import { a } from "./a.mjs";
export const x = 1;
export default function f() { return a?.b ?? 2; }
