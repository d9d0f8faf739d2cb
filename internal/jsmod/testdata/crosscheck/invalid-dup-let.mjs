let a = 1;
let a = 2;
