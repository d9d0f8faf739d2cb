const x = 017;
