function f() { import x from "y"; }
