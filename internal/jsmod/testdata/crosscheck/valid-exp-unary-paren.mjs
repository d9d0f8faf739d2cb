const x = (-2) ** 2; export { x };
