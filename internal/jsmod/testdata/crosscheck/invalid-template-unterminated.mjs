const s = `abc;
