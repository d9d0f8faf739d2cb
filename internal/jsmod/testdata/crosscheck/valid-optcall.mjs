const a = null; a?.(); a?.[0]; a?.b.c(); export {};
