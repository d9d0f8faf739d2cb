const yield = 1;
