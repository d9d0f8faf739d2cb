const r = /[/]/; export { r };
