const f = ()
=> 1;
