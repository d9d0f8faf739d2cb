class A { m() { return this.#x; } }
