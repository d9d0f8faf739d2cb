class A { async constructor() {} }
