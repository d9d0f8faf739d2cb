const s = "\u{1F600}\x41\n"; export { s };
