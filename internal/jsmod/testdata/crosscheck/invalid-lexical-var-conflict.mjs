let a; var a;
