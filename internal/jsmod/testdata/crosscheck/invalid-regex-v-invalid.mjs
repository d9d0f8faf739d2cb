const r = /(?<a>x)(?<a>y)/;
