const a = 1
const b = a
+ 2
export { b }
