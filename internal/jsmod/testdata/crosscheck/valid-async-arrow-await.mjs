export const f = async () => { await 1; for await (const x of []) {} };
