const x = -2 ** 2;
