const get = 1, set = 2, of = 3, from = 4, as = 5; export { get, set, of, from, as };
