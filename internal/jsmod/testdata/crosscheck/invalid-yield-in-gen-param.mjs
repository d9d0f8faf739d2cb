function* g(a = yield) {}
