const s = "<!--"; const t = `-->`; export { s, t };
