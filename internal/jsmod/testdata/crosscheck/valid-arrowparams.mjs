const f = async ({ a = 1, ...r }, [b, , c] = []) => a + b + c; export { f };
