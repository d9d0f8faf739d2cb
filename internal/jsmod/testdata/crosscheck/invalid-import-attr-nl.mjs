import x from "y"
with ({}) {}
