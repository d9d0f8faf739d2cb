const a = 1; const s = `a${`b${a}`}c`; export { s };
