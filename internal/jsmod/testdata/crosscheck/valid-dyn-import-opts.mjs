const m = await import("./a.json", { with: { type: "json" } }); export { m };
