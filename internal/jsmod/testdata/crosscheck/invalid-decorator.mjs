@dec class A {}
