function f(...a,) {}
