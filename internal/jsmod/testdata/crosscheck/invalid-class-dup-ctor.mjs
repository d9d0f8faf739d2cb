class A { constructor() {} constructor() {} }
