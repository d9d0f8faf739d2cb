package jsmod

import "testing"

func TestParseSharesModulesOfTheSameSource(t *testing.T) {
	src := []byte("import { a } from './a.mjs';\nexport const b = a;\n")
	m1, _ := Parse("x.mjs", src)
	m2, _ := Parse("x.mjs", append([]byte(nil), src...))
	if m1 == nil || m1 != m2 {
		t.Fatal("the same file and source were parsed twice")
	}
	if m3, _ := Parse("y.mjs", src); m3 == m1 || m3.File != "y.mjs" {
		t.Error("another file name shared the module, and the name its findings carry")
	}
	if m4, _ := Parse("x.mjs", []byte("export const b = 2;\n")); m4 == m1 {
		t.Error("changed source gave the module of the old one")
	}
	bad := []byte("export const = ;\n")
	_, d1 := Parse("bad.mjs", bad)
	_, d2 := Parse("bad.mjs", bad)
	if len(d1) != 1 || len(d2) != 1 || d1[0].Message != d2[0].Message {
		t.Errorf("a syntax error is not reported the same way again: %v, %v", d1, d2)
	}
}

func TestParseCacheEvictsByBytes(t *testing.T) {
	c := &parseCache{max: 10}
	k := func(s string) parseKey { return parseKey{file: s} }
	c.put(k("a"), parseResult{size: 4})
	c.put(k("b"), parseResult{size: 4})
	c.get(k("a")) // a is now the most recently used
	c.put(k("c"), parseResult{size: 4})
	if _, ok := c.get(k("b")); ok {
		t.Error("the least recently used entry was kept past the bound")
	}
	if _, ok := c.get(k("a")); !ok {
		t.Error("a recently used entry was evicted")
	}
	c.put(k("huge"), parseResult{size: 11})
	if _, ok := c.get(k("huge")); ok || c.size > c.max {
		t.Errorf("an entry larger than the bound was kept (size %d)", c.size)
	}
}
