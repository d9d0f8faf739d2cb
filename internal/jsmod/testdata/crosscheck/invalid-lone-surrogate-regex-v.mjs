const r = /[a&&&b]/v;
