const o = { __proto__: 1, __proto__: 2 };
