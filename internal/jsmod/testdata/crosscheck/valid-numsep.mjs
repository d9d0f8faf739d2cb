export const n = 1_000_000; export const h = 0xFF_FF;
