const a = 1__0;
