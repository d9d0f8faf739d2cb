async function f(a = await 1) {}
