// Throws before it can answer anything.
throw new Error("sample startup failure");
