eval = 1;
