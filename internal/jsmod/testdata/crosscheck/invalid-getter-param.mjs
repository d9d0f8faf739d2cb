const o = { get a(x) { return 1 } };
