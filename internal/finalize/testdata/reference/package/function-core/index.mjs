// Function core stand-in: finalize hashes this file; strict validate judges it.
export async function listSampleRequestKinds(input, context = {}) { return context; }
