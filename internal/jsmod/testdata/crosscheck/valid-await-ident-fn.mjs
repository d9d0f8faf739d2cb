function f() { const x = 1; return x; } export { f };
