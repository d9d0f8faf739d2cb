function f(a, a) {}
