const a = 1; const b = a-- > 0; export { b };
