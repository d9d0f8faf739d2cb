export const a = 1; // trailing
