export class A { #x = 1; static #y; static { this.z = 1; } get x() { return this.#x; } #m() { return #x in this; } }
