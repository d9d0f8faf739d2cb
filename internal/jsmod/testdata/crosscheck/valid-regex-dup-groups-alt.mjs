const r = /(?<a>x)|(?<b>y)/; export { r };
