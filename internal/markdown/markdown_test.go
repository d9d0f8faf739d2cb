package markdown

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	d := Parse([]byte("# Title #\r\n" +
		"intro\n" +
		"\n" +
		"## One\n" +
		"```md\n" +
		"## not a heading\n" +
		"```\n" +
		"### Sub\n" +
		"text\n" +
		"#not a heading\n" +
		"~~~~\n" +
		"```\n" +
		"~~~~\n" +
		"## Two\n" +
		"last\n"))
	var got []Heading
	got = append(got, d.Headings...)
	want := []Heading{{1, "Title", 0}, {2, "One", 3}, {3, "Sub", 7}, {2, "Two", 13}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("headings (-want +got):\n%s", diff)
	}
	if b := d.Section(1); b != (Block{3, 13}) {
		t.Errorf("section of One = %v, want [3,13)", b)
	}
	if b := d.Section(2); b != (Block{7, 13}) {
		t.Errorf("section of Sub = %v, want [7,13)", b)
	}
	if got := d.Body(d.Section(3)); got != "last\n" {
		t.Errorf("body of Two = %q", got)
	}
	wantParas := []Block{{1, 2}, {8, 10}, {14, 15}}
	if diff := cmp.Diff(wantParas, d.Paragraphs()); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
	for i, fenced := range []bool{false, false, false, false, true, true, true, false, false, false, true, true, true, false, false} {
		if d.Fenced[i] != fenced {
			t.Errorf("line %d fenced = %t, want %t", i+1, d.Fenced[i], fenced)
		}
	}
}

func TestCodeBlocks(t *testing.T) {
	d := Parse([]byte("text\n" +
		"```JSON \n" +
		"{\"a\": 1}\n" +
		"~~~\n" +
		"```\n" +
		"~~~~ toml\n" +
		"[x]\n" +
		"~~~~~\n" +
		"````\n" +
		"unclosed\n"))
	want := []CodeBlock{
		{Info: "JSON", Start: 2, Lines: []string{`{"a": 1}`, "~~~"}},
		{Info: "toml", Start: 6, Lines: []string{"[x]"}},
		{Info: "", Start: 9, Lines: []string{"unclosed", ""}},
	}
	if diff := cmp.Diff(want, d.CodeBlocks()); diff != "" {
		t.Errorf("code blocks (-want +got):\n%s", diff)
	}
}
