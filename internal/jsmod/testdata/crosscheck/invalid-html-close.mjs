const a = 1;
--> comment
