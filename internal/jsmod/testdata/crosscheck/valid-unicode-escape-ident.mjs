const \u{61}bc = 1; export { abc };
