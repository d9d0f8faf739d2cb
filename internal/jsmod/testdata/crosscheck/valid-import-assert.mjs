export * from "./a.json" with { type: "json" };
