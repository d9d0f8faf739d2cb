var v\u0061r = 1;
