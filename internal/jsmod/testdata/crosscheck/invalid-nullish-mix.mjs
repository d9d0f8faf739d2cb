const x = a ?? b || c;
