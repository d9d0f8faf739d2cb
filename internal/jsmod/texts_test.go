package jsmod

import (
	"slices"
	"testing"
)

func TestTexts(t *testing.T) {
	m := mustParse(t, "const a = 'pending';\n"+
		"if (order.state !== 'open') throw new Error(`the order ${id} is not open`);\n"+
		"export const b = \"x\\u0041\";\n")
	var got []string
	var compared []string
	for _, x := range m.Texts() {
		got = append(got, x.Value)
		if x.Compared {
			compared = append(compared, x.Value)
		}
	}
	slices.Sort(got)
	if want := []string{" is not open", "open", "pending", "the order ", "xA"}; !slices.Equal(got, want) {
		t.Errorf("texts %q, want %q", got, want)
	}
	if !slices.Equal(compared, []string{"open"}) {
		t.Errorf("compared %q", compared)
	}
	for _, x := range m.Texts() {
		if x.Value == " is not open" && x.Pos.Line != 2 {
			t.Errorf("%q at line %d", x.Value, x.Pos.Line)
		}
	}
}

func TestDroppedCalls(t *testing.T) {
	m := mustParse(t, "import { addComment as add, listNotes } from '../function-core/index.mjs';\n"+
		"test('x', async () => {\n"+
		"  add({ slug: 'a' }, ctx);\n"+
		"  await listNotes({}, ctx);\n"+
		"  const p = listNotes({}, ctx);\n"+
		"  void client.callTool({ name: 'x' });\n"+
		"  return listNotes({}, ctx);\n"+
		"});\n")
	var got []string
	for _, d := range m.DroppedCalls() {
		got = append(got, d.Callee+"|"+d.Import.Name+"|"+d.Import.Specifier)
		if d.Pos.Line == 0 {
			t.Errorf("%s has no position", d.Callee)
		}
	}
	// test(…) itself is a dropped call too; the caller decides which
	// callees matter.
	want := []string{"test||", "add|addComment|../function-core/index.mjs", "callTool||"}
	if !slices.Equal(got, want) {
		t.Errorf("dropped calls %q, want %q", got, want)
	}
}
