const a = {}; a?.b = 1;
