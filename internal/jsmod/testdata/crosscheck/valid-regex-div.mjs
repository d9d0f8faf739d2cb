const a = 4, g = 2, i = 1; const x = a / g / i; const y = (a) / 2; export { x, y };
