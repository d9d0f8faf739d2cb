const a = 1.5n;
