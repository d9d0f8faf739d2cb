const a = 1, b = 2, c = 3; const x = (a ?? b) || c; export { x };
