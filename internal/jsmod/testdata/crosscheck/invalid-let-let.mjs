let let = 1;
