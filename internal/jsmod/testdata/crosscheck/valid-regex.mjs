const r = /a(?<n>b)/dgimsuy; const s = /[\p{L}--\p{N}]/v; export { r, s };
