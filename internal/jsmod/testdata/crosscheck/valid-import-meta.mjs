const d = new URL(".", import.meta.url); export { d };
