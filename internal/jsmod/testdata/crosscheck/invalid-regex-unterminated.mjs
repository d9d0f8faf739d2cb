const r = /abc;

