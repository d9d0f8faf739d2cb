class A { x = arguments; }
