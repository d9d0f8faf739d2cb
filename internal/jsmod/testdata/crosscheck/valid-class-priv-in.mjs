class A { #a; static has(o) { return #a in o; } } export { A };
