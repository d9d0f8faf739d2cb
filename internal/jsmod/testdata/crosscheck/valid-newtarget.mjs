function F() { return new.target; } export const u = import.meta.url; export { F };
