package jsmod

import "testing"

func TestTestsDeclared(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      int
	}{
		{"top-level tests", "import { test } from 'node:test';\ntest('a', () => {});\nawait test('b', async () => {});", 2},
		{"skip, todo and only still count", "import { test, it } from 'node:test';\ntest.skip('a', () => {});\nit.todo('b');\ntest.only('c', () => {});", 3},
		{"describe bodies", "import { describe, it } from 'node:test';\ndescribe('s', () => { it('a', () => {}); describe('t', function () { it('b', () => {}); }); });", 2},
		{"default import", "import test from 'node:test';\ntest('a', () => {});", 1},
		{"namespace import", "import * as nt from 'node:test';\nnt.test('a', () => {});\nnt.it('b', () => {});", 2},
		{"renamed import", "import { test as check } from 'test';\ncheck('a', () => {});", 1},
		{"conditional and looped tests are not counted", "import { test } from 'node:test';\nif (process.env.X) test('a', () => {});\nfor (const c of [1, 2]) test('b', () => {});\nfunction cases() { test('c', () => {}); }", 0},
		{"a local test function is not node:test", "function test(name, fn) { fn(); }\ntest('a', () => {});", 0},
		{"no node:test import", "import { test } from './my-runner.mjs';\ntest('a', () => {});", 0},
		{"subtests are not counted", "import { test } from 'node:test';\ntest('a', async (t) => { await t.test('b', () => {}); });", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustParse(t, tc.src).TestsDeclared(); got != tc.want {
				t.Errorf("TestsDeclared() = %d, want %d", got, tc.want)
			}
		})
	}
}
