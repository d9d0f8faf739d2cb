function f() { await g(); }
