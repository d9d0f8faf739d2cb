class A { static async *[Symbol.iterator]() {} "quoted" = 1; 42 = 2; static accessorX = 1; } export { A };
