a: a: ;
