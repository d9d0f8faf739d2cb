const o = { get a() { return 1 }, set a(v) {}, async *b() {}, await: 1, yield: 2, let: 3 }; export default o;
