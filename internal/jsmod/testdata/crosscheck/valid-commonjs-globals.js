// Syntactically fine in a module (the names are just globals that are
// missing at run time): a syntax check must not reject it.
export const isMain = typeof require === 'function' && typeof module === 'object';
