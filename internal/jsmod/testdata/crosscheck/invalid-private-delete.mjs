class A { #x; m() { delete this.#x; } }
