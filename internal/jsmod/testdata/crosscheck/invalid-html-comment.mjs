<!-- hi
export {};
