const f = (...a) => a; f(...[1, 2], 3); export { f };
