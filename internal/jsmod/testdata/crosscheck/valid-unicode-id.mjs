const café = 1; const \u0061b = 2; export { café, ab };
