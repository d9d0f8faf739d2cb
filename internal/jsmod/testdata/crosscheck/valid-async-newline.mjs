const async = 1; async
function f() {} export { f };
