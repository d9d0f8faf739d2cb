package jsmod

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequestAwaits(t *testing.T) {
	src := "const re = /await fetch\\(/g;\n" +
		"export async function a(context) {\n" +
		"  const response = await fetch(`${base}/x`, { method: 'GET', signal: context.signal ?? null });\n" +
		"  return String(await response.text());\n" +
		"}\n" +
		"async function attempt(fetchFn) { return context.fetch(url); }\n" +
		"export async function b() {\n" +
		"  let r = await attempt(false);\n" +
		"  const j = await (await attempt(true)).json();\n" +
		"  await Promise.resolve(1);\n" +
		"  return readHttpResponse(await globalThis.fetch?.(url));\n" +
		"}\n"
	m := mustParse(t, src)
	var got []string
	for _, a := range m.RequestAwaits() {
		got = append(got, fmt.Sprintf("%d:%d %s", a.Pos.Line, a.Pos.Column, src[a.Start:a.End]))
	}
	want := []string{
		"3:20 await fetch(`${base}/x`, { method: 'GET', signal: context.signal ?? null })",
		"8:11 await attempt(false)",
		"9:13 await (await attempt(true)).json()",
		"9:20 await attempt(true)",
		"11:27 await globalThis.fetch?.(url)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RequestAwaits (-want +got)\n%s", diff)
	}
}
