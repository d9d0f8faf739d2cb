let a = 1; delete a;
