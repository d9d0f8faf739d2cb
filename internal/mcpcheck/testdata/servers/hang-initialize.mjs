// Reads requests and never answers them (a minimal raw stdio script: the
// SDK always answers initialize).
process.stdin.on("data", () => {});
